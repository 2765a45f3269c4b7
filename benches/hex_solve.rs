//! Benchmark (not a test) for the Hex solver (issue 51's speed targets: every
//! 6×6 opening in under a minute, all 49 openings of 7×7 in under an hour):
//! solves the named openings of the empty n×n board (Black's first stone,
//! White to move), builds each proof and replays it with the independent
//! checker; prints per opening the winner, positions searched, proof steps and
//! wall seconds (solve + proof; the check separately).
//!
//! `cargo bench --bench hex_solve -- N CELL…` (e.g. `-- 6 c3 a1`); without
//! cells every opening of the board; default N = 5. Every setting starts at the
//! solver's default (`Solver::new`, printed by `Solver::describe`) and is changed by:
//! `HEX_LIMITS=OR,CARRIER,PER_PAIR` the solver's bounded H-search limits;
//! `HEX_EDGE_LIMITS=OR,CARRIER,PER_PAIR` the limits of the edge pair alone (`Solver::edge_limits`;
//! `HEX_EDGE_LIMITS=same` the limits of every pair);
//! `HEX_FILL=0|1` the inferior-cell fill-in, `HEX_REUSE=0|1` the
//! incremental H-search (results kept two plies up reused; `reuse.rs`).
//! df-pn settings: `HEX_WIDEN=ε%` (1+ε trick), `HEX_INIT=p%` (dn of a new
//! child in percent of its parent's move count), `HEX_ORDER=centre|resistance`,
//! `HEX_GRADE=g%` new children graded by rank (`Solver::grade`), `HEX_KILLER=0|1` the killer
//! reply first (`Solver::killer`);
//! `HEX_SHARE=1` answers all the openings with one solver (one table);
//! `HEX_TRANSPLANT=0|1` refutations carried to sibling moves (`Solver::transplant`);
//! `HEX_VULNERABLE=0|1` the mover's vulnerable cells left out (`Solver::vulnerable`);
//! `HEX_SUPPORT=0|1` a refuted move's siblings cut outside its support (`Solver::support_cut`);
//! `HEX_DOMINATED=0|1` the mover's dominated cells left out (`Solver::dominated`);
//! `HEX_BUDGET=N` stops an opening after N positions and prints the counts so far;
//! `HEX_DERIVE=0` writes the proof's carriers without their H-search derivations
//! (`derive.rs`), so that the checker plays the game on each carrier.
//! `HEX_SPLIT=1` solves each opening reply by reply as the split map job does
//! (`reproduce::hex::solve_reply`, a fresh solver per reply, the replies in the solver's order until
//! White's first winning reply; default settings only); `HEX_SPLIT=CELL,…` or `HEX_SPLIT=#K` only those
//! replies, or the first K of that order; per reply: winner, positions, proof steps, CPU seconds.

use renyi_search::reproduce::hex::{opening_of_replies, replies, solve_reply};
use renyi_search::two_player::connection::hex::board::{Board, Colour};
use renyi_search::two_player::connection::hex::check::check_proof;
use renyi_search::two_player::connection::hex::derive::annotate;
use renyi_search::two_player::connection::hex::hsearch::Limits;
use renyi_search::two_player::connection::hex::position::Position;
use renyi_search::two_player::connection::hex::solver::Solver;
use std::time::Instant;

/// mimalloc, as in the program (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(5);
    let board = Board::new(n, n).expect("board side 1 to 11");
    let mut cells: Vec<usize> = args.iter().skip(1).map(|a| board.parse_cell(a).expect("a cell")).collect();
    if cells.is_empty() {
        cells = (0..board.cells()).collect();
    }
    if let Ok(which) = std::env::var("HEX_SPLIT") {
        return split(&board, &cells, &which);
    }
    // `NAME=OR,CARRIER,PER_PAIR` over `base`, or `base` where NAME is unset.
    let limits_from = |name: &str, base: Limits| {
        let Ok(text) = std::env::var(name) else { return base };
        let v: Vec<usize> = text.split(',').map(|x| x.trim().parse().expect("NAME=OR,CARRIER,PER_PAIR")).collect();
        assert_eq!(v.len(), 3, "{name}=OR,CARRIER,PER_PAIR");
        Limits { max_or: v[0], max_carrier: v[1] as u32, max_per_pair: v[2], ..base }
    };
    let fresh = Solver::new(board.clone());
    let limits = limits_from("HEX_LIMITS", fresh.limits);
    let edge_limits = match std::env::var("HEX_EDGE_LIMITS") {
        Ok(v) if v == "same" => limits,
        _ => limits_from("HEX_EDGE_LIMITS", fresh.edge_limits),
    };
    // `NAME=0|1` over the default `base`.
    let switch = |name: &str, base: bool| std::env::var(name).map_or(base, |v| v == "1");
    let fill_in = switch("HEX_FILL", fresh.fill_in);
    let reuse = switch("HEX_REUSE", fresh.reuse);
    let number = |name: &str| std::env::var(name).ok().map(|v| v.parse::<u32>().expect("a percentage"));
    let share = switch("HEX_SHARE", false);
    let transplant = switch("HEX_TRANSPLANT", fresh.transplant);
    let vulnerable = switch("HEX_VULNERABLE", fresh.vulnerable);
    let support_cut = switch("HEX_SUPPORT", fresh.support_cut);
    let dominated = switch("HEX_DOMINATED", fresh.dominated);
    let derive = switch("HEX_DERIVE", true);
    let budget = std::env::var("HEX_BUDGET").map_or(u64::MAX, |v| v.parse().expect("a number of positions"));
    let widen = number("HEX_WIDEN").unwrap_or(fresh.widen);
    let init_dn = number("HEX_INIT").unwrap_or(fresh.init_dn);
    let resistance_order = std::env::var("HEX_ORDER").map_or(fresh.resistance_order, |v| v.starts_with('r'));
    let (grade, killer) = (number("HEX_GRADE").unwrap_or(fresh.grade), switch("HEX_KILLER", fresh.killer));
    let configure = |solver: &mut Solver| {
        (solver.limits, solver.edge_limits, solver.fill_in, solver.reuse) = (limits, edge_limits, fill_in, reuse);
        (solver.widen, solver.init_dn, solver.resistance_order) = (widen, init_dn, resistance_order);
        (solver.grade, solver.killer) = (grade, killer);
        (solver.transplant, solver.vulnerable, solver.support_cut) = (transplant, vulnerable, support_cut);
        (solver.dominated, solver.budget, solver.derivations) = (dominated, budget, derive);
    };
    let mut solver = fresh;
    configure(&mut solver);
    println!("solver: {}", solver.describe());
    println!("shared table {share}, budget {budget}");
    let (mut total_nodes, clock) = (0, Instant::now());
    for cell in cells {
        let started = Instant::now();
        if !share {
            solver = Solver::new(board.clone());
        }
        let before = solver.nodes;
        configure(&mut solver);
        // The derivations are made after the solve, below, to time them apart.
        solver.derivations = false;
        let mut p = Position::empty(board.clone());
        p.play(Colour::Black, cell).expect("empty cell");
        let Ok(mut proof) = solver.proof(&p) else {
            println!("counts: {:?}", solver.counts);
            println!("{n}x{n} {}: stopped after {} positions", board.cell_name(cell), solver.nodes - before);
            continue;
        };
        let solved = started.elapsed().as_secs_f64();
        let derived = Instant::now();
        let with = if derive { annotate(&mut proof, limits, edge_limits) } else { 0 };
        let derived = derived.elapsed().as_secs_f64();
        let checked = Instant::now();
        let report = check_proof(&proof);
        let ok = report.is_ok();
        let (fills, carriers) = report.as_ref().map_or((0, 0), |r| (r.fills, r.carriers));
        total_nodes += solver.nodes - before;
        println!("counts: {:?}", solver.counts);
        println!(
            "{n}x{n} {}: winner {}, {} positions, {} proof steps ({fills} fills), {solved:.2} s, \
             derivations for {with} of {carriers} carriers ({} lines) in {derived:.2} s, check {} in {:.2} s",
            board.cell_name(cell),
            proof.winner.name(),
            solver.nodes - before,
            proof.steps.len(),
            proof.derivations.len(),
            if ok { "ok" } else { "FAILED" },
            checked.elapsed().as_secs_f64()
        );
    }
    println!("total: {total_nodes} positions, {:.2} s", clock.elapsed().as_secs_f64());
}

/// `HEX_SPLIT`: each opening of `cells` reply by reply (`which`: `1` all until White's first winning
/// reply, `#K` the first K in the solver's order, or the named replies).
fn split(board: &Board, cells: &[usize], which: &str) {
    println!("solver: {}; split", Solver::new(board.clone()).describe());
    for &cell in cells {
        let order = replies(board, cell).expect("an empty cell");
        let names: Vec<String> = order.iter().map(|&c| board.cell_name(c)).collect();
        println!("{} replies in order: {}", board.cell_name(cell), names.join(" "));
        let chosen: Vec<usize> = match which {
            "1" => order.clone(),
            k if k.starts_with('#') => order.iter().copied().take(k[1..].parse().expect("#K")).collect(),
            list => list.split(',').map(|c| board.parse_cell(c.trim()).expect("a cell")).collect(),
        };
        let mut records = std::collections::HashMap::new();
        for r in chosen {
            let record = solve_reply(board, cell, r, "bench").expect("a free cell");
            println!(
                "{} {}: winner {}, {} positions, {} proof steps, check {}, {:.2} CPU-s, {:.2} s",
                board.cell_name(cell),
                board.cell_name(r),
                if record.black_wins { "black" } else { "white" },
                record.nodes,
                record.proof_steps,
                if record.proof_checked { "ok" } else { "FAILED" },
                record.cpu_seconds,
                record.seconds
            );
            let white_wins = !record.black_wins;
            records.insert(r, record);
            if white_wins && which == "1" {
                break;
            }
        }
        match opening_of_replies(cell, &order, "bench", |r| records.get(&r).cloned()) {
            Some((o, k)) => println!(
                "{} split: winner {}, {k} replies, {} positions, {} proof steps, checked {}, {:.2} CPU-s",
                board.cell_name(cell),
                if o.black_wins { "black" } else { "white" },
                o.nodes,
                o.proof_steps,
                o.proof_checked,
                o.cpu_seconds
            ),
            None => println!("{} split: undecided by the replies solved", board.cell_name(cell)),
        }
    }
}
