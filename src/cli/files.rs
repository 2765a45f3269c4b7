//! The files a command reads and writes, checked before any work (issue 48
//! item 6): no output may be one of the command's inputs or another of its
//! outputs (`output::same_file`), and a checkpoint must be a file, not `-`.

use super::args::{Command, Game};
use super::curve_args::CurveGame;
use renyi_search::error::Result;
use renyi_search::output::same_file::{NamedPaths, refuse_clashes, refuse_stdout};
use std::path::{Path, PathBuf};

/// Refuses a command whose outputs clash with its inputs or each other.
pub(super) fn check_files(command: &Command) -> Result<()> {
    let (inputs, outputs) = files_of(command)?;
    refuse_clashes(&inputs, &outputs)
}

/// The flag and path of an optional file.
fn some<'a>(flag: &'static str, path: &'a Option<PathBuf>) -> Option<(&'static str, &'a Path)> {
    path.as_deref().map(|p| (flag, p))
}

fn files_of(command: &Command) -> Result<(NamedPaths<'_>, NamedPaths<'_>)> {
    Ok(match command {
        Command::Analyze { game: Game::Beams(b) } => {
            refuse_stdout("--checkpoint", b.work.checkpoint.as_deref())?;
            let inputs = [some("--checkpoint", &b.work.checkpoint), some("--recheck", &b.subtree.recheck)];
            (inputs.into_iter().flatten().collect(), some("--out", &b.output.out).into_iter().collect())
        }
        Command::Perfect { options, .. } => {
            refuse_stdout("--checkpoint", options.checkpoint.as_deref())?;
            let outputs = [some("--tree", &options.tree), some("--certificate", &options.certificate)];
            (some("--checkpoint", &options.checkpoint).into_iter().collect(), outputs.into_iter().flatten().collect())
        }
        Command::Merge { files, out } => {
            (files.iter().map(|f| ("shard file", f.as_path())).collect(), some("--out", out).into_iter().collect())
        }
        Command::Curve { game } => {
            let out = match game {
                CurveGame::Mastermind { out, .. }
                | CurveGame::BullsAndCows { out, .. }
                | CurveGame::Beams { out, .. }
                | CurveGame::Free { out, .. }
                | CurveGame::Wurzel { out, .. } => out,
            };
            let (inputs, outputs) = out.files();
            refuse_stdout("--checkpoint", inputs.iter().find(|(flag, _)| *flag == "--checkpoint").map(|(_, p)| *p))?;
            (inputs, outputs)
        }
        _ => (Vec::new(), Vec::new()),
    })
}
