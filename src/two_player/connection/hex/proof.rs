//! The proof file of a solved Hex position: the root, the claimed winner, and
//! one step per position the proof reaches (keyed by its two stone sets):
//! - `move c3`: the winner moves there (winner to move);
//! - `every`: every move of the loser is answered (loser to move);
//! - `carrier a1,b2,…`: the winner wins the game restricted to these empty
//!   cells from here (a VC or SC of H-search, Satz 4.1), checked by search.
//!
//! Text format, one item per line:
//! ```text
//! hex-proof 1
//! board 3x3
//! black b2
//! white
//! to-move white
//! winner black
//! <black as 32 hex digits> <white as 32 hex digits> move|every|carrier [cells]
//! ```

use super::board::{Bits, Board, Colour};
use super::position::Position;
use crate::error::{Result, invalid};

/// What the proof does at one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofStep {
    Move(usize),
    Every,
    Carrier(Bits),
}

/// A proof: the root position, the claimed winner, the steps.
#[derive(Clone, Debug)]
pub struct Proof {
    pub position: Position,
    pub winner: Colour,
    pub steps: Vec<(Bits, Bits, ProofStep)>,
}

impl Proof {
    /// The proof as text.
    pub fn to_text(&self) -> String {
        let p = &self.position;
        let b = &p.board;
        let mut out = format!(
            "hex-proof 1\nboard {}x{}\nblack {}\nwhite {}\nto-move {}\nwinner {}\n",
            b.cols,
            b.rows,
            b.set_names(p.black),
            b.set_names(p.white),
            p.to_move.name(),
            self.winner.name()
        );
        for (black, white, step) in &self.steps {
            let step = match step {
                ProofStep::Move(c) => format!("move {}", b.cell_name(*c)),
                ProofStep::Every => "every".to_string(),
                ProofStep::Carrier(c) => format!("carrier {}", b.set_names(*c)),
            };
            out.push_str(&format!("{black:032x} {white:032x} {step}\n"));
        }
        out
    }

    /// Reads a proof file; every malformed line is an error naming the line.
    pub fn from_text(text: &str) -> Result<Proof> {
        let mut lines = text.lines().enumerate();
        let mut header = |want: &str| -> Result<String> {
            match lines.next() {
                Some((_, l)) if l.split_whitespace().next() == Some(want) => {
                    Ok(l.split_once(' ').map_or("", |(_, r)| r).trim().to_string())
                }
                Some((i, _)) => Err(invalid(format!("proof line {}: expected {want:?}", i + 1))),
                None => Err(invalid(format!("proof: missing {want:?} line"))),
            }
        };
        if header("hex-proof")? != "1" {
            return Err(invalid("proof: not a hex-proof version 1 file"));
        }
        let size = header("board")?;
        let (c, r) = size.split_once('x').ok_or_else(|| invalid("proof: board must be CxR"))?;
        let parse = |s: &str| s.parse::<usize>().map_err(|_| invalid(format!("proof: bad board size {size:?}")));
        let board = Board::new(parse(c)?, parse(r)?)?;
        let black = header("black")?;
        let white = header("white")?;
        let to_move = Colour::parse(&header("to-move")?)?;
        let winner = Colour::parse(&header("winner")?)?;
        let position = Position::from_lists(board, &black, &white, to_move)?;
        let mut steps = Vec::new();
        for (i, line) in lines {
            let at = |e: crate::error::Error| e.at(&format!("proof line {}", i + 1));
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            let bits = |s: &str| Bits::from_str_radix(s, 16).map_err(|_| at(invalid(format!("bad stone set {s:?}"))));
            if words.len() < 3 {
                return Err(at(invalid("expected: black white step")));
            }
            let step = match (words[2], words.get(3)) {
                ("move", Some(cell)) => ProofStep::Move(position.board.parse_cell(cell).map_err(at)?),
                ("every", None) => ProofStep::Every,
                ("carrier", list) => {
                    let mut set = 0;
                    for name in list.map_or("", |l| *l).split(',').filter(|s| !s.is_empty()) {
                        set |= 1 << position.board.parse_cell(name).map_err(at)?;
                    }
                    ProofStep::Carrier(set)
                }
                _ => return Err(at(invalid(format!("unknown step {:?}", words[2..].join(" "))))),
            };
            steps.push((bits(words[0])?, bits(words[1])?, step));
        }
        Ok(Proof { position, winner, steps })
    }
}
