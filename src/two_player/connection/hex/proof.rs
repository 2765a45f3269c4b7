//! The proof file of a solved Hex position: the root, the claimed winner, and
//! one step per position the proof reaches (keyed by its two stone sets and
//! the side to move; fill-in breaks the link between stone counts and mover):
//! - `move c3`: the winner moves there (winner to move);
//! - `every`: every move of the loser is answered (loser to move);
//!   `every except c3:d3,…`: every move but the listed *vulnerable* cells, each
//!   with its killer (c3 is dead once the winner holds d3; the theorem in
//!   `docs/hex.md`, "Vulnerable cells", lets the loser's moves there go
//!   unanswered; the checker verifies each killer); `c3>d3` (version 4): c3 is
//!   *dominated* by d3 (after the loser's stone on d3, c3 is a fill of his;
//!   `docs/hex.md`, "Dominated cells"), the loser's move there unanswered;
//! - `carrier a1,b2,…`: the winner wins the game restricted to these empty
//!   cells from here (a VC or SC of H-search, Satz 4.1), checked by search;
//! - `fill black CELLS white CELLS` (`-` for none): the position has the value
//!   of the one with these stones added (`inferior.rs`), whose step follows;
//!   the checker re-derives every filled cell;
//! - `add c3` (version 3): the loser's stone added on the empty cell c3, whose
//!   position's step follows (an own stone never hurts in Hex: if the winner
//!   wins with it, he wins without it; written for the moves that a refuted
//!   sibling's support cut, `support.rs`).
//!
//! A proof with a dominated cell is written as version 4, one with an `add`
//! step as version 3, every other one as version 2; all three are read.
//!
//! Text format, one item per line:
//! ```text
//! hex-proof 2
//! board 3x3
//! black b2
//! white
//! to-move white
//! winner black
//! <black as 32 hex digits> <white as 32 hex digits> <b|w to move> move|every|carrier|fill …
//! ```

use super::board::{Bits, Board, Colour};
use super::position::Position;
use crate::error::{Result, invalid};

/// What the proof does at one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofStep {
    Move(usize),
    /// Every move of the loser but the listed vulnerable cells, each with its
    /// killer, and the listed dominated cells, each with its dominator (version 4).
    Every(Vec<(usize, usize)>, Vec<(usize, usize)>),
    Carrier(Bits),
    /// Stones added for Black and for White.
    Fill(Bits, Bits),
    /// The loser's stone added on this empty cell (version 3).
    Add(usize),
}

/// A proof: the root position, the claimed winner, the steps.
#[derive(Clone, Debug)]
pub struct Proof {
    pub position: Position,
    pub winner: Colour,
    pub steps: Vec<(Bits, Bits, Colour, ProofStep)>,
}

impl Proof {
    /// The proof as text.
    pub fn to_text(&self) -> String {
        let p = &self.position;
        let b = &p.board;
        let dominated = self.steps.iter().any(|s| matches!(&s.3, ProofStep::Every(_, d) if !d.is_empty()));
        let added = self.steps.iter().any(|s| matches!(s.3, ProofStep::Add(_)));
        let version = if dominated {
            4
        } else if added {
            3
        } else {
            2
        };
        let mut out = format!(
            "hex-proof {version}\nboard {}x{}\nblack {}\nwhite {}\nto-move {}\nwinner {}\n",
            b.cols,
            b.rows,
            b.set_names(p.black),
            b.set_names(p.white),
            p.to_move.name(),
            self.winner.name()
        );
        let names = |set: Bits| if set == 0 { "-".to_string() } else { b.set_names(set) };
        for (black, white, mover, step) in &self.steps {
            let step = match step {
                ProofStep::Move(c) => format!("move {}", b.cell_name(*c)),
                ProofStep::Every(kills, doms) if kills.is_empty() && doms.is_empty() => "every".to_string(),
                ProofStep::Every(kills, doms) => {
                    let pair = |(c, k): (usize, usize), sep: &str| format!("{}{sep}{}", b.cell_name(c), b.cell_name(k));
                    let pairs: Vec<String> =
                        kills.iter().map(|&p| pair(p, ":")).chain(doms.iter().map(|&p| pair(p, ">"))).collect();
                    format!("every except {}", pairs.join(","))
                }
                ProofStep::Carrier(c) => format!("carrier {}", b.set_names(*c)),
                ProofStep::Fill(fb, fw) => format!("fill black {} white {}", names(*fb), names(*fw)),
                ProofStep::Add(c) => format!("add {}", b.cell_name(*c)),
            };
            let mover = &mover.name()[..1];
            out.push_str(&format!("{black:032x} {white:032x} {mover} {step}\n"));
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
        if !["2", "3", "4"].contains(&header("hex-proof")?.as_str()) {
            return Err(invalid("proof: not a hex-proof version 2, 3 or 4 file"));
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
            if words.len() < 4 {
                return Err(at(invalid("expected: black white mover step")));
            }
            let cells = |list: Option<&&str>| -> Result<Bits> {
                let mut set = 0;
                for name in list.map_or("", |l| *l).split(',').filter(|s| !s.is_empty() && *s != "-") {
                    set |= 1 << position.board.parse_cell(name).map_err(at)?;
                }
                Ok(set)
            };
            let step = match (words[3], words.get(4)) {
                ("move", Some(cell)) if words.len() == 5 => {
                    ProofStep::Move(position.board.parse_cell(cell).map_err(at)?)
                }
                ("every", None) => ProofStep::Every(Vec::new(), Vec::new()),
                ("every", Some(&"except")) if words.len() == 6 => {
                    let (mut kills, mut doms) = (Vec::new(), Vec::new());
                    for pair in words[5].split(',') {
                        let (list, (c, k)) = match (pair.split_once(':'), pair.split_once('>')) {
                            (Some(p), None) => (&mut kills, p),
                            (None, Some(p)) => (&mut doms, p),
                            _ => return Err(at(invalid(format!("bad pair {pair:?}")))),
                        };
                        let cell = |name: &str| position.board.parse_cell(name).map_err(at);
                        list.push((cell(c)?, cell(k)?));
                    }
                    ProofStep::Every(kills, doms)
                }
                ("add", Some(cell)) if words.len() == 5 => ProofStep::Add(position.board.parse_cell(cell).map_err(at)?),
                ("carrier", list) if words.len() <= 5 => ProofStep::Carrier(cells(list)?),
                ("fill", Some(&"black")) if words.len() == 8 && words[6] == "white" => {
                    ProofStep::Fill(cells(words.get(5))?, cells(words.get(7))?)
                }
                _ => return Err(at(invalid(format!("unknown step {:?}", words[3..].join(" "))))),
            };
            let mover = Colour::parse(words[2]).map_err(at)?;
            steps.push((bits(words[0])?, bits(words[1])?, mover, step));
        }
        Ok(Proof { position, winner, steps })
    }
}
