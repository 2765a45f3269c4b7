//! A fast floating-point key for partitions given as runs (class size, count),
//! ordered like H_α: what the size models sort their candidate queries by.

use crate::alpha::Alpha;

/// A fast key for partitions of one set given as runs (class size, count):
/// larger is better and it orders partitions like H_α, but it is not H_α itself
/// (α = 0: number of classes; 0<α<1: Σc^α; α = 1: −Σ c·ln c; α > 1: −Σc^α;
/// ∞: −max c). Class sizes below the table limit cost a lookup, others one
/// `powf`. Exact ties are still decided by [`super::RenyiScore::compare`].
pub struct RunKey {
    kind: KeyKind,
    /// `small[c]` = the per-class term of size c.
    small: Vec<f64>,
    /// Power sums that could overflow f64 (c^α beyond 1e300 for some class
    /// size below 2^64) are keyed by ±ln Σ c^α instead, by log-sum-exp (same
    /// order), for every partition alike.
    log_domain: bool,
}

#[derive(Clone, Copy)]
enum KeyKind {
    Count,
    NegMax,
    NegXLnX,
    PowerSum { alpha: f64, sign: f64 },
}

impl KeyKind {
    fn term(self, c: u64) -> f64 {
        let x = c as f64;
        match self {
            KeyKind::Count => 1.0,
            KeyKind::NegMax => x,
            KeyKind::NegXLnX => -x * x.ln(),
            KeyKind::PowerSum { alpha, sign } => sign * x.powf(alpha),
        }
    }
}

impl RunKey {
    /// A key for order α with terms tabulated for class sizes below `table_limit`.
    pub fn new(alpha: Alpha, table_limit: usize) -> RunKey {
        let kind = match alpha {
            Alpha::Infinity => KeyKind::NegMax,
            Alpha::Finite { num: 0, .. } => KeyKind::Count,
            Alpha::Finite { num, den } if num == den => KeyKind::NegXLnX,
            a => KeyKind::PowerSum { alpha: a.to_f64(), sign: if a.to_f64() < 1.0 { 1.0 } else { -1.0 } },
        };
        // Class sizes are below 2^64: c^α stays below 1e300 for α·64·ln 2 ≤ 600.
        let log_domain =
            matches!(kind, KeyKind::PowerSum { alpha, .. } if alpha * 64.0 * std::f64::consts::LN_2 > 600.0);
        let small = if log_domain { Vec::new() } else { (0..table_limit as u64).map(|c| kind.term(c)).collect() };
        RunKey { kind, small, log_domain }
    }

    /// The key of a partition given as (class size, count) runs.
    pub fn key(&self, runs: &[(u64, u64)]) -> f64 {
        if let (true, KeyKind::PowerSum { alpha, sign }) = (self.log_domain, self.kind) {
            let live = runs.iter().filter(|&&(c, k)| c > 0 && k > 0);
            let Some(top) = live.clone().map(|r| r.0).max() else { return 0.0 };
            let rest: f64 = live.map(|&(c, k)| k as f64 * (alpha * (c as f64 / top as f64).ln()).exp()).sum();
            return sign * (alpha * (top as f64).ln() + rest.ln());
        }
        let term = |c: u64| self.small.get(c as usize).copied().unwrap_or_else(|| self.kind.term(c));
        match self.kind {
            KeyKind::NegMax => -(runs.iter().filter(|r| r.1 > 0).map(|r| r.0).max().unwrap_or(0) as f64),
            _ => runs.iter().filter(|&&(c, k)| c > 0 && k > 0).map(|&(c, k)| k as f64 * term(c)).sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::RenyiScore;

    #[test]
    fn run_key_orders_like_entropy() {
        let parts = [[(3u64, 3u64), (0, 0)], [(7, 1), (1, 2)], [(4, 2), (1, 1)], [(5, 1), (2, 2)]];
        for alpha in ["0", "0.5", "1", "1.5", "2", "3", "inf"] {
            let s = RenyiScore::new(alpha.parse().unwrap());
            let key = RunKey::new(alpha.parse().unwrap(), 4);
            for a in &parts {
                for b in &parts {
                    let (ea, eb) =
                        (crate::entropy::renyi_of_runs(s.alpha(), a), crate::entropy::renyi_of_runs(s.alpha(), b));
                    if !RenyiScore::near(ea, eb) {
                        assert_eq!(key.key(a).partial_cmp(&key.key(b)), ea.partial_cmp(&eb), "α = {alpha}");
                    }
                }
            }
        }
    }

    /// Large α used to overflow the power-sum keys to ∞ (NaN differences,
    /// an empty tie band and a panic in the size models).
    #[test]
    fn run_keys_stay_finite_for_large_alpha() {
        let key = RunKey::new(Alpha::integer(200), 1001);
        let (a, b) = (key.key(&[(500, 2)]), key.key(&[(999, 1), (1, 1)]));
        assert!(a.is_finite() && b.is_finite());
        assert!(a > b, "the even split is better");
    }
}
