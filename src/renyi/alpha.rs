//! The order α of a Rényi entropy (thesis Def. 4.1), kept exact.
//!
//! α is a non-negative rational number or ∞. Decimal input such as `1.34` is read
//! as the exact fraction 67/50, so that every comparison that depends on α can be
//! decided exactly (see [`crate::renyi::score`]).

use crate::error::{Result, invalid};
use num_integer::Integer;
use serde::{Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A Rényi order: a non-negative rational `num/den` (in lowest terms) or ∞.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Alpha {
    /// α = num/den with gcd(num, den) = 1 and den ≥ 1.
    Finite { num: u64, den: u64 },
    /// α = ∞ (min-entropy: minimise the largest answer class).
    Infinity,
}

impl Alpha {
    /// Builds α = num/den in lowest terms; `den` must be non-zero.
    pub fn ratio(num: u64, den: u64) -> Result<Alpha> {
        if den == 0 {
            return Err(invalid("α has a zero denominator"));
        }
        let g = num.gcd(&den);
        Ok(Alpha::Finite { num: num / g, den: den / g })
    }

    /// α = k for a whole number k.
    pub const fn integer(k: u64) -> Alpha {
        Alpha::Finite { num: k, den: 1 }
    }

    /// The value as a float (∞ for [`Alpha::Infinity`]).
    pub fn to_f64(self) -> f64 {
        match self {
            Alpha::Finite { num, den } => num as f64 / den as f64,
            Alpha::Infinity => f64::INFINITY,
        }
    }

    /// `Some(k)` if α is the whole number k.
    pub fn as_integer(self) -> Option<u64> {
        match self {
            Alpha::Finite { num, den: 1 } => Some(num),
            _ => None,
        }
    }

    /// The closest fraction with denominator at most 10^6 to a float (for α-grids).
    pub fn from_f64_grid(x: f64) -> Result<Alpha> {
        if !x.is_finite() || x < 0.0 {
            return Err(invalid(format!("α must be a number ≥ 0, got {x}")));
        }
        let den = 1_000_000u64;
        Alpha::ratio((x * den as f64).round() as u64, den)
    }
}

/// Most decimals [`Alpha`]'s parser accepts; Display uses a decimal only up to this.
const MAX_DECIMALS: u32 = 12;

impl fmt::Display for Alpha {
    /// Exact and accepted by [`Alpha::from_str`] giving the same α: a whole
    /// number, a terminating decimal of at most 12 decimals whose digits fit
    /// in a u64 (den = 2^a·5^b, written from the integers: 1.34, 1.5, 0.25),
    /// else `num/den`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Alpha::Infinity => write!(f, "inf"),
            Alpha::Finite { num, den: 1 } => write!(f, "{num}"),
            Alpha::Finite { num, den } => match decimal_places(den) {
                // The parser reads the decimal digits as one u64 (num·10^places/den).
                Some(places)
                    if places <= MAX_DECIMALS
                        && num as u128 * (10u128.pow(places) / den as u128) <= u64::MAX as u128 =>
                {
                    let scale = 10u128.pow(places);
                    let scaled = num as u128 * (scale / den as u128);
                    let (whole, frac) = (scaled / scale, scaled % scale);
                    write!(f, "{whole}.{frac:0width$}", width = places as usize)
                }
                _ => write!(f, "{num}/{den}"),
            },
        }
    }
}

/// The number of decimals of 1/den if it terminates (den = 2^a·5^b: max(a, b)).
fn decimal_places(den: u64) -> Option<u32> {
    let twos = den.trailing_zeros();
    let (mut rest, mut fives) = (den >> twos, 0);
    while rest % 5 == 0 {
        rest /= 5;
        fives += 1;
    }
    (rest == 1).then_some(twos.max(fives))
}

impl Serialize for Alpha {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

const ACCEPTED: &str = "accepted: a number ≥ 0 such as 0, 1, 2, 1.5, 1.34, a fraction such as 3/2, or inf";

impl FromStr for Alpha {
    type Err = crate::error::Error;

    /// Parses `0`, `2`, `1.5`, `3/2`, `inf`, `infinity` or `∞`.
    fn from_str(text: &str) -> Result<Alpha> {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        if lower == "inf" || lower == "infinity" || t == "∞" {
            return Ok(Alpha::Infinity);
        }
        let bad = || invalid(format!("α = {text:?} is not valid ({ACCEPTED})"));
        // Well-formed, but beyond the exact form α is kept in.
        let too_large = || {
            invalid(format!(
                "α = {text:?} is too large: α is kept as an exact fraction whose numerator and denominator are below 2^64 (for α = ∞ give inf)"
            ))
        };
        let all_digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
        if let Some((n, d)) = t.split_once('/') {
            let (n, d) = (n.trim(), d.trim());
            if !all_digits(n) || !all_digits(d) {
                return Err(bad());
            }
            let num: u64 = n.parse().map_err(|_| too_large())?;
            let den: u64 = d.parse().map_err(|_| too_large())?;
            if den == 0 {
                return Err(bad());
            }
            return Alpha::ratio(num, den);
        }
        let (int_part, frac_part) = t.split_once('.').unwrap_or((t, ""));
        let digits_or_empty = |s: &str| s.chars().all(|c| c.is_ascii_digit());
        if (int_part.is_empty() && frac_part.is_empty()) || !digits_or_empty(int_part) || !digits_or_empty(frac_part) {
            return Err(bad());
        }
        if frac_part.len() > MAX_DECIMALS as usize {
            return Err(invalid(format!(
                "α = {text:?} has more than 12 decimals (give a fraction such as 1/3 instead)"
            )));
        }
        let den = 10u64.pow(frac_part.len() as u32);
        let int: u64 = if int_part.is_empty() { 0 } else { int_part.parse().map_err(|_| too_large())? };
        let frac: u64 = if frac_part.is_empty() { 0 } else { frac_part.parse().map_err(|_| bad())? };
        let num = int.checked_mul(den).and_then(|x| x.checked_add(frac)).ok_or_else(too_large)?;
        Alpha::ratio(num, den)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_accepted_forms() {
        assert_eq!("0".parse::<Alpha>().unwrap(), Alpha::integer(0));
        assert_eq!("1.5".parse::<Alpha>().unwrap(), Alpha::ratio(3, 2).unwrap());
        assert_eq!("3/2".parse::<Alpha>().unwrap(), Alpha::ratio(3, 2).unwrap());
        assert_eq!("1.34".parse::<Alpha>().unwrap(), Alpha::ratio(67, 50).unwrap());
        assert_eq!("inf".parse::<Alpha>().unwrap(), Alpha::Infinity);
        assert_eq!("∞".parse::<Alpha>().unwrap(), Alpha::Infinity);
        assert_eq!(".5".parse::<Alpha>().unwrap(), Alpha::ratio(1, 2).unwrap());
    }

    #[test]
    fn rejects_negative_and_non_numbers() {
        for bad in ["-1", "nan", "", "abc", "1/0", "1.2.3", "-0.5", "1e3"] {
            assert!(bad.parse::<Alpha>().is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn too_large_values_say_so() {
        for big in
            ["18446744073709551616", "1/18446744073709551616", "18446744073709551616/3", "18446744073709551615.5"]
        {
            let message = big.parse::<Alpha>().unwrap_err().to_string();
            assert!(message.contains("too large") && message.contains("2^64"), "{big}: {message}");
        }
        assert_eq!("18446744073709551615".parse::<Alpha>().unwrap(), Alpha::integer(u64::MAX));
        assert!("0.1234567890123".parse::<Alpha>().unwrap_err().to_string().contains("12 decimals"));
        for bad in ["+1/2", "1/-2", " /2", "1/"] {
            assert!(!bad.parse::<Alpha>().unwrap_err().to_string().contains("too large"), "{bad}");
        }
    }

    #[test]
    fn displays_readably() {
        assert_eq!("1.34".parse::<Alpha>().unwrap().to_string(), "1.34");
        assert_eq!("3/2".parse::<Alpha>().unwrap().to_string(), "1.5");
        assert_eq!("1/3".parse::<Alpha>().unwrap().to_string(), "1/3");
        assert_eq!(Alpha::Infinity.to_string(), "inf");
        assert_eq!(Alpha::integer(2).to_string(), "2");
    }

    /// Display is exact and parses back to the same α (it used to go through
    /// f64: 1 + 2^-53 printed as 1.000…0 with 53 zeros).
    #[test]
    fn display_round_trips() {
        for text in [
            "9007199254740993/9007199254740992",
            "1337899921697600/1000000000000000",
            "1.000000001",
            "0.000000000001",
            "123456789.125",
            "18446744073709551615/1024",
            "18446744073709551615/4096",
            "4503599627370497.5",
            "7/3",
        ] {
            let a: Alpha = text.parse().unwrap();
            let shown = a.to_string();
            assert_eq!(shown.parse::<Alpha>().unwrap(), a, "{text} shown as {shown}");
        }
        assert_eq!(
            "9007199254740993/9007199254740992".parse::<Alpha>().unwrap().to_string(),
            "9007199254740993/9007199254740992"
        );
        assert_eq!("1.000000001".parse::<Alpha>().unwrap().to_string(), "1.000000001");
        assert_eq!("4503599627370497.5".parse::<Alpha>().unwrap().to_string(), "4503599627370497.5");
        assert_eq!(Alpha::ratio(1, 1 << 20).unwrap().to_string(), "1/1048576");
    }
}
