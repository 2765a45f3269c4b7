//! What a running df-pn solve reports through [`Solver::progress`] (the library never prints; the
//! command line draws it as a bar on a terminal, or as a dated line at most once a minute in a log):
//! positions searched, decided and undecided positions, the root's proof and disproof numbers,
//! resident memory and CPU seconds. Reported every [`REPORT_EVERY`] positions searched.

use super::board::{Bits, Colour, cells_of};
use super::dfpn::INF;
use super::solver::{Aborted, Entry, Solver, key};
use crate::cpu_time::process_cpu_seconds;
use crate::memory::resident_bytes;

/// Positions searched between two reports (a position costs milliseconds of H-search on 8×8, a
/// report microseconds).
pub(super) const REPORT_EVERY: u64 = 256;

/// `12 345 678`: the digits in groups of three.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(d);
    }
    out
}

/// A number of df-pn as text: `∞` for [`INF`].
fn number(n: u32) -> String {
    if n >= INF { "∞".to_string() } else { grouped(u64::from(n)) }
}

impl Solver {
    /// The status of the search: positions searched (over every run of a resumed solve), decided
    /// and undecided positions, the root's numbers, resident memory and CPU seconds (with
    /// [`Solver::cpu_before`]).
    pub fn status_text(&self) -> String {
        let root = match self.root_numbers() {
            Some((pn, dn)) => format!("root pn {} dn {}", number(pn), number(dn)),
            None => "root not expanded".to_string(),
        };
        let cpu = self.cpu_before + process_cpu_seconds().unwrap_or(0.0);
        format!(
            "{} positions searched; {} decided / {} undecided; {root}; resident {} MB; {cpu:.0} CPU-s",
            grouped(self.nodes),
            grouped(self.table.len() as u64),
            grouped(self.pn_dn.len() as u64),
            resident_bytes().unwrap_or(0) / 1_000_000
        )
    }

    /// Counts a position searched (every [`REPORT_EVERY`] reported to [`Solver::progress`]: the status,
    /// and the phase advanced by as many positions); stops the
    /// search past the node budget of the question started at `start` positions.
    pub(super) fn count_position(&mut self, start: u64) -> Result<(), Aborted> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(REPORT_EVERY) && self.progress.is_observed() {
            self.progress.status(&self.status_text());
            self.progress.advance(REPORT_EVERY);
        }
        if self.nodes - start > self.budget {
            return Err(Aborted);
        }
        Ok(())
    }

    /// The proof and disproof numbers of the root of the current question from the mover's view:
    /// decided, or from its children's stored numbers when it is expanded (a child not stored counts
    /// as (1, 1)); `None` before its expansion.
    fn root_numbers(&self) -> Option<(u32, u32)> {
        let (black, white, mover) = self.root?;
        let k = self.resolve(key(black, white, mover));
        match self.table.get(&k) {
            Some(Entry::WinByMove(_) | Entry::WinByVc(_)) => return Some((0, INF)),
            Some(Entry::LossByVc(_) | Entry::LossAll) => return Some((INF, 0)),
            None => {}
        }
        let e = self.moves.get(&k)?;
        let (b0, w0) = e.stones;
        let (mut pn, mut dn) = (INF, 0u32);
        for c in cells_of(e.moves.iter().fold(0 as Bits, |m, &c| m | 1 << c)) {
            let (b, w) = if mover == Colour::Black { (b0 | 1 << c, w0) } else { (b0, w0 | 1 << c) };
            let ck = self.resolve(key(b, w, mover.other()));
            let (cpn, cdn) = match self.table.get(&ck) {
                Some(Entry::WinByMove(_) | Entry::WinByVc(_)) => (0, INF),
                Some(Entry::LossByVc(_) | Entry::LossAll) => (INF, 0),
                None => self.pn_dn.get(&ck).copied().unwrap_or((1, 1)),
            };
            pn = pn.min(cdn);
            dn = dn.saturating_add(cpn).min(INF);
        }
        Some((pn, dn))
    }
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn numbers_are_grouped_by_three_digits() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1 000");
        assert_eq!(grouped(740_074), "740 074");
        assert_eq!(grouped(12_345_678), "12 345 678");
    }
}
