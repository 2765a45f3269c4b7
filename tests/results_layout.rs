//! The results folder keeps the layout docs/layout.md describes, and every
//! results path that the README, the docs and the scripts name exists.

mod common;

use common::root;

#[test]
fn results_has_the_four_folders_and_nothing_loose() {
    let mut entries: Vec<String> = std::fs::read_dir(root().join("results"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    entries.sort();
    assert_eq!(entries, ["data", "figures", "runs", "tables"]);
    for table in ["table-4.5", "table-4.10", "table-4.10-6c6p", "table-4.15", "table-4.18", "perfect", "chess", "nim"] {
        for ext in ["md", "json"] {
            let path = root().join(format!("results/tables/{table}.{ext}"));
            assert!(path.is_file(), "{} is missing", path.display());
        }
    }
}

/// Paths like `results/data/curves/mm1296-lex.csv` in the documentation (globs and
/// placeholders such as `<name>` or `*` are skipped; a path ending in `/` is a folder).
#[test]
fn every_results_path_named_in_the_docs_exists() {
    let mut docs = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    for dir in ["docs", "scripts"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            docs.push(e.unwrap().path());
        }
    }
    let mut checked = 0;
    for doc in docs {
        let Ok(text) = std::fs::read_to_string(&doc) else { continue };
        for (at, _) in text.match_indices("results/") {
            if at > 0 && text.as_bytes()[at - 1].is_ascii_alphanumeric() {
                continue; // e.g. benchmarks/results/
            }
            let raw: String =
                text[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || "/._-".contains(*c)).collect();
            let rest = &text[at + raw.len()..];
            let path = raw.trim_end_matches('.');
            if path == "results/" || rest.starts_with(['<', '*', '{', '$']) || path.ends_with('-') {
                continue;
            }
            let full = root().join(path);
            assert!(full.exists(), "{} names {path}, which does not exist", doc.display());
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} paths found: the scan is broken");
}
