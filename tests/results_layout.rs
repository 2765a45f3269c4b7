//! The results folder keeps the layout ARCHITECTURE.md describes ("Where things live"), and every
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
            // A longer relative path such as benchmarks/results/… is checked whole;
            // a word ending in "results" or an absolute path or URL is not a results path.
            let is_path = |c: char| c.is_ascii_alphanumeric() || "/._-".contains(c);
            let start =
                text[..at].char_indices().rev().find(|&(_, c)| !is_path(c)).map_or(0, |(i, c)| i + c.len_utf8());
            let prefix = &text[start..at];
            if !prefix.is_empty() && (!prefix.ends_with('/') || prefix.starts_with(['/', '.'])) {
                continue;
            }
            let raw: String =
                text[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || "/._-".contains(*c)).collect();
            let rest = &text[at + raw.len()..];
            let path = raw.trim_end_matches('.');
            if path == "results/" || rest.starts_with(['<', '*', '{', '$']) || path.ends_with('-') {
                continue;
            }
            let full = root().join(format!("{prefix}{path}"));
            assert!(full.exists(), "{} names {prefix}{path}, which does not exist", doc.display());
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} paths found: the scan is broken");
}

/// Files under `results/` outside `runs/`, recursively.
fn results_files() -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root().join("results")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() && !path.ends_with("runs") {
                stack.push(path);
            } else if path.is_file() {
                out.push(path);
            }
        }
    }
    out
}

/// Issue 49 item 8: a CSV opens in a plain reader (`pandas.read_csv(path)`):
/// its first line is the header row, not a `#` comment.
#[test]
fn every_results_csv_starts_with_its_header_row() {
    let csvs: Vec<_> = results_files().into_iter().filter(|p| p.extension().is_some_and(|e| e == "csv")).collect();
    assert!(csvs.len() > 20, "only {} CSVs found: the scan is broken", csvs.len());
    for path in csvs {
        let text = std::fs::read_to_string(&path).unwrap();
        let header = text.lines().next().unwrap_or_default();
        assert!(!header.starts_with('#'), "{} starts with a comment: {header}", path.display());
        let first_field = header.split(',').next().unwrap_or_default();
        assert!(
            first_field.chars().next().is_some_and(|c| c.is_ascii_alphabetic()),
            "{}: the first line is not a header row: {header}",
            path.display()
        );
    }
}
