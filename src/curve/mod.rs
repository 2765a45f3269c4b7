//! Expected search length as an exact function of α (thesis Figs 4.6, 4.11,
//! 4.12, 4.16, 4.17).
//!
//! For a fixed tie rule the H_α strategy changes only where, at some node,
//! the Rényi entropies of two answer partitions cross; between crossings the
//! tree and its total are constant. A curve is therefore a finite step
//! function: open intervals with their exact totals, and the values at the
//! breakpoints (where the tie rule decides), at α = 0 and at α = ∞.
//! Breakpoints are exact rationals or certified enclosures ([`point`]).

pub mod cross_key;
pub mod crossing;
pub mod envelope;
pub mod exp_poly;
pub mod fixed_point;
pub mod interval;
mod majorization;
mod partitions;
pub mod point;
pub mod precise;
pub mod report;
mod root_cache;
pub mod root_order;
pub mod root_search;
pub mod run;
pub mod slice;
pub mod steps;
pub mod verification;
pub mod walk;

pub use point::{Point, Witness};
pub use steps::{Domain, Span, Steps};
pub use verification::{Uncertified, Verification, uncertified_by_kind};
pub use walk::{Curve, Segment, curve};
