//! `gtp`: a Hex engine speaking the Go Text Protocol on stdin/stdout, the
//! protocol of HexGui and the Benzene regression suites. Every answer is
//! `= …` or `? message` followed by a blank line; an optional numeric id is echoed.

use renyi_search::error::Result;
use renyi_search::two_player::connection::hex::board::{Board, Colour, cells_of};
use renyi_search::two_player::connection::hex::position::Position;
use renyi_search::two_player::connection::hex::solver::Solver;
use std::io::{BufRead, Write};

const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "play",
    "undo",
    "genmove",
    "showboard",
    "dfpn-solve-state",
    "quit",
];

struct Engine {
    position: Position,
    history: Vec<Position>,
    solver: Solver,
    budget: u64,
}

impl Engine {
    fn new(board: Board, budget: u64) -> Engine {
        let mut solver = Solver::new(board.clone());
        solver.budget = budget;
        Engine { position: Position::empty(board), history: Vec::new(), solver, budget }
    }

    /// One command (without id) → Ok(answer) or Err(message).
    fn answer(&mut self, words: &[&str]) -> std::result::Result<String, String> {
        let args = &words[1..];
        match (words[0], args.len()) {
            ("protocol_version", 0) => Ok("2".into()),
            // The loop in `run` ends after answering it.
            ("quit", 0) => Ok(String::new()),
            ("name", 0) => Ok("renyi-search".into()),
            ("version", 0) => Ok(renyi_search::VERSION.into()),
            ("known_command", 1) => Ok(COMMANDS.contains(&args[0]).to_string()),
            ("list_commands", 0) => Ok(COMMANDS.join("\n")),
            ("boardsize", 1 | 2) => {
                let side = |s: &str| s.parse::<usize>().map_err(|_| format!("bad board size {s:?}"));
                let cols = side(args[0])?;
                let rows = if args.len() == 2 { side(args[1])? } else { cols };
                let board = Board::new(cols, rows).map_err(|e| e.to_string())?;
                *self = Engine::new(board, self.budget);
                Ok(String::new())
            }
            ("clear_board", 0) => {
                *self = Engine::new(self.position.board.clone(), self.budget);
                Ok(String::new())
            }
            ("play", 2) => {
                let colour = Colour::parse(args[0]).map_err(|e| e.to_string())?;
                let cell = self.position.board.parse_cell(args[1]).map_err(|e| e.to_string())?;
                let mut next = self.position.clone();
                next.play(colour, cell).map_err(|e| e.to_string())?;
                next.validate().map_err(|e| e.to_string())?;
                self.history.push(std::mem::replace(&mut self.position, next));
                Ok(String::new())
            }
            ("undo", 0) => match self.history.pop() {
                Some(p) => {
                    self.position = p;
                    Ok(String::new())
                }
                None => Err("cannot undo".into()),
            },
            ("genmove", 1) => {
                let colour = Colour::parse(args[0]).map_err(|e| e.to_string())?;
                self.genmove(colour)
            }
            ("showboard", 0) => Ok(format!("\n{}", self.position.diagram().trim_end())),
            ("dfpn-solve-state", 1) => {
                let colour = Colour::parse(args[0]).map_err(|e| e.to_string())?;
                let mut p = self.position.clone();
                p.to_move = colour;
                if let Some(w) = p.winner() {
                    return Ok(w.name().into());
                }
                match self.solver.mover_wins(&p) {
                    Ok(true) => Ok(colour.name().into()),
                    Ok(false) => Ok(colour.other().name().into()),
                    Err(_) => Err("unknown: node budget exhausted".into()),
                }
            }
            (cmd, _) if COMMANDS.contains(&cmd) => Err(format!("wrong number of arguments for {cmd}")),
            (cmd, _) => Err(format!("unknown command {cmd:?}")),
        }
    }

    /// A winning move if the solver finds one within the budget, else the most central free cell.
    fn genmove(&mut self, colour: Colour) -> std::result::Result<String, String> {
        let mut p = self.position.clone();
        p.to_move = colour;
        if p.winner().is_some() || p.free() == 0 {
            return Ok("resign".into());
        }
        let cell = match self.solver.winning_moves(&p) {
            Ok(wins) if !wins.is_empty() => wins[wins.len() / 2],
            _ => {
                let b = &p.board;
                let centre =
                    |c: usize| (2 * (c % b.cols)).abs_diff(b.cols - 1) + (2 * (c / b.cols)).abs_diff(b.rows - 1);
                cells_of(p.free()).min_by_key(|&c| (centre(c), c)).expect("a free cell")
            }
        };
        let name = p.board.cell_name(cell);
        p.play(colour, cell).map_err(|e| e.to_string())?;
        self.history.push(std::mem::replace(&mut self.position, p));
        Ok(name)
    }
}

/// Runs the engine until `quit` or the end of input.
pub fn run(size: usize, budget: u64) -> Result<()> {
    let board = Board::new(size, size)?;
    let mut engine = Engine::new(board, budget);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let line = line.map_err(|source| renyi_search::error::Error::Io { path: "stdin".into(), source })?;
        let line = line.split('#').next().unwrap_or("").trim().to_string();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let id = if words[0].chars().all(|c| c.is_ascii_digit()) { words.remove(0) } else { "" };
        let reply = if words.is_empty() { Err("no command".to_string()) } else { engine.answer(&words) };
        let text = match &reply {
            Ok(a) if a.is_empty() => format!("={id}\n\n"),
            Ok(a) => format!("={id} {a}\n\n"),
            Err(m) => format!("?{id} {m}\n\n"),
        };
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
        if words.first() == Some(&"quit") {
            break;
        }
    }
    Ok(())
}
