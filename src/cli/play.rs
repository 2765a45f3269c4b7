//! `renyi-search play …` and `simulate …`: the strategy as a playing agent and
//! its Monte-Carlo check (thesis §4.4.5).

use super::common_args::beams_rule;
use super::progress::progress;
use clap::Args;
use renyi_search::error::{Result, invalid};
use renyi_search::games::beams::Variant;
use renyi_search::games::beams::game::Beams;
use renyi_search::games::beams::patterns::load_or_build;
use renyi_search::games::beams::rule::BeamsRule;
use renyi_search::output::{Provenance, write_json};
use renyi_search::renyi::alpha::Alpha;
use renyi_search::search::play::{Game, OpeningBook, simulate};
use renyi_search::search::{AnswerId, Presentation, QueryId, Rules, Strategy};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct AgentArgs {
    /// Variant: 3c6p, 6c3p, 6c6p.
    pub variant: String,
    /// Rényi order of the strategy.
    #[arg(long, default_value = "1", allow_hyphen_values = true)]
    pub alpha: String,
    /// Tie rule: lex-c, lex-d, mix (uniform over all tied queries), mix-reduced
    /// (uniform over the tied ones among asked colours + one new colour).
    #[arg(long, default_value = "lex-c", value_parser = beams_rule())]
    pub tie: BeamsRule,
    /// Cache directory for pattern tables.
    #[arg(long, default_value = "codes")]
    pub codes: PathBuf,
}

fn build(args: &AgentArgs) -> Result<(Beams, Strategy)> {
    let alpha: Alpha = args.alpha.parse()?;
    let column = args.tie;
    let tie = column.tie_rule();
    let variant: Variant = args.variant.parse()?;
    let started = Instant::now();
    let (patterns, _) = load_or_build(variant, Some(&args.codes))?;
    let game = column.game(patterns)?;
    eprintln!("{} loaded in {:.1} s", game.variant, started.elapsed().as_secs_f64());
    Ok((game, Strategy::new(alpha, tie)))
}

/// Plays one game: proposes queries, reads answers (or computes them from `secret`).
pub fn play(args: &AgentArgs, secret: Option<&str>) -> Result<()> {
    let (beams, strategy) = build(args)?;
    let secret = match secret {
        Some(text) if text.starts_with("random") => {
            let seed = text
                .strip_prefix("random:")
                .map_or(Ok(1), str::parse)
                .map_err(|_| invalid("write --secret random or random:SEED"))?;
            let code = renyi_search::search::play::Rng::new(seed).below(beams.code_count() as u64) as u32;
            println!("secret: {}", beams.code_label(code));
            Some(code)
        }
        Some(text) => Some(beams.code_from_label(text)?),
        None => None,
    };
    let book = OpeningBook::new();
    let mut game = Game::new(&beams, strategy);
    load_root(args, &game, &book)?;
    let interactive = std::io::stdin().is_terminal();
    let mut lines = std::io::stdin().lock().lines();
    loop {
        let started = Instant::now();
        let Some(&(_, query)) = game.candidates(&book).first() else { break };
        let (colour, diagonal) = beams.decode_query(query);
        let cells = beams.diagonal_cells(diagonal);
        println!(
            "query {}: colour {colour} on beam {diagonal}, cells {} ({} codes left, decided in {:.2} s)",
            game.path.len() + 1,
            cells.iter().enumerate().map(|(i, c)| format!("{}=({},{})", i + 1, c.0, c.1)).collect::<Vec<_>>().join(" "),
            game.remaining(),
            started.elapsed().as_secs_f64()
        );
        let answer = match secret {
            Some(code) => {
                let a = beams.answer_of(query, code);
                println!("  answer: {}", answer_text(a));
                a
            }
            None => read_answer(&game, query, cells.len(), interactive, &mut lines)?,
        };
        game.answer(query, answer);
    }
    let laid = best_code(&beams, &game);
    println!(
        "lay code {} ({} queries; {} code(s) were left)",
        beams.code_label(laid),
        game.path.len(),
        game.remaining()
    );
    if let Some(code) = secret {
        let wrong = beams.cell_colours(code).iter().zip(beams.cell_colours(laid)).filter(|(a, b)| **a != *b).count();
        println!("secret   {} — {} wrong cell(s)", beams.code_label(code), wrong);
    }
    Ok(())
}

/// The first decision is the same in every game: it is kept in a small file
/// under the codes directory (written once, atomically), so that every move,
/// the first included, is answered in well under a second.
fn load_root(args: &AgentArgs, game: &Game<Beams>, book: &OpeningBook) -> Result<()> {
    let name = format!(
        "book-{}-a{}-{}-v{}.json",
        args.variant,
        args.alpha.replace('/', "_"),
        args.tie.slug(),
        renyi_search::VERSION
    );
    let path = args.codes.join(name);
    let cached: Option<Vec<(u64, QueryId)>> =
        std::fs::read_to_string(&path).ok().and_then(|t| serde_json::from_str(&t).ok());
    match cached {
        Some(root) => {
            book.insert(Vec::new(), root);
        }
        None => {
            let root = game.candidates(book);
            // A book that cannot be written (read-only codes directory, full
            // disk) costs only the next game's first decision.
            if let Err(e) = write_json(&path, &root) {
                eprintln!("warning: opening book not cached ({e}); computed in memory");
            }
        }
    }
    Ok(())
}

fn answer_text(a: AnswerId) -> String {
    if a == 0 {
        return "none".into();
    }
    (0..16).filter(|i| a >> i & 1 == 1).map(|i| (i + 1).to_string()).collect::<Vec<_>>().join(" ")
}

/// Reads hit positions (1-based along the beam, `none` for no hit); an answer
/// no remaining code can give is refused (asked again on a terminal).
fn read_answer(
    game: &Game<Beams>,
    query: QueryId,
    len: usize,
    interactive: bool,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> Result<AnswerId> {
    loop {
        print!("  hit cells (positions 1–{len}, or none): ");
        std::io::stdout().flush().ok();
        let Some(Ok(line)) = lines.next() else { return Err(invalid("input ended before the game was over")) };
        let parsed = parse_answer(&line, len).and_then(|a| {
            if game.possible(query, a) {
                Ok(a)
            } else {
                Err(invalid(format!("answer `{}` is impossible: no remaining code gives it (a typo?)", line.trim())))
            }
        });
        match parsed {
            Ok(a) => return Ok(a),
            Err(e) if interactive => eprintln!("  {e}; try again"),
            Err(e) => return Err(e),
        }
    }
}

fn parse_answer(line: &str, len: usize) -> Result<AnswerId> {
    let text = line.trim();
    if matches!(text, "none" | "-" | "0") {
        return Ok(0);
    }
    let mut a: AnswerId = 0;
    for token in text.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()) {
        match token.parse::<usize>() {
            Ok(i) if (1..=len).contains(&i) => a |= 1 << (i - 1),
            _ => {
                return Err(invalid(format!(
                    "cannot read `{token}`: give hit positions 1–{len} along the beam, or none"
                )));
            }
        }
    }
    Ok(a)
}

/// The code laid at the end: the one of least total distance to the codes left.
fn best_code(beams: &Beams, game: &Game<Beams>) -> renyi_search::search::CodeId {
    use renyi_search::search::tree::Replay;
    let codes = beams.codes_of(&game.set);
    let colours: Vec<Vec<u8>> = codes.iter().map(|&c| beams.cell_colours(c)).collect();
    let cost = |x: &[u8]| colours.iter().map(|y| x.iter().zip(y).filter(|(a, b)| a != b).count()).sum::<usize>();
    (0..codes.len()).min_by_key(|&i| cost(&colours[i])).map(|i| codes[i]).expect("a code is left")
}

/// Monte-Carlo run; prints the summary and writes JSON with provenance to `out`.
/// Most games one `simulate` plays (10^12: about a week on 2 cores for 3c6p).
const MAX_GAMES: u64 = 1_000_000_000_000;

pub fn run_simulation(args: &AgentArgs, games: u64, seed: u64, out: Option<&std::path::Path>) -> Result<()> {
    if games < 2 {
        return Err(invalid("--n must be at least 2 (a variance needs two games)"));
    }
    if games > MAX_GAMES {
        return Err(invalid(format!("--n {games}: at most {MAX_GAMES} games (split a larger simulation into seeds)")));
    }
    let (beams, strategy) = build(args)?;
    let started = std::time::SystemTime::now();
    let sim = simulate(&beams, strategy, games, seed, &progress(true));
    println!(
        "{} — H_{} {}: {} games (seed {}), {:.1} s",
        beams.name(),
        strategy.score.alpha(),
        args.tie.slug(),
        sim.games,
        sim.seed,
        sim.seconds
    );
    println!(
        "  mean {:.4}, variance {:.4}, 2σ interval [{:.4}, {:.4}]",
        sim.mean, sim.variance, sim.interval.0, sim.interval.1
    );
    println!(
        "  queries  {}",
        sim.queries_histogram.iter().map(|(k, v)| format!("{k}:{v}")).collect::<Vec<_>>().join(" ")
    );
    println!(
        "  penalty  {}",
        sim.penalty_histogram.iter().map(|(k, v)| format!("{k}:{v}")).collect::<Vec<_>>().join(" ")
    );
    if let Some(path) = out {
        #[derive(serde::Serialize)]
        struct Report<'a> {
            provenance: Provenance,
            game: String,
            alpha: String,
            tie: &'a str,
            simulation: &'a renyi_search::search::play::Simulation,
        }
        let provenance = Provenance::new(
            format!(
                "simulate beams {} --alpha {} --tie {} --n {games} --seed {seed}",
                args.variant,
                args.alpha,
                args.tie.slug()
            ),
            started,
            sim.seconds,
        );
        write_json(
            path,
            &Report {
                provenance,
                game: beams.name(),
                alpha: strategy.score.alpha().to_string(),
                tie: args.tie.slug(),
                simulation: &sim,
            },
        )?;
    }
    Ok(())
}
