//! The fast key of [`super::RenyiScore`] for partitions given as runs (class
//! size, count), with the terms of small classes in a table: what the size
//! models sort their candidate queries by. Same key and error bound as
//! [`super::key`]; pairs it does not separate go to
//! [`super::RenyiScore::compare`].

use super::key::{Key, KeyForm, smooth_key};
use crate::renyi::alpha::Alpha;

/// A fast key for partitions of one set given as runs (class size, count):
/// larger is better, with its error bound ([`Key`]).
pub struct RunKey {
    form: KeyForm,
    /// `small[c]` = the term of class size c and its |ε·ln c|.
    small: Vec<(f64, f64)>,
    /// Sets up to this size certainly take the smooth form ([`KeyForm::smooth_upto`]).
    smooth_upto: Option<u64>,
}

impl RunKey {
    /// A key for order α with terms tabulated for class sizes below `table_limit`.
    pub fn new(alpha: Alpha, table_limit: usize) -> RunKey {
        let form = KeyForm::new(alpha);
        let small = (0..table_limit as u64).map(|c| if c < 2 { (0.0, 0.0) } else { form.term(c) }).collect();
        RunKey { form, small, smooth_upto: form.smooth_upto() }
    }

    /// The key of a partition given as (class size, count) runs. The same key
    /// as [`KeyForm::key_with`]; where the set is known to take the smooth
    /// form, without its logarithm of the set size (a size model forms
    /// hundreds of keys per set: issue 52's table-4.15 spent most of its time
    /// in logarithms).
    pub fn key(&self, runs: &[(u64, u64)]) -> Key {
        let term = |c: u64| self.small.get(c as usize).copied().unwrap_or_else(|| self.form.term(c));
        let n: u64 = runs.iter().map(|&(c, k)| c * k).sum();
        match self.smooth_upto {
            Some(upto) if n <= upto => smooth_key(runs.iter().copied().filter(|&(c, k)| c > 0 && k > 0), term),
            _ => self.form.key_with(runs.iter().copied(), term),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::renyi::score::RenyiScore;
    use std::cmp::Ordering;

    /// Where two run keys are separated they order like the exact comparison,
    /// and they equal the keys of the expanded class sizes.
    #[test]
    fn run_key_orders_like_entropy() {
        let parts = [[(3u64, 3u64), (0, 0)], [(7, 1), (1, 2)], [(4, 2), (1, 1)], [(5, 1), (2, 2)]];
        let expand = |r: &[(u64, u64)]| -> Vec<u64> {
            r.iter().flat_map(|&(c, k)| std::iter::repeat_n(c, k as usize)).collect()
        };
        for alpha in ["0", "0.5", "1", "1.5", "2", "3", "inf", "400"] {
            let s = RenyiScore::new(alpha.parse().unwrap());
            let key = RunKey::new(alpha.parse().unwrap(), 4);
            for a in &parts {
                let (by_runs, by_sizes) = (key.key(a), s.key(&expand(a)));
                assert!((by_runs.value - by_sizes.value).abs() <= by_runs.err + by_sizes.err, "α = {alpha}");
                for b in &parts {
                    let exact = s.compare(&expand(a), &expand(b));
                    if let Some(order) = key.key(a).separated(key.key(b)) {
                        assert_eq!(order, exact, "α = {alpha}: {a:?} {b:?}");
                    } else if exact != Ordering::Equal {
                        // Not separated though not tied: only allowed when the keys are close.
                        assert!((key.key(a).value - key.key(b).value).abs() <= 1e-9 * key.key(a).value.abs().max(1.0));
                    }
                }
            }
        }
    }

    /// The shortcut past the set size's logarithm gives the very same key as
    /// the general form, on both sides of the logarithmic form's threshold.
    #[test]
    fn run_key_equals_general_form() {
        for alpha in ["0", "0.5", "1", "1.35", "2", "12", "60", "400", "inf"] {
            let a: Alpha = alpha.parse().unwrap();
            let (key, form) = (RunKey::new(a, 64), KeyForm::new(a));
            for runs in
                [vec![(3u64, 3u64)], vec![(40, 1), (7, 2), (1, 5)], vec![(1 << 40, 3), (5, 1)], vec![(2, 0), (9, 1)]]
            {
                assert_eq!(
                    key.key(&runs),
                    form.key_with(runs.iter().copied(), |c| form.term(c)),
                    "α = {alpha}, {runs:?}"
                );
            }
        }
    }

    /// Large α used to overflow the power-sum keys to ∞ (NaN differences,
    /// an empty tie band and a panic in the size models).
    #[test]
    fn run_keys_stay_finite_for_large_alpha() {
        let key = RunKey::new(Alpha::integer(200), 1001);
        let (a, b) = (key.key(&[(500, 2)]), key.key(&[(999, 1), (1, 1)]));
        assert!(a.value.is_finite() && b.value.is_finite());
        assert_eq!(a.separated(b), Some(Ordering::Greater), "the even split is better");
    }
}
