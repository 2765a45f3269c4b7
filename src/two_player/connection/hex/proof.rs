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
//!   `carrier a1,b2,… by 17` (version 5): the same, derived by the derivation
//!   line 17, which the checker verifies rule by rule instead of searching;
//! - `fill black CELLS white CELLS` (`-` for none): the position has the value
//!   of the one with these stones added (`inferior.rs`), whose step follows;
//!   the checker re-derives every filled cell;
//! - `add c3` (version 3): the loser's stone added on the empty cell c3, whose
//!   position's step follows (an own stone never hurts in Hex: if the winner
//!   wins with it, he wins without it; written for the moves that a refuted
//!   sibling's support cut, `support.rs`).
//!
//! Derivation lines (version 5; `derive.rs`), numbered from 0 in file order:
//! `d 17 vc|sc X Y CARRIER RULE`, the VC or SC (X, CARRIER, Y) of the
//! winner's Hex graph (X, Y a cell, a winner's stone for its group, or
//! `edge1`/`edge2`; CARRIER cells or `-`), RULE `base`, `and I J` (the VCs
//! I = (X, A, U) and J = (U, B, Y)) or `or I J …` (SCs), every number below 17.
//!
//! A proof with a derivation is written as version 5, one with a dominated
//! cell as version 4, one with an `add` step as version 3, every other one as
//! version 2; all four are read.
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

/// A node of the winner's Hex graph, by a board cell (a free cell, or a stone
/// of the winner standing for its group) or as one of his edges (1 or 2, the
/// first being row 1 for Black and column a for White).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    Cell(usize),
    Edge(u8),
}

/// The rule of a derivation line; the numbers are earlier lines.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    Base,
    /// The VCs (x, A, u) and (u, B, y).
    And(usize, usize),
    /// The SCs (x, C_k, y).
    Or(Vec<usize>),
}

/// One line of a derivation: a VC or SC (x, carrier, y) and its rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Derivation {
    pub vc: bool,
    pub ends: (Node, Node),
    /// Board cells.
    pub carrier: Bits,
    pub rule: Rule,
}

/// What the proof does at one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofStep {
    Move(usize),
    /// Every move of the loser but the listed vulnerable cells, each with its
    /// killer, and the listed dominated cells, each with its dominator (version 4).
    Every(Vec<(usize, usize)>, Vec<(usize, usize)>),
    /// The carrier, and the derivation line of its connection if any (version 5).
    Carrier(Bits, Option<usize>),
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
    /// The derivation lines that `carrier … by` steps name (`derive.rs`).
    pub derivations: Vec<Derivation>,
}

impl Proof {
    /// The winner's move at the root if the proof names one there, through
    /// its `fill` steps (whose added stones leave that cell empty): a hint for
    /// a winning move that a search must confirm, not a claim of its own.
    pub fn root_move(&self) -> Option<usize> {
        let p = &self.position;
        let (mut black, mut white) = (p.black, p.white);
        for _ in 0..=self.steps.len() {
            let (.., step) = self.steps.iter().find(|s| s.0 == black && s.1 == white && s.2 == p.to_move)?;
            match step {
                ProofStep::Move(c) => return Some(*c),
                ProofStep::Fill(b, w) => (black, white) = (black | b, white | w),
                _ => return None,
            }
        }
        None
    }

    /// The proof as text.
    pub fn to_text(&self) -> String {
        let p = &self.position;
        let b = &p.board;
        let dominated = self.steps.iter().any(|s| matches!(&s.3, ProofStep::Every(_, d) if !d.is_empty()));
        let added = self.steps.iter().any(|s| matches!(s.3, ProofStep::Add(_)));
        let version = if !self.derivations.is_empty() {
            5
        } else if dominated {
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
                ProofStep::Carrier(c, None) => format!("carrier {}", b.set_names(*c)),
                ProofStep::Carrier(c, Some(d)) => format!("carrier {} by {d}", names(*c)),
                ProofStep::Fill(fb, fw) => format!("fill black {} white {}", names(*fb), names(*fw)),
                ProofStep::Add(c) => format!("add {}", b.cell_name(*c)),
            };
            let mover = &mover.name()[..1];
            out.push_str(&format!("{black:032x} {white:032x} {mover} {step}\n"));
        }
        let node = |n: &Node| match n {
            Node::Cell(c) => b.cell_name(*c),
            Node::Edge(e) => format!("edge{e}"),
        };
        for (i, d) in self.derivations.iter().enumerate() {
            let rule = match &d.rule {
                Rule::Base => "base".to_string(),
                Rule::And(a, c) => format!("and {a} {c}"),
                Rule::Or(parts) => format!("or {}", parts.iter().map(usize::to_string).collect::<Vec<_>>().join(" ")),
            };
            let kind = if d.vc { "vc" } else { "sc" };
            let (x, y) = (node(&d.ends.0), node(&d.ends.1));
            out.push_str(&format!("d {i} {kind} {x} {y} {} {rule}\n", names(d.carrier)));
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
        if !["2", "3", "4", "5"].contains(&header("hex-proof")?.as_str()) {
            return Err(invalid("proof: not a hex-proof version 2, 3, 4 or 5 file"));
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
        let (mut steps, mut derivations) = (Vec::new(), Vec::new());
        for (i, line) in lines {
            let at = |e: crate::error::Error| e.at(&format!("proof line {}", i + 1));
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            let bits = |s: &str| Bits::from_str_radix(s, 16).map_err(|_| at(invalid(format!("bad stone set {s:?}"))));
            if words.first() == Some(&"d") {
                derivations.push(derivation_line(&position.board, &words, derivations.len()).map_err(at)?);
                continue;
            }
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
                ("carrier", list) if words.len() <= 5 => ProofStep::Carrier(cells(list)?, None),
                ("carrier", list) if words.len() == 7 && words[5] == "by" => {
                    let id = words[6].parse().map_err(|_| at(invalid(format!("bad line number {:?}", words[6]))))?;
                    ProofStep::Carrier(cells(list)?, Some(id))
                }
                ("fill", Some(&"black")) if words.len() == 8 && words[6] == "white" => {
                    ProofStep::Fill(cells(words.get(5))?, cells(words.get(7))?)
                }
                _ => return Err(at(invalid(format!("unknown step {:?}", words[3..].join(" "))))),
            };
            let mover = Colour::parse(words[2]).map_err(at)?;
            steps.push((bits(words[0])?, bits(words[1])?, mover, step));
        }
        Ok(Proof { position, winner, steps, derivations })
    }
}

/// A derivation line `d ID vc|sc X Y CARRIER RULE…` (the words), numbered `id`.
fn derivation_line(board: &Board, words: &[&str], id: usize) -> Result<Derivation> {
    if words.len() < 7 || words[1] != id.to_string() {
        return Err(invalid(format!("expected derivation line {id}: d {id} vc|sc X Y CARRIER RULE")));
    }
    let node = |w: &str| match w {
        "edge1" => Ok(Node::Edge(1)),
        "edge2" => Ok(Node::Edge(2)),
        _ => board.parse_cell(w).map(Node::Cell),
    };
    let vc = match words[2] {
        "vc" => true,
        "sc" => false,
        other => return Err(invalid(format!("bad connection kind {other:?}"))),
    };
    let mut carrier: Bits = 0;
    for name in words[5].split(',').filter(|s| *s != "-") {
        carrier |= 1 << board.parse_cell(name)?;
    }
    let numbers = words[7..].iter().map(|w| w.parse::<usize>().map_err(|_| invalid(format!("bad line number {w:?}"))));
    let numbers = numbers.collect::<Result<Vec<usize>>>()?;
    let rule = match (words[6], numbers.as_slice()) {
        ("base", []) => Rule::Base,
        ("and", &[a, b]) => Rule::And(a, b),
        ("or", parts) if !parts.is_empty() => Rule::Or(parts.to_vec()),
        _ => return Err(invalid(format!("bad rule {:?}", words[6..].join(" ")))),
    };
    Ok(Derivation { vc, ends: (node(words[3])?, node(words[4])?), carrier, rule })
}
