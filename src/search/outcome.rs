//! The exact result of playing a strategy on a set of codes: how many codes need
//! how many queries, plus penalty points. Values are exact rationals because MIX
//! averages over tied queries (thesis §4.3, Table 4.5 footnotes).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// Exact rational number used for all totals.
pub type Exact = BigRational;

/// Per-depth code counts of a subtree. Invariant: Σ `depth_counts` = |M|.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// `depth_counts[d]` = (expected) number of codes of M that need d more queries.
    pub depth_counts: Vec<Exact>,
    /// (Expected) penalty points summed over the codes of M.
    pub penalty: Exact,
}

fn int(n: u64) -> Exact {
    Exact::from_integer(BigInt::from(n))
}

impl Outcome {
    /// `codes` codes that each need `queries` more queries and share `penalty` points.
    pub fn leaf(codes: u64, queries: u32, penalty: Exact) -> Outcome {
        let mut depth_counts = vec![Exact::zero(); queries as usize + 1];
        depth_counts[queries as usize] = int(codes);
        Outcome { depth_counts, penalty }
    }

    /// The empty outcome (no codes).
    pub fn empty() -> Outcome {
        Outcome { depth_counts: Vec::new(), penalty: Exact::zero() }
    }

    /// Adds `other` with every code paying `extra` more queries.
    pub fn add_shifted(&mut self, other: &Outcome, extra: usize) {
        let need = other.depth_counts.len() + extra;
        if self.depth_counts.len() < need {
            self.depth_counts.resize(need, Exact::zero());
        }
        for (d, count) in other.depth_counts.iter().enumerate() {
            if !count.is_zero() {
                self.depth_counts[d + extra] += count;
            }
        }
        self.penalty += &other.penalty;
    }

    /// The weighted mean Σ w_i·o_i / Σ w_i (exact).
    pub fn weighted_mean(parts: &[(u64, std::sync::Arc<Outcome>)]) -> Outcome {
        let mut sum = Outcome::empty();
        let mut weight = 0u64;
        for (w, o) in parts {
            let scaled = o.scaled(&int(*w));
            sum.add_shifted(&scaled, 0);
            weight += w;
        }
        sum.scaled(&(Exact::from_integer(1.into()) / int(weight)))
    }

    fn scaled(&self, factor: &Exact) -> Outcome {
        Outcome {
            depth_counts: self.depth_counts.iter().map(|c| c * factor).collect(),
            penalty: &self.penalty * factor,
        }
    }

    /// Total queries over all codes, Σ d·depth_counts[d].
    pub fn total_queries(&self) -> Exact {
        self.depth_counts.iter().enumerate().fold(Exact::zero(), |acc, (d, c)| acc + c * int(d as u64))
    }

    /// Total score: queries plus penalty points.
    pub fn total(&self) -> Exact {
        self.total_queries() + &self.penalty
    }

    /// Number of codes (exact; an integer).
    pub fn codes(&self) -> Exact {
        self.depth_counts.iter().fold(Exact::zero(), |acc, c| acc + c)
    }

    /// Largest depth that occurs with positive weight.
    pub fn max_depth(&self) -> usize {
        self.depth_counts.iter().rposition(|c| !c.is_zero()).unwrap_or(0)
    }
}

/// Formats an exact rational as `p/q` (or `p`).
pub fn exact_string(x: &Exact) -> String {
    if x.is_integer() { x.numer().to_string() } else { format!("{}/{}", x.numer(), x.denom()) }
}

/// An exact rational as the nearest float.
pub fn exact_f64(x: &Exact) -> f64 {
    x.to_f64().unwrap_or(f64::NAN)
}

/// Rounds an exact rational to `digits` decimals (half away from zero) and formats it.
pub fn exact_decimal(x: &Exact, digits: u32) -> String {
    let scale = BigInt::from(10u32).pow(digits);
    let scaled = x * Exact::from_integer(scale.clone());
    let rounded = scaled.round().to_integer();
    let negative = rounded < BigInt::zero();
    let abs = if negative { -rounded } else { rounded };
    let int_part = &abs / &scale;
    let frac_part = &abs % &scale;
    let sign = if negative { "-" } else { "" };
    if digits == 0 {
        format!("{sign}{int_part}")
    } else {
        format!("{sign}{int_part}.{:0>width$}", frac_part.to_string(), width = digits as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn mean_of_outcomes_is_exact() {
        let a = Arc::new(Outcome::leaf(3, 2, int(0)));
        let b = Arc::new(Outcome::leaf(3, 3, int(1)));
        let m = Outcome::weighted_mean(&[(1, a), (2, b)]);
        assert_eq!(exact_string(&m.total_queries()), "8");
        assert_eq!(exact_string(&m.penalty), "2/3");
        assert_eq!(m.max_depth(), 3);
        assert_eq!(exact_string(&m.codes()), "3");
    }

    #[test]
    fn decimal_rounding() {
        let x = Exact::new(11445.into(), 2.into());
        assert_eq!(exact_decimal(&x, 2), "5722.50");
        let y = Exact::new(3026689.into(), 2040.into());
        assert_eq!(exact_decimal(&y, 2), "1483.67");
        assert_eq!(exact_decimal(&(y / Exact::from_integer(360.into())), 4), "4.1213");
    }
}
