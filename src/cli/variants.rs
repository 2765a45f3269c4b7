//! Which game variant: the arguments naming Mastermind and Bulls and Cows variants.

use super::common_args::StrategyArgs;
use clap::Args;
use renyi_search::error::Result;
use renyi_search::games::GameSpec;
use renyi_search::games::bulls_and_cows::BullsAndCows;
use renyi_search::games::mastermind::Mastermind;

/// Which Mastermind: MM(p,c), with or without repeated colours.
#[derive(Args, Clone, Copy)]
pub(crate) struct MastermindVariant {
    /// Number of pegs p.
    #[arg(long, default_value_t = 4)]
    pub(crate) pegs: usize,
    /// Number of colours c.
    #[arg(long, default_value_t = 6)]
    pub(crate) colors: usize,
    /// Codes without repeated colours (MM-360 for 4 pegs, 6 colours).
    #[arg(long)]
    pub(crate) distinct: bool,
}

impl MastermindVariant {
    pub(crate) fn build(self) -> Result<Mastermind> {
        Mastermind::new(self.pegs, self.colors, self.distinct)
    }
}

/// Which Bulls and Cows: D distinct digits out of N symbols.
#[derive(Args, Clone, Copy)]
pub(crate) struct BullsAndCowsVariant {
    /// Number of digits D (places).
    #[arg(long, default_value_t = 4)]
    digits: usize,
    /// Number of symbols N (digits 0..N, at most 10).
    #[arg(long, default_value_t = 10)]
    symbols: usize,
}

impl BullsAndCowsVariant {
    pub(crate) fn build(self) -> Result<BullsAndCows> {
        BullsAndCows::new(self.digits, self.symbols)
    }

    pub(crate) fn spec(self) -> GameSpec {
        GameSpec::BullsAndCows { digits: self.digits, symbols: self.symbols }
    }
}

#[derive(Args)]
pub(crate) struct BullsAndCowsArgs {
    #[command(flatten)]
    pub(crate) variant: BullsAndCowsVariant,
    #[command(flatten)]
    pub(crate) strategy: StrategyArgs,
}

#[derive(Args)]
pub(crate) struct MastermindArgs {
    #[command(flatten)]
    pub(crate) variant: MastermindVariant,
    #[command(flatten)]
    pub(crate) strategy: StrategyArgs,
}
