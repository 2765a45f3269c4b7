//! Markdown tables of the results files: one writer, so every reproduced table
//! has the same shape.

use std::fmt;

/// How a column is aligned; the alignment row writes `---` or `---:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// `---` (no colon: the reader's default, left).
    Left,
    /// `---:`, for numbers.
    Right,
}

/// `cell` with every `|` not already preceded by `\` escaped.
fn escape_bars(cell: &str) -> std::borrow::Cow<'_, str> {
    if !cell.contains('|') {
        return cell.into();
    }
    let mut out = String::with_capacity(cell.len() + 4);
    let mut previous = None;
    for ch in cell.chars() {
        if ch == '|' && previous != Some('\\') {
            out.push('\\');
        }
        out.push(ch);
        previous = Some(ch);
    }
    out.into()
}

/// A GitHub-flavoured markdown table: a header row, the alignment row and the
/// body rows, each line ending in `\n`.
///
/// Invariants:
/// - every body row has exactly as many cells as the header (`row` panics
///   otherwise: a short row would shift the columns of the results file);
/// - a `|` inside a cell is written escaped (`\|`), so it never splits the
///   cell; one the caller already escaped is kept as it is;
/// - the bytes are fixed, because committed results files are compared bit for
///   bit: header `| a | b |` with a blank header cell written `| |`, alignment
///   row `|---|---:|` without spaces, body rows `| x | y |` with a blank body cell
///   written `|  |`.
#[derive(Clone, Debug)]
pub struct MarkdownTable {
    header: Vec<String>,
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl MarkdownTable {
    /// A table with these columns (title and alignment) and no rows yet.
    pub fn new<S: Into<String>>(columns: impl IntoIterator<Item = (S, Align)>) -> MarkdownTable {
        let (header, align) = columns.into_iter().map(|(title, a)| (title.into(), a)).unzip();
        MarkdownTable { header, align, rows: Vec::new() }
    }

    /// Appends a body row.
    ///
    /// # Panics
    /// If the number of cells differs from the number of columns.
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let cells: Vec<String> = cells.into_iter().map(Into::into).collect();
        assert_eq!(cells.len(), self.header.len(), "markdown row {cells:?} does not fit the header {:?}", self.header);
        self.rows.push(cells);
    }
}

impl fmt::Display for MarkdownTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("|")?;
        for title in &self.header {
            if title.is_empty() { f.write_str(" |")? } else { write!(f, " {} |", escape_bars(title))? }
        }
        f.write_str("\n|")?;
        for a in &self.align {
            f.write_str(match a {
                Align::Left => "---|",
                Align::Right => "---:|",
            })?;
        }
        f.write_str("\n")?;
        for row in &self.rows {
            f.write_str("|")?;
            for cell in row {
                write!(f, " {} |", escape_bars(cell))?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Align::{Left, Right};
    use super::*;

    #[test]
    fn writes_the_committed_layout() {
        let mut t = MarkdownTable::new([("\\|C\\|", Right), ("total", Right), ("", Left)]);
        t.row(["1", "0", "="]);
        t.row(["2".to_string(), "3".to_string(), String::new()]);
        assert_eq!(t.to_string(), "| \\|C\\| | total | |\n|---:|---:|---|\n| 1 | 0 | = |\n| 2 | 3 |  |\n");
    }

    #[test]
    fn bars_in_cells_are_escaped_once() {
        let mut t = MarkdownTable::new([("rule", Left)]);
        t.row(["50 % (|Δ| < 1e-12)"]);
        t.row(["\\|C\\| kept"]);
        assert_eq!(t.to_string(), "| rule |\n|---|\n| 50 % (\\|Δ\\| < 1e-12) |\n| \\|C\\| kept |\n");
    }

    #[test]
    fn empty_table_is_header_and_alignment() {
        let t = MarkdownTable::new([("a", Left)]);
        assert_eq!(t.to_string(), "| a |\n|---|\n");
    }

    #[test]
    #[should_panic(expected = "does not fit")]
    fn short_row_panics() {
        MarkdownTable::new([("a", Left), ("b", Left)]).row(["x"]);
    }
}
