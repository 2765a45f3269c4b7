//! The certified sign of a pair's F(α) = Σ w_b·(b/M)^α in 128-bit fixed
//! point: the tier between the f64 intervals ([`super::interval`]) and the
//! 128-bit floating point of [`super::precise`], about 20 times cheaper than
//! the latter. It answers only where the latter would answer the same, so
//! every decision is that of [`super::precise`] by construction.
//!
//! **Representation.** A quantity q is held as the integer Q ≈ q·2^120 (one
//! unit U = 2^-120); every error below is counted in units.
//!
//! **The bound.** For α ≤ 2^40, every term τ_b = e^{x_b}, x_b = α·ln(b/M),
//! is computed as an integer τ̃_b with |τ̃_b − τ_b·2^120| < 8α + 500:
//! * ln b is taken from astro-float at 192 bits (correctly rounded, so within
//!   2^-185 of ln b) and floored to units: L_b within 2 units of ln b·2^120;
//!   T_b = L_b − L_M is then within 4 units of ln(b/M)·2^120 (L_1 = 0 exactly).
//! * α = m·2^e is an exact f64; X_b = α·T_b truncated (exact integer product,
//!   then one shift) is within 4α + 1 units of x_b·2^120.
//! * Terms with x_b < −84 (decided on X_b, or on an f64 estimate of it with
//!   its relative error 2^-50 when |x_b| > 100) are below e^-83.9 < U and
//!   are taken as 0: error < 1 unit.
//! * Otherwise −X_b = k·L2 + R with 0 ≤ R < L2, L2 = L_2 (ln 2 within 2
//!   units), so k ≤ 122 and ρ = R·U ∈ [0, 0.7). The reduced argument
//!   r = −x_b − k·ln 2 differs from ρ by at most (4α + 1 + 2k)·U.
//! * e^{−ρ} by Horner's scheme on Σ_{n ≤ 30} (−ρ)^n/n! with the coefficients
//!   c_n = ⌊2^120/n!⌋ (each within 1 unit): h_30 = c_30, h_n = c_n −
//!   ⌊R·h_{n+1}/2^120⌋. Each step adds at most 1 unit (coefficient) + 1 unit
//!   (floor) to ρ times the error of the step before, so the error stays
//!   below 2/(1 − 0.7) < 6.7 units; the series alternates with decreasing
//!   terms (ρ < 1), so cutting it after n = 30 errs by at most
//!   0.7^31/31! < 2^-128 (< 1 unit). Every h_n lies in [0, c_n] (no overflow).
//! * τ̃_b = ⌊h_0/2^k⌋: 1 unit for the floor, 2^-k·6.7 for h_0, and
//!   2^120·|e^{−r} − e^{−ρ}| ≤ 2^120·e^{|r−ρ|}·|r − ρ| ≤ 2·(4α + 1 + 2k)
//!   for r; in all < 8α + 11 + 4k ≤ 8α + 500 units.
//!
//! The sum S = Σ w_b·τ̃_b is exact (two 128-bit limbs), so |S·U − F(α)| ≤
//! E·U with E = (⌈8α⌉ + 500)·Σ|w_b|. The sign of S is returned only if
//! |S| > E + ⌈size/2^90⌉ + ⌈margin·2^120⌉, size ≥ Σ|w_b|·τ_b·2^120 an upper
//! bound: then every number within `margin` of F(α) has that sign and |F|
//! exceeds 2^-90 of its terms' size, where [`super::precise`]'s error (below
//! 2^-100 of that size, its own bound) cannot make it refuse or differ.
//! Otherwise `None`, and the caller asks [`super::precise`].

use astro_float::{BigFloat, Consts, RoundingMode};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashMap;

/// Fractional bits: one unit is 2^-FRAC.
const FRAC: u32 = 120;
/// 1.0 in units.
const ONE: u128 = 1 << FRAC;
/// Degree of the Taylor polynomial of e^{−ρ}.
const DEGREE: usize = 30;
/// Largest α served (the error bound grows with α).
const MAX_ALPHA: f64 = (1u64 << 40) as f64;
/// Terms below e^-CUTOFF are taken as 0.
const CUTOFF: u128 = 84 << FRAC;
/// Units of error per unit of weight, beside ⌈8α⌉ (see the module doc).
const ERROR_BASE: u128 = 500;
/// Mask of a 64-bit limb.
const LOW: u128 = u64::MAX as u128;

/// ⌊2^120/n!⌋ for n = 0..=DEGREE (30! < 2^108).
const INV_FACTORIAL: [u128; DEGREE + 1] = {
    let mut c = [0u128; DEGREE + 1];
    let mut fact: u128 = 1;
    let mut n = 0;
    while n <= DEGREE {
        if n > 0 {
            fact *= n as u128;
        }
        c[n] = ONE / fact;
        n += 1;
    }
    c
};

thread_local! {
    static CONSTS: RefCell<Option<Consts>> = const { RefCell::new(None) };
    /// L_b = ⌊ln b·2^120⌋ by b.
    static LOGS: RefCell<HashMap<u64, i128>> = RefCell::new(HashMap::new());
}

/// ⌊ln b·2^120⌋ from a 192-bit astro-float logarithm (within 2 units of ln b·2^120).
fn ln_units(b: u64) -> Option<i128> {
    if b == 1 {
        return Some(0);
    }
    if let Some(l) = LOGS.with(|logs| logs.borrow().get(&b).copied()) {
        return Some(l);
    }
    let l = CONSTS.with(|cell| {
        let mut slot = cell.borrow_mut();
        let cc = match slot.as_mut() {
            Some(cc) => cc,
            None => slot.insert(Consts::new().ok()?),
        };
        to_units(&BigFloat::from_u64(b, 192).ln(192, RoundingMode::ToEven, cc))
    })?;
    LOGS.with(|logs| logs.borrow_mut().insert(b, l));
    Some(l)
}

/// ⌊v·2^120⌋ of a positive 192-bit `v` below 2^6.
fn to_units(v: &BigFloat) -> Option<i128> {
    let (words, bits, sign, exp, _) = v.as_raw_parts()?;
    if sign.is_negative() || bits != 192 || words.len() != 3 || !(-50..=6).contains(&exp) {
        return None;
    }
    // v = M·2^(exp − 192), M the 192-bit mantissa: v·2^120 = M / 2^(72 − exp).
    let top = (u128::from(words[2]) << 64) | u128::from(words[1]);
    let shift = (72 - exp) as u32 - 64;
    i128::try_from(top.checked_shr(shift).unwrap_or(0)).ok()
}

/// ⌊a·b/2^120⌋ for a, b < 2^122.
fn mul_units(a: u128, b: u128) -> u128 {
    let (a1, a0, b1, b0) = (a >> 64, a & LOW, b >> 64, b & LOW);
    let lo = a0 * b0;
    let mid = a1 * b0 + a0 * b1 + (lo >> 64);
    ((a1 * b1) << 8) + (mid >> 56)
}

/// |α·T| truncated, for α = `m`·2^`e` (e < 0) and |T| = `t` < 2^127, if below 2^127.
fn scaled(m: u64, e: i32, t: u128) -> Option<u128> {
    if e >= 0 {
        return None; // α ≥ 2^52: beyond MAX_ALPHA
    }
    let (m, t1, t0) = (u128::from(m), t >> 64, t & LOW);
    let lo = m * t0;
    let hi = (m * t1).checked_add(lo >> 64)?; // the product is hi·2^64 + (lo & LOW)
    let s = e.unsigned_abs();
    let x = if s >= 64 {
        hi.checked_shr(s - 64).unwrap_or(0)
    } else if hi >> (63 + s) == 0 {
        (hi << (64 - s)) | ((lo & LOW) >> s)
    } else {
        return None;
    };
    (x >> 127 == 0).then_some(x)
}

/// α = m·2^e exactly.
fn decompose(alpha: f64) -> (u64, i32) {
    let bits = alpha.to_bits();
    let (exp, frac) = (((bits >> 52) & 0x7ff) as i32, bits & ((1 << 52) - 1));
    if exp == 0 { (frac, -1074) } else { (frac | (1 << 52), exp - 1075) }
}

/// τ̃ = e^{−x} in units for x = `x`·U ∈ [0, 84], within 8.7 + 2·(4α+1+2k) units.
fn exp_neg(x: u128, ln2: u128) -> Option<u128> {
    let mut k = ((x as f64) / (ln2 as f64)) as u128;
    let mut r = x as i128 - (k * ln2) as i128;
    while r < 0 {
        k = k.checked_sub(1)?;
        r += ln2 as i128;
    }
    while r >= ln2 as i128 {
        k += 1;
        r -= ln2 as i128;
    }
    let r = r as u128;
    let mut h = INV_FACTORIAL[DEGREE];
    for &c in INV_FACTORIAL[..DEGREE].iter().rev() {
        h = c.checked_sub(mul_units(r, h))?;
    }
    Some(h.checked_shr(k as u32).unwrap_or(0))
}

/// The certified sign of every number within `margin` (≥ 0) of
/// F(α) = Σ w·(b/M)^α, `terms` (b, w) with M the largest b, at the exact f64
/// `alpha` ≥ 0; `None` where |F| does not clear the bound of the module doc
/// (then ask [`super::precise`]).
pub fn sign_at_margin(terms: &[(u64, i64)], alpha: f64, margin: f64) -> Option<Ordering> {
    if !(0.0..=MAX_ALPHA).contains(&alpha) || !(0.0..64.0).contains(&margin) {
        return None;
    }
    let max = terms.iter().map(|t| t.0).max()?;
    let (ln_max, ln2) = (ln_units(max)?, u128::try_from(ln_units(2)?).ok()?);
    let (m, e) = decompose(alpha);
    // S = hi·2^64 + lo; G ≥ Σ|w|·τ̃/2^64.
    let (mut hi, mut lo, mut g, mut weight) = (0i128, 0i128, 0u128, 0u128);
    for &(b, w) in terms {
        let t = ln_max.checked_sub(ln_units(b)?)?.unsigned_abs(); // −T_b ≥ 0
        let x_estimate = alpha * (t as f64) / ONE as f64;
        let tau = if x_estimate > 100.0 {
            0
        } else {
            let x = scaled(m, e, t)?;
            if x > CUTOFF { 0 } else { exp_neg(x, ln2)? }
        };
        let aw = u128::from(w.unsigned_abs());
        let low = aw * (tau & LOW);
        let part_hi = i128::try_from((aw * (tau >> 64)).checked_add(low >> 64)?).ok()?;
        let part_lo = (low & LOW) as i128;
        if w > 0 {
            (hi, lo) = (hi.checked_add(part_hi)?, lo + part_lo);
        } else {
            (hi, lo) = (hi.checked_sub(part_hi)?, lo - part_lo);
        }
        g = g.checked_add(aw.checked_mul((tau >> 64) + 1)?)?;
        weight = weight.checked_add(aw)?;
        if lo.unsigned_abs() >> 100 != 0 {
            (hi, lo) = (hi.checked_add(lo >> 64)?, lo & LOW as i128);
        }
    }
    let (hi, lo) = (hi.checked_add(lo >> 64)?, (lo & LOW as i128) as u128);
    let error = ((8.0 * alpha).ceil() as u128 + ERROR_BASE).checked_mul(weight)?;
    let threshold = error
        .checked_add(g.div_ceil(1 << 26))?
        .checked_add(error.div_ceil(1 << 90))?
        .checked_add((margin * ONE as f64).ceil() as u128)?;
    let (t_hi, t_lo) = ((threshold >> 64) as i128, threshold & LOW);
    if hi > t_hi || (hi == t_hi && lo > t_lo) {
        return Some(Ordering::Greater);
    }
    // −S = (−hi − 1)·2^64 + (2^64 − lo) for lo > 0.
    let (n_hi, n_lo) =
        if lo == 0 { (hi.checked_neg()?, 0) } else { (hi.checked_neg()?.checked_sub(1)?, (1 << 64) - lo) };
    if n_hi > t_hi || (n_hi == t_hi && n_lo > t_lo) {
        return Some(Ordering::Less);
    }
    None
}
