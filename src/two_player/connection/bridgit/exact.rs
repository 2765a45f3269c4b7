//! Exact potentials by modular elimination and the Chinese remainder theorem.
//!
//! With D = det A (A the inner Laplacian of [`Network::system`]), every
//! N_j = D·x_j is an integer (Cramer's rule), N_A = D and N_B = 0. D > 0 and
//! |N_u − N_v| ≤ D ≤ Π a_jj (Hadamard's inequality for positive definite A).
//! We eliminate modulo primes p < 2⁶² until their product exceeds 2·Π a_jj·2,
//! then reconstruct D and every N_j in the symmetric residue range — exact.
//! A prime at which a pivot vanishes is skipped.

use super::network::{Field, Network};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::ops::{Add, Mul, Sub};
use std::sync::OnceLock;

/// An integer modulo the prime `p`.
#[derive(Clone, Copy, Debug)]
pub struct ModP {
    v: u64,
    p: u64,
}

impl ModP {
    fn of(x: i64, p: u64) -> ModP {
        ModP { v: (x as i128).rem_euclid(p as i128) as u64, p }
    }

    fn pow(self, mut e: u64) -> ModP {
        let (mut base, mut acc) = (self, ModP { v: 1, p: self.p });
        while e > 0 {
            if e & 1 == 1 {
                acc = acc * base;
            }
            base = base * base;
            e >>= 1;
        }
        acc
    }
}

impl Add for ModP {
    type Output = ModP;
    fn add(self, o: ModP) -> ModP {
        ModP { v: ((self.v as u128 + o.v as u128) % self.p as u128) as u64, p: self.p }
    }
}

impl Sub for ModP {
    type Output = ModP;
    fn sub(self, o: ModP) -> ModP {
        ModP { v: ((self.v as u128 + self.p as u128 - o.v as u128) % self.p as u128) as u64, p: self.p }
    }
}

impl Mul for ModP {
    type Output = ModP;
    fn mul(self, o: ModP) -> ModP {
        ModP { v: ((self.v as u128 * o.v as u128) % self.p as u128) as u64, p: self.p }
    }
}

impl Field for ModP {
    fn inverse(self) -> Option<ModP> {
        (self.v != 0).then(|| self.pow(self.p - 2))
    }
}

/// Deterministic Miller–Rabin for 64-bit n (these bases suffice below 3.3·10²⁴).
fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if let Some(&b) = BASES.iter().find(|&&b| n.is_multiple_of(b)) {
        return n == b;
    }
    let (mut d, mut s) = (n - 1, 0);
    while d.is_multiple_of(2) {
        d /= 2;
        s += 1;
    }
    BASES.iter().all(|&a| {
        let mut x = ModP { v: a, p: n }.pow(d);
        if x.v == 1 || x.v == n - 1 {
            return true;
        }
        for _ in 1..s {
            x = x * x;
            if x.v == n - 1 {
                return true;
            }
        }
        false
    })
}

/// The 400 largest primes below 2⁶².
fn primes() -> &'static [u64] {
    static PRIMES: OnceLock<Vec<u64>> = OnceLock::new();
    PRIMES.get_or_init(|| {
        let mut out = Vec::new();
        let mut n = (1u64 << 62) - 1;
        while out.len() < 400 {
            if is_prime(n) {
                out.push(n);
            }
            n -= 2;
        }
        out
    })
}

/// Exact potentials as integers over a common denominator.
#[derive(Clone, Debug)]
pub struct ExactPotentials {
    /// D = det A > 0.
    pub det: BigInt,
    /// N_j = D·x_j for the inner nodes.
    pub scaled: Vec<BigInt>,
}

impl ExactPotentials {
    /// x_j as a rational.
    pub fn potential(&self, j: usize) -> BigRational {
        BigRational::new(self.scaled[j].clone(), self.det.clone())
    }
}

/// Solves the network's equations exactly.
pub fn exact_potentials(net: &Network) -> ExactPotentials {
    let n = net.inner;
    let (diag_system, _) = net.system::<f64>(|v| v as f64);
    let bits: f64 = (0..n).map(|j| diag_system.get(j, j).map_or(0.0, f64::log2)).sum::<f64>() + 3.0;
    let mut modulus = BigInt::one();
    let mut det = BigInt::zero();
    let mut scaled = vec![BigInt::zero(); n];
    let mut covered = 0.0;
    for &p in primes() {
        if covered > bits {
            break;
        }
        let (mut a, b) = net.system(|v| ModP::of(v, p));
        let Some(d) = a.factor() else { continue };
        let x = a.solve_factored(&b);
        let dp = d.iter().fold(ModP { v: 1, p }, |acc, &v| acc * v);
        combine(&mut det, &modulus, dp.v, p);
        for (s, xj) in scaled.iter_mut().zip(&x) {
            combine(s, &modulus, (dp * *xj).v, p);
        }
        modulus *= p;
        covered += 61.99;
    }
    assert!(covered > bits, "not enough primes for an exact solve of {n} unknowns");
    let half = &modulus / 2;
    let symmetric = |v: BigInt| if v > half { v - &modulus } else { v };
    ExactPotentials { det: symmetric(det), scaled: scaled.into_iter().map(symmetric).collect() }
}

/// Garner step: given v ≡ residues mod `modulus`, makes v ≡ r (mod p) too.
fn combine(v: &mut BigInt, modulus: &BigInt, r: u64, p: u64) {
    let pb = BigInt::from(p);
    let cur = (&*v % &pb + &pb) % &pb;
    let cur = u64::try_from(cur).expect("residue below p");
    let m = u64::try_from((modulus % &pb + &pb) % &pb).expect("residue below p");
    let diff = ModP::of(r as i64, p) - ModP::of(cur as i64, p);
    let t = diff * ModP { v: m, p }.inverse().expect("coprime moduli");
    *v += modulus * BigInt::from(t.v);
}
