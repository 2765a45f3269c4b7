//! Cuts of a finite α-range into slices of equal width, exact: the merge of
//! a unit run walks one slice at a time ([`super::unit_merge`]), so that a
//! curve of millions of pieces is never held whole (docs/curves.md).

use super::point::Point;
use super::steps::Domain;
use crate::renyi::alpha::Alpha;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;

/// Most slices a range is cut into.
pub const MAX_SLICES: usize = 10_000;

/// Why a range cannot be cut as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceError {
    /// Fewer than 2 or more than [`MAX_SLICES`] slices.
    Count,
    /// The range reaches α = ∞.
    InfiniteEnd,
    /// The range holds one α only.
    SinglePoint,
    /// A cut is a fraction whose numerator or denominator does not fit in a u64.
    TooLarge,
}

/// The `slices − 1` cuts of `domain` into `slices` slices of equal width:
/// α_k = lo + k·(hi − lo)/slices for k = 1 … slices − 1, ascending, each in
/// lowest terms (computed as exact rationals, never rounded).
pub fn equal_cuts(domain: &Domain, slices: usize) -> Result<Vec<Alpha>, SliceError> {
    if !(2..=MAX_SLICES).contains(&slices) {
        return Err(SliceError::Count);
    }
    let (Some(lo), Some(hi)) = (finite(&domain.lo), finite(&domain.hi)) else {
        return Err(SliceError::InfiniteEnd);
    };
    if hi <= lo {
        return Err(SliceError::SinglePoint);
    }
    let width = (hi - &lo) / BigInt::from(slices);
    (1..slices)
        .map(|k| {
            let cut = &lo + &width * BigInt::from(k);
            match (cut.numer().to_u64(), cut.denom().to_u64()) {
                (Some(num), Some(den)) => Alpha::ratio(num, den).map_err(|_| SliceError::TooLarge),
                _ => Err(SliceError::TooLarge),
            }
        })
        .collect()
}

/// An exact finite end of a range as a rational; `None` for ∞ or an enclosure.
fn finite(p: &Point) -> Option<BigRational> {
    match p.alpha()? {
        Alpha::Finite { num, den } => Some(BigRational::new(num.into(), den.into())),
        Alpha::Infinity => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(lo: Alpha, hi: Alpha) -> Domain {
        Domain::closed(Point::exact(lo), Point::exact(hi))
    }

    #[test]
    fn cuts_are_exact_and_in_lowest_terms() {
        let cuts = equal_cuts(&range(Alpha::integer(0), Alpha::integer(2)), 4).unwrap();
        assert_eq!(cuts, [Alpha::ratio(1, 2).unwrap(), Alpha::integer(1), Alpha::ratio(3, 2).unwrap()]);
        let thirds = equal_cuts(&range(Alpha::ratio(1, 3).unwrap(), Alpha::ratio(1, 2).unwrap()), 2).unwrap();
        assert_eq!(thirds, [Alpha::ratio(5, 12).unwrap()]);
    }

    #[test]
    fn bad_ranges_and_counts_are_refused() {
        let unit = range(Alpha::integer(0), Alpha::integer(1));
        assert_eq!(equal_cuts(&unit, 1), Err(SliceError::Count));
        assert_eq!(equal_cuts(&unit, MAX_SLICES + 1), Err(SliceError::Count));
        assert_eq!(equal_cuts(&range(Alpha::integer(0), Alpha::Infinity), 3), Err(SliceError::InfiniteEnd));
        assert_eq!(equal_cuts(&range(Alpha::integer(1), Alpha::integer(1)), 3), Err(SliceError::SinglePoint));
        let (p, q) = (18_446_744_073_709_551_557, 18_446_744_073_709_551_533);
        let primes = range(Alpha::ratio(1, p).unwrap(), Alpha::ratio(2, q).unwrap());
        assert_eq!(equal_cuts(&primes, 3), Err(SliceError::TooLarge));
    }
}
