//! Argument groups that several commands share: the strategy (α and tie
//! rule) of Mastermind and the size models, where a result goes, the Beams
//! tie rule, and the `--after` steps of a subtree.

use clap::{Args, ValueEnum};
use renyi_search::error::{Result, invalid};
use renyi_search::games::beams::rule::BeamsRule;
use renyi_search::search::{AnswerId, QueryId, TieBreak, TieRule};
use std::path::PathBuf;

#[derive(Args)]
pub(crate) struct StrategyArgs {
    /// Rényi order: 0, 1, 2, inf, 1.5, 3/2 … (sweep: from:to:step, e.g. 0.02:6:0.02).
    #[arg(long, default_value = "1", allow_hyphen_values = true)]
    pub(crate) alpha: String,
    #[command(flatten)]
    pub(crate) ties: TieArgs,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

impl StrategyArgs {
    pub(crate) fn tie_rule(&self) -> TieRule {
        self.ties.rule()
    }
}

/// Where and how a result is written.
#[derive(Args)]
pub(crate) struct OutputArgs {
    /// Write the result to this file (JSON for analyze, CSV for sweep) instead of stdout.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Print JSON instead of a summary (analyze).
    #[arg(long)]
    pub(crate) json: bool,
    /// Show a progress bar.
    #[arg(long)]
    pub(crate) progress: bool,
}

/// The tie rule of Mastermind and the size models, the same flags for
/// `analyze`, `sweep` and `curve`.
#[derive(Args, Clone, Copy)]
pub(crate) struct TieArgs {
    /// Tie rule.
    #[arg(long, value_enum, default_value_t = Tie::Lex)]
    tie: Tie,
    /// MIX: choose uniformly among symmetry classes of tied first queries (thesis H_0-MIX convention).
    #[arg(long)]
    root_classes: bool,
    /// Treat all tied queries alike (do not prefer queries that are possible secrets).
    #[arg(long)]
    all_ties: bool,
}

impl TieArgs {
    pub(crate) fn rule(&self) -> TieRule {
        TieRule { kind: self.tie.kind(), possible_secrets_first: !self.all_ties, root_by_class: self.root_classes }
    }
}

/// `--tie` of Mastermind and the size models.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Tie {
    Lex,
    Mix,
}

impl Tie {
    pub(crate) fn kind(self) -> TieBreak {
        match self {
            Tie::Lex => TieBreak::Lex,
            Tie::Mix => TieBreak::Mix,
        }
    }
}

/// `--tie` of the Beams commands: the names of [`BeamsRule::ALL`] (listed in
/// `--help` and in clap's error), parsed once into the library's value.
pub(crate) fn beams_rule() -> impl clap::builder::TypedValueParser<Value = BeamsRule> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(BeamsRule::ALL.map(BeamsRule::slug)).try_map(|s| s.parse::<BeamsRule>())
}

/// `--after` steps, each QUERY:ANSWER with numbers.
pub(crate) fn parse_steps(texts: &[String]) -> Result<Vec<(QueryId, AnswerId)>> {
    let step = |text: &String| {
        let parsed = text.split_once(':').and_then(|(q, a)| Some((q.trim().parse().ok()?, a.trim().parse().ok()?)));
        parsed.ok_or_else(|| invalid(format!("--after step `{text}`: write QUERY:ANSWER with numbers, e.g. 3:5")))
    };
    texts.iter().map(step).collect()
}
