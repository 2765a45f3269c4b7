//! Outward-rounded interval arithmetic in `f64`, for certified signs of the
//! exponential sums whose roots are the breakpoints of an α-curve.
//!
//! `+`, `−` and `·` are correctly rounded in IEEE 754, so their results are
//! widened by one ulp each way ([`f64::next_down`], [`f64::next_up`]); `exp`
//! and `ln_1p` by [`SLACK`] (relative, about 4.5 ulp, plus the smallest normal
//! number), which covers the platform's libm (glibc documents both within 1
//! ulp). An [`Interval`] therefore always contains the exact real value it
//! stands for.

use std::cmp::Ordering;

/// Relative widening applied to every elementary result.
pub const SLACK: f64 = 1e-15;

fn down(x: f64) -> f64 {
    x - x.abs() * SLACK - f64::MIN_POSITIVE
}

fn up(x: f64) -> f64 {
    x + x.abs() * SLACK + f64::MIN_POSITIVE
}

/// One ulp down (a correctly rounded result's lower bound).
fn ulp_down(x: f64) -> f64 {
    x.next_down()
}

fn ulp_up(x: f64) -> f64 {
    x.next_up()
}

/// A closed interval [lo, hi] of reals (lo ≤ hi) known to contain a value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

impl Interval {
    /// The interval [lo, hi] as given (no widening).
    pub fn new(lo: f64, hi: f64) -> Interval {
        debug_assert!(lo <= hi, "interval [{lo}, {hi}]");
        Interval { lo, hi }
    }

    /// An exactly representable number.
    pub fn exact(x: f64) -> Interval {
        Interval { lo: x, hi: x }
    }

    /// A number computed with one rounding (e.g. `p as f64 / q as f64`).
    pub fn rounded(x: f64) -> Interval {
        Interval { lo: down(x), hi: up(x) }
    }

    /// ln x for an exact integer x ≥ 1.
    pub fn ln_of(x: u64) -> Interval {
        if x == 1 {
            return Interval::exact(0.0);
        }
        let v = (x as f64).ln();
        // `x as f64` itself may round for x > 2^53: one more ulp of slack.
        Interval { lo: down(down(v)), hi: up(up(v)) }
    }

    /// ln(b/m) for integers 1 ≤ b < m, accurate to a few ulp of the result
    /// even when b/m is close to 1: ln_1p(−(m − b)/m).
    pub fn ln_ratio(b: u64, m: u64) -> Interval {
        debug_assert!(1 <= b && b < m);
        let d = (m - b) as f64 / m as f64; // `m - b` exact below 2^53; one rounding in the division
        let (d_lo, d_hi) = if m < (1 << 53) { (ulp_down(d), ulp_up(d)) } else { (down(d), up(d)) };
        // ln_1p is decreasing in −d: the bounds swap.
        Interval { lo: down((-d_hi).ln_1p()), hi: up((-d_lo).ln_1p()) }
    }

    /// e^x; the result is never below 0.
    pub fn exp(self) -> Interval {
        Interval { lo: down(self.lo.exp()).max(0.0), hi: up(self.hi.exp()) }
    }

    pub fn contains_zero(self) -> bool {
        self.lo <= 0.0 && self.hi >= 0.0
    }

    /// The sign of every member, if they all share one (`None` if 0 is inside).
    pub fn sign(self) -> Option<Ordering> {
        if self.lo > 0.0 {
            Some(Ordering::Greater)
        } else if self.hi < 0.0 {
            Some(Ordering::Less)
        } else {
            None
        }
    }

    pub fn width(self) -> f64 {
        self.hi - self.lo
    }

    pub fn mid(self) -> f64 {
        0.5 * (self.lo + self.hi)
    }
}

impl std::ops::Add for Interval {
    type Output = Interval;
    fn add(self, o: Interval) -> Interval {
        Interval { lo: ulp_down(self.lo + o.lo), hi: ulp_up(self.hi + o.hi) }
    }
}

impl std::ops::Sub for Interval {
    type Output = Interval;
    fn sub(self, o: Interval) -> Interval {
        Interval { lo: ulp_down(self.lo - o.hi), hi: ulp_up(self.hi - o.lo) }
    }
}

impl std::ops::Mul for Interval {
    type Output = Interval;
    fn mul(self, o: Interval) -> Interval {
        let p = [self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi];
        let lo = p.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = p.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Interval { lo: ulp_down(lo), hi: ulp_up(hi) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enclosures_contain_the_true_values() {
        // e^{-1} = 0.36787944117144233…
        let e = Interval::exact(-1.0).exp();
        assert!(e.lo <= 0.367_879_441_171_442_3 && 0.367_879_441_171_442_3 <= e.hi);
        let l = Interval::ln_of(10);
        assert!(l.lo <= std::f64::consts::LN_10 && std::f64::consts::LN_10 <= l.hi);
        assert!(l.width() < 1e-14);
        assert_eq!(Interval::ln_of(1), Interval::exact(0.0));
        // ln(999/1000) = −0.0010005003335835335…
        let r = Interval::ln_ratio(999, 1000);
        assert!(r.lo <= -0.001_000_500_333_583_533_5 && -0.001_000_500_333_583_533_5 <= r.hi);
        assert!(r.width() < 1e-17);
        let x = Interval::new(-2.0, 3.0) * Interval::new(-1.0, 4.0);
        assert!(x.lo <= -8.0 && x.hi >= 12.0);
        assert_eq!((Interval::new(1.0, 2.0) - Interval::new(0.5, 3.0)).sign(), None);
        assert_eq!((Interval::new(1.0, 2.0) - Interval::new(0.25, 0.5)).sign(), Some(Ordering::Greater));
    }
}
