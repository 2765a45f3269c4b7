//! MC(∞) on the subtraction game S(1,2) with asymmetric random play (thesis
//! ch. 3): in the random games a player takes 1 with probability p_m at heap m,
//! - static (§3.3): p_m = (1−ε)/2 for every m;
//! - "intelligent" (§3.4): p_m = ½, (1+ε)/2, (1−ε)/2 for m ≡ 0, 1, 2 (mod 3).
//!
//! x(m) = ½ + y(m) is the mover's random-game win probability at heap m, with
//! (3.1)/(3.8): y(m) = −p_m·y(m−1) − (1−p_m)·y(m−2), y(0) = −½, y(1) = ½; a move
//! larger than the heap wins (y = −½ behind it, like heap 0). MC(∞) at heap m
//! takes the move i ∈ {1, 2} with the smaller y(m−i), 50/50 on a tie
//! (footnote 4, l. 1258). Heap m is lost iff m ≡ 0 (mod 3).
//!
//! Values are exact in any exact [`Scalar`] (rationals; Q(√5) for ε* = 2 − √5),
//! and [`first_wrong_heap`] runs the recurrence on scaled integers for rational
//! ε (no gcds), which reaches heap 7694 of Example 3.18 in milliseconds. The
//! tests cross-check the recurrence with the general stochastic-policy solver.

use crate::graph::scalar::Scalar;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use serde::Serialize;
use std::cmp::Ordering;

/// How the random games are asymmetric.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Model {
    /// Thesis §3.3: take 1 with (1−ε)/2 everywhere.
    Static,
    /// Thesis §3.4: heaps ≡ 0 uniform, the winning move favoured by ε elsewhere.
    Intelligent,
}

/// p_m = P(take 1 at heap m) times 2, as the pair (c₀, c₁) with 2p_m = c₀ + c₁ε.
pub(crate) fn doubled_take_one(model: Model, m: usize) -> (i64, i64) {
    match (model, m % 3) {
        (Model::Static, _) => (1, -1),
        (Model::Intelligent, 0) => (1, 0),
        (Model::Intelligent, 1) => (1, 1),
        (Model::Intelligent, _) => (1, -1),
    }
}

/// P(take 1 at heap m) in the random games.
pub fn take_one<T: Scalar>(model: Model, eps: &T, m: usize) -> T {
    let (c0, c1) = doubled_take_one(model, m);
    (T::ratio(c0, 1) + T::ratio(c1, 1) * eps.clone()) / T::ratio(2, 1)
}

/// y(0..=upto) by the recurrence (3.1) resp. (3.8).
pub fn y_values<T: Scalar>(model: Model, eps: &T, upto: usize) -> Vec<T> {
    let mut y = vec![T::ratio(-1, 2), T::ratio(1, 2)];
    for m in 2..=upto {
        let p = take_one(model, eps, m);
        let next = T::zero() - p.clone() * y[m - 1].clone() - (T::one() - p) * y[m - 2].clone();
        y.push(next);
    }
    y.truncate(upto + 1);
    y
}

/// What MC(∞) does at a winning heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// It takes the winning move.
    Right,
    /// The two moves tie: it errs with probability ½.
    Tie,
    /// It takes the losing move.
    Wrong,
}

/// MC(∞)'s verdict at heap m ≥ 1 (`None` at heaps ≡ 0, which are lost, and at
/// heap 1, where both moves win). `y` must reach m − 1.
pub fn verdict<T: Scalar>(y: &[T], m: usize) -> Option<Verdict> {
    if m.is_multiple_of(3) || m < 2 {
        return None;
    }
    // The winning move leaves a multiple of 3 (or wins at once).
    let (good, bad) = if m % 3 == 1 { (&y[m - 1], &y[m - 2]) } else { (&y[m - 2], &y[m - 1]) };
    Some(match good.partial_cmp(bad) {
        Some(Ordering::Less) => Verdict::Right,
        Some(Ordering::Equal) => Verdict::Tie,
        _ => Verdict::Wrong,
    })
}

/// The heaps 2..=upto where MC(∞) errs (`Wrong` or `Tie`), with the verdict.
pub fn errors<T: Scalar>(y: &[T]) -> Vec<(usize, Verdict)> {
    (2..y.len()).filter_map(|m| verdict(y, m).filter(|v| *v != Verdict::Right).map(|v| (m, v))).collect()
}

/// The first heap ≤ `limit` where MC(∞) errs (wrong or tie) for a rational ε,
/// exactly: with ε = a/q and D = 2q, Y(m) = 2·Dᵐ·y(m) is an integer and
/// Y(m) = −P_m·Y(m−1) − (D − P_m)·D·Y(m−2), P_m = D·p_m; y(m−1) < y(m−2) ⇔
/// Y(m−1) < D·Y(m−2).
pub fn first_wrong_heap(model: Model, eps: &BigRational, limit: usize) -> Option<(usize, Verdict)> {
    let (a, q) = (eps.numer().clone(), eps.denom().clone());
    let d: BigInt = &q * BigInt::from(2);
    let mut prev2 = BigInt::from(-1); // Y(0)
    let mut prev1 = d.clone(); // Y(1)
    for m in 2..=limit {
        // y(m−1) vs y(m−2) decides the verdict at heap m (before Y(m) is needed).
        if m % 3 != 0 {
            let lhs = prev1.clone(); // ∝ y(m−1)
            let rhs = &d * &prev2; // ∝ y(m−2)
            let (good, bad) = if m % 3 == 1 { (lhs, rhs) } else { (rhs, lhs) };
            match (good - bad).sign() {
                num_bigint::Sign::Minus => {}
                num_bigint::Sign::NoSign => return Some((m, Verdict::Tie)),
                num_bigint::Sign::Plus => return Some((m, Verdict::Wrong)),
            }
        }
        let (c0, c1) = doubled_take_one(model, m);
        let p: BigInt = &q * BigInt::from(c0) + &a * BigInt::from(c1); // D·p_m = q·(2p_m)
        let next = -(&p * &prev1) - (&d - &p) * &d * &prev2;
        prev2 = std::mem::replace(&mut prev1, next);
    }
    None
}

/// ε as an exact rational from a decimal or fraction string ("-0.3", "1/3").
pub fn parse_eps(text: &str) -> Option<BigRational> {
    let t = text.trim();
    if let Some((n, d)) = t.split_once('/') {
        let (n, d): (BigInt, BigInt) = (n.trim().parse().ok()?, d.trim().parse().ok()?);
        return (!d.is_zero()).then(|| BigRational::new(n, d));
    }
    let negative = t.starts_with('-');
    let body = t.trim_start_matches('-');
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits: BigInt = format!("{int}{frac}").parse().ok()?;
    let value = BigRational::new(digits, BigInt::from(10).pow(frac.len() as u32));
    Some(if negative { -value } else { value })
}

/// Whether |ε| ≤ 1 (the models' probabilities lie in [0, 1]).
pub fn eps_in_range(eps: &BigRational) -> bool {
    eps.abs() <= BigRational::from_integer(1.into())
}
