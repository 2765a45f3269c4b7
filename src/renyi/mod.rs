//! The Rényi side of the analysis: the order α as an exact rational
//! ([`alpha`]), the entropy H_α of an answer partition ([`entropy`]) and the
//! exact comparison of two partitions under H_α ([`score`]; thesis §4.2,
//! Def. 4.3).

pub mod alpha;
pub mod entropy;
pub mod score;
