//! Curves too large for one process, as work-unit runs: the units and their
//! files ([`units`], [`unit_file`], the list shards read, [`unit_list`], shards that deal themselves their
//! units by codes, [`deal`], and the line they deal on kept for the other shards, [`deal_cache`]), what
//! ties a record to its run ([`run_key`]), the merge of finished units ([`unit_merge`]), units computed
//! again ([`recheck`]) and the compact
//! overview of a merged curve ([`overview`]). The mathematics of the curve
//! (crossings, envelopes, points, the walk) is in the parent module.

pub mod deal;
pub mod deal_cache;
pub mod overview;
pub mod recheck;
pub mod run_key;
pub mod unit_file;
pub mod unit_list;
pub mod unit_merge;
pub mod units;
