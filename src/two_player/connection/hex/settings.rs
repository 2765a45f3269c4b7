//! The solver's settings as one stable text ([`Solver::describe`]): the part of
//! a run's identity that says which search made its counts (`reproduce hex`
//! refuses a checkpoint or a committed map of another solver).

use super::hsearch::Limits;
use super::solver::Solver;

/// `or 4 carrier 12 av+ pair 12`: the limits in a fixed order (`av0` when AV is
/// restricted to empty carriers; `max` for an unbounded limit).
pub fn limits_text(l: Limits) -> String {
    let num = |v: u64| if v == u64::MAX || v == u64::from(u32::MAX) { "max".to_string() } else { v.to_string() };
    format!(
        "or {} carrier {} {} pair {}",
        num(l.max_or as u64),
        num(u64::from(l.max_carrier)),
        if l.av_plus { "av+" } else { "av0" },
        num(l.max_per_pair as u64)
    )
}

impl Solver {
    /// The solver with the defaults before session 21 (docs/hex.md): the edge pair at
    /// [`Limits::SOLVER`], centre move order, no carried refutations, no vulnerable or dominated
    /// cells left out, no support cut. The baseline that tests compare each rule against.
    pub fn baseline(board: super::board::Board) -> Solver {
        let mut s = Solver::new(board);
        s.edge_limits = s.limits;
        (s.resistance_order, s.transplant, s.vulnerable, s.support_cut, s.dominated) =
            (false, false, false, false, false);
        s
    }

    /// Every setting that changes the search, its counts or its proofs, as one
    /// line in a fixed order and wording (not `Debug`, so that a renamed field
    /// does not change it): the H-search limits (all pairs, the edge pair), the
    /// search (df-pn with its order and numbers, or the plain search), fill-in,
    /// incremental H-search, the four pruning rules and the proof's derivations.
    /// The node budget is not part of it (it stops a search, it does not change one); the bound of
    /// [`Solver::forget`] and its slice are, named only when set (so the earlier text stays).
    pub fn describe(&self) -> String {
        let on = |b: bool| if b { "on" } else { "off" };
        let forget = self.forget.map_or(String::new(), |f| {
            format!("; forget undecided positions above {} after slices of {}", f.above, f.slice)
        });
        let search = if self.dfpn {
            // The settings of session 23 are named only when on, so that the earlier text stays.
            let grade = if self.grade == 0 { String::new() } else { format!(", graded {} %", self.grade) };
            format!(
                "df-pn (order {}{}, new-child dn {} %{grade}, widen {} %)",
                if self.resistance_order { "resistance" } else { "centre" },
                if self.killer { " + killer" } else { "" },
                self.init_dn,
                self.widen
            )
        } else {
            "plain depth-first".to_string()
        };
        format!(
            "h-search {}: {}; edge pair: {}; {search}; fill-in {}; reuse {}; transplant {}; vulnerable {}; \
             support cut {}; dominated {}; derivations {}{forget}",
            on(self.use_h_search),
            limits_text(self.limits),
            limits_text(self.edge_limits),
            on(self.fill_in),
            on(self.reuse),
            on(self.transplant),
            on(self.vulnerable),
            on(self.support_cut),
            on(self.dominated),
            on(self.derivations)
        )
    }
}
