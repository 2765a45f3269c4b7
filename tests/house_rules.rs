//! The house rules of the source tree (issue 49, "Done when"), checked on every
//! `cargo test`: no file of `src/` over 500 lines; no function over 80 lines
//! without a reason (a comment line `// Long: …` directly above it, among its
//! doc comments and attributes); no glob import in `src/cli/` outside test
//! modules; code lines within rustfmt's 120 columns (rustfmt.toml), string
//! data aside: a line is measured with its string literals' contents removed.
//! Import cycles are not checked here; `farm-studio look src` draws them.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 500;
const MAX_FN_LINES: usize = 80;
const MAX_COLUMNS: usize = 120;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn sources() -> Vec<(String, Vec<String>)> {
    let root = common::root();
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).expect("UTF-8 source");
            let name = p.strip_prefix(&root).unwrap_or(&p).display().to_string();
            (name, text.lines().map(str::to_owned).collect())
        })
        .collect()
}

/// A line with its character literals of a quote (`'"'`, `'\"'`) blanked, so
/// that quote counting sees string literals only.
fn quotes_of_strings(line: &str) -> String {
    line.replace("'\\\"'", "' '").replace("'\"'", "' '")
}

/// The line with the contents of its string literals removed (`"…"` → `""`);
/// a line that opens a literal it does not close keeps what lies before it.
fn without_string_data(line: &str) -> String {
    let line = quotes_of_strings(line);
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        if in_str {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => {
                    in_str = false;
                    out.push('"');
                }
                _ => {}
            }
        } else {
            if c == '/' && chars.peek() == Some(&'/') {
                out.push(c);
                out.extend(chars);
                break;
            }
            if c == 'r' && matches!(chars.peek(), Some('#') | Some('"')) {
                // A raw string r"…" or r#"…"#: skip to its closing quote and hashes.
                let hashes = chars.clone().take_while(|&h| h == '#').count();
                let rest: String = chars.clone().skip(hashes).collect();
                if let Some(body) = rest.strip_prefix('"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    out.push_str("r\"\"");
                    if let Some(end) = body.find(&close) {
                        out.push_str(&without_string_data(&body[end + close.len()..]));
                    }
                    break;
                }
            }
            if c == '"' {
                in_str = true;
            }
            out.push(c);
        }
    }
    out
}

/// For each line, whether it begins inside a string literal opened on an
/// earlier line (a multi-line literal: string data as a whole).
fn string_continuation_lines(lines: &[String]) -> Vec<bool> {
    let mut inside = false;
    lines
        .iter()
        .map(|l| {
            let was_inside = inside;
            let mut escaped = false;
            let mut chars = quotes_of_strings(l).chars().collect::<Vec<_>>().into_iter().peekable();
            while let Some(c) = chars.next() {
                if escaped {
                    escaped = false;
                } else if inside {
                    match c {
                        '\\' => escaped = true,
                        '"' => inside = false,
                        _ => {}
                    }
                } else if c == '/' && chars.peek() == Some(&'/') {
                    break;
                } else if c == '"' {
                    inside = true;
                }
            }
            was_inside
        })
        .collect()
}

#[test]
fn no_source_file_is_longer_than_500_lines() {
    let long: Vec<String> = sources()
        .into_iter()
        .filter(|(_, lines)| lines.len() > MAX_FILE_LINES)
        .map(|(name, lines)| format!("{name}: {} lines", lines.len()))
        .collect();
    assert!(long.is_empty(), "files over {MAX_FILE_LINES} lines:\n{}", long.join("\n"));
}

/// Start lines of functions (at any indentation) and their length up to the
/// closing brace at the same indentation.
fn functions(lines: &[String]) -> Vec<(usize, String, usize)> {
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let head = trimmed
            .trim_start_matches("pub ")
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("const ")
            .trim_start_matches("unsafe ");
        let Some(rest) = head.strip_prefix("fn ") else { continue };
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        // The line that opens the body (or ends a declaration without one).
        let Some(open) = (i..lines.len()).find(|&j| lines[j].contains('{') || lines[j].trim_end().ends_with(';'))
        else {
            continue;
        };
        let opened = lines[open].matches('{').count();
        if !lines[open].contains('{') || opened == lines[open].matches('}').count() {
            continue; // a declaration, or a body on one line
        }
        let close = format!("{indent}}}");
        if let Some(end) = (open + 1..lines.len()).find(|&j| lines[j].trim_end() == close) {
            found.push((i, name, end - i + 1));
        }
    }
    found
}

/// A `// Long: reason` comment among the lines directly above line `i`
/// (doc comments, attributes and comments up to the previous item).
fn has_reason(lines: &[String], i: usize) -> bool {
    lines[..i]
        .iter()
        .rev()
        .take_while(|l| {
            let t = l.trim_start();
            t.starts_with("//") || t.starts_with("#[")
        })
        .any(|l| l.trim_start().starts_with("// Long:"))
}

#[test]
fn no_function_is_longer_than_80_lines_without_a_reason() {
    let mut long = Vec::new();
    for (name, lines) in sources() {
        for (i, f, n) in functions(&lines) {
            if n > MAX_FN_LINES && !has_reason(&lines, i) {
                long.push(format!("{name}:{} fn {f}: {n} lines", i + 1));
            }
        }
    }
    assert!(long.is_empty(), "functions over {MAX_FN_LINES} lines without `// Long:`:\n{}", long.join("\n"));
}

#[test]
fn the_cli_has_no_glob_imports() {
    let mut globs = Vec::new();
    for (name, lines) in sources().into_iter().filter(|(n, _)| n.starts_with("src/cli/")) {
        let mut in_tests = false;
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with("mod tests") || line.contains("mod tests {") {
                in_tests = true;
            }
            let t = line.trim();
            if !in_tests && (t.starts_with("use ") || t.starts_with("pub use ")) && t.ends_with("::*;") {
                globs.push(format!("{name}:{}: {t}", i + 1));
            }
        }
    }
    assert!(globs.is_empty(), "glob imports in src/cli/:\n{}", globs.join("\n"));
}

#[test]
fn code_lines_fit_120_columns() {
    let mut wide = Vec::new();
    for (name, lines) in sources() {
        let continued = string_continuation_lines(&lines);
        for (i, line) in lines.iter().enumerate() {
            if continued[i] || line.chars().count() <= MAX_COLUMNS {
                continue;
            }
            let code = without_string_data(line);
            if code.chars().count() > MAX_COLUMNS {
                wide.push(format!("{name}:{}: {} columns", i + 1, line.chars().count()));
            }
        }
    }
    assert!(wide.is_empty(), "lines over {MAX_COLUMNS} columns outside string data:\n{}", wide.join("\n"));
}
