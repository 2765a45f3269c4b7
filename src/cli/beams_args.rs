//! The arguments of `analyze beams` and `sweep beams`. `analyze beams` has
//! four modes: the whole analysis, a work-unit run (--shard, --checkpoint,
//! --levels), a recheck of recorded units (--recheck, --units or --sample) and one
//! subtree (--after); clap refuses flags of two modes together (exit 2, one
//! line), so that every flag either works or is rejected in its combination.

use super::common_args::{OutputArgs, beams_rule};
use clap::{Args, ValueEnum};
use renyi_search::games::beams::rule::BeamsRule;
use std::path::PathBuf;

/// The Beams game and strategy (both commands).
#[derive(Args)]
pub(crate) struct BeamsGameArgs {
    /// Variant: 3c6p, 6c3p, 6c6p (6c6p: ≈ 1–2 h per α for LEX on 2 cores; use
    /// --checkpoint to make the run resumable and --shard to split it).
    pub(crate) variant: String,
    /// Rényi order: 0, 1, 2, inf, 1.5, 3/2 … (sweep: from:to:step, e.g. 0.02:6:0.02).
    #[arg(long, default_value = "1", allow_hyphen_values = true)]
    pub(crate) alpha: String,
    /// Tie rule: lex-c (colour, diagonal), lex-d (diagonal, colour), mix (uniform over all
    /// tied queries), mix-reduced (uniform over asked colours + one new colour).
    #[arg(long, default_value = "lex-c", value_parser = beams_rule())]
    pub(crate) tie: BeamsRule,
    /// Penalty for a set left undecided: best (best code laid), random (random code of M), none.
    #[arg(long, value_enum, default_value_t = BeamsPenalty::Best)]
    pub(crate) penalty: BeamsPenalty,
    /// Cache directory for pattern tables.
    #[arg(long, default_value = "codes")]
    pub(crate) codes: PathBuf,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum BeamsPenalty {
    Best,
    Random,
    None,
}

/// `analyze beams`: the game, the flags of one mode, the output.
#[derive(Args)]
pub(crate) struct BeamsArgs {
    #[command(flatten)]
    pub(crate) game: BeamsGameArgs,
    #[command(flatten)]
    pub(crate) work: WorkUnitArgs,
    /// Work-unit mode: depth of the cut (units are the subtrees below it).
    #[arg(long, default_value_t = 2, requires = "WorkUnitArgs")]
    pub(crate) levels: usize,
    #[command(flatten)]
    pub(crate) subtree: SubtreeArgs,
    /// Recheck mode: the unit numbers, comma-separated (e.g. 3,17,250).
    #[arg(long, value_delimiter = ',', requires = "recheck")]
    pub(crate) units: Vec<u64>,
    /// Recheck mode: instead of --units, this many of the run's units drawn at random (seeded by --seed).
    #[arg(long, requires = "recheck", conflicts_with = "units")]
    pub(crate) sample: Option<usize>,
    /// Recheck mode: the seed of the --sample draw (the same draw on every machine).
    #[arg(long, default_value_t = 1, requires = "sample")]
    pub(crate) seed: u64,
    /// Recheck mode and --after: walk the plain tree, without merging equivalent nodes or symmetric tied queries.
    #[arg(long, requires = "SubtreeArgs")]
    pub(crate) no_merge: bool,
    /// GiB that the MIX memos (transpositions of tied queries) may hold together.
    /// Results do not depend on it; MIX under H_0 and H_∞, with many ties, runs
    /// faster with more. Peak memory is about the code table plus this plus the
    /// sets being split.
    #[arg(long, default_value_t = 1.0)]
    pub(crate) memo_gib: f64,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

/// Work-unit mode (its flags form the group `WorkUnitArgs`); it writes a
/// shard file, not JSON on stdout.
#[derive(Args)]
pub(crate) struct WorkUnitArgs {
    /// Work-unit mode (LEX): evaluate only units i ≡ I (mod N) of the tree cut below
    /// its first --levels queries; writes a shard file (--out) for `merge`.
    #[arg(long, conflicts_with = "json")]
    pub(crate) shard: Option<String>,
    /// Work-unit mode: append each finished unit to this file and skip the units
    /// it already holds (resume after a kill).
    #[arg(long, conflicts_with = "json")]
    pub(crate) checkpoint: Option<PathBuf>,
}

/// The modes that walk part of the tree (the group `SubtreeArgs`, which
/// --no-merge needs): recorded units again, or the subtree below given answers.
#[derive(Args)]
pub(crate) struct SubtreeArgs {
    /// Recheck mode: evaluate the --units of this run file (checkpoint .jsonl or
    /// run .json of the same α and tie rule) again and compare them exactly
    /// with their records; a non-zero exit code if one differs.
    #[arg(long, conflicts_with_all = ["WorkUnitArgs", "after", "out", "json"])]
    pub(crate) recheck: Option<PathBuf>,
    /// Analyse only the codes that give these answers, as QUERY:ANSWER steps asked in
    /// turn from the root (numbers as in a run file's unit `queries` and `path`,
    /// e.g. 3:5,31:23); the strategy plays on from there.
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["WorkUnitArgs", "units"])]
    pub(crate) after: Vec<String>,
}

/// `sweep beams`: the game at every α of a grid, one CSV row per α.
#[derive(Args)]
pub(crate) struct SweepBeamsArgs {
    #[command(flatten)]
    pub(crate) game: BeamsGameArgs,
    /// Write the CSV to this file instead of stdout.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
}
