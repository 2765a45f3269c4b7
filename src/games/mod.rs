//! Deduction games: each is a client of the generic core in [`crate::search`].

pub mod beams;
pub mod bulls_and_cows;
pub mod mastermind;

/// All permutations of 0..k in lexicographic order (Beams numbers its
/// colourings by this order; Mastermind uses them as colour and peg symmetries).
pub fn permutations(k: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut p: Vec<u8> = (0..k as u8).collect();
    loop {
        out.push(p.clone());
        let Some(i) = (0..k.saturating_sub(1)).rev().find(|&i| p[i] < p[i + 1]) else { return out };
        let j = (i + 1..k).rev().find(|&j| p[j] > p[i]).expect("successor exists");
        p.swap(i, j);
        p[i + 1..].reverse();
    }
}

use serde::{Deserialize, Serialize};

/// A game as written into strategy files, enough to rebuild it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "game", rename_all = "lowercase")]
pub enum GameSpec {
    Mastermind {
        pegs: usize,
        colors: usize,
        distinct: bool,
    },
    /// In the file: the variant as it displays (`Beams(3c,6p)`) and the
    /// query numbering as `lex-c` or `lex-d`; penalty: best guess.
    Beams {
        #[serde(with = "variant_text")]
        variant: beams::Variant,
        #[serde(with = "query_order_text")]
        order: beams::game::QueryOrder,
    },
    /// Bulls and Cows: `digits` distinct digits of `symbols`.
    #[serde(rename = "bulls-and-cows")]
    BullsAndCows {
        digits: usize,
        symbols: usize,
    },
}

/// Serde of a Beams variant as its display (`Beams(3c,6p)`); any other text
/// is refused, so a file re-seals byte for byte.
mod variant_text {
    use super::beams::Variant;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(variant: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(variant)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let text = String::deserialize(d)?;
        let variant = text.parse::<Variant>().ok().filter(|v| v.to_string() == text);
        variant.ok_or_else(|| D::Error::custom(format!("{text:?} is not a Beams variant (written Beams(<c>c,<p>p))")))
    }
}

/// Serde of a Beams query order by its stable name: `lex-c` (colour first)
/// or `lex-d` (diagonal first).
mod query_order_text {
    use super::beams::game::QueryOrder;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(order: &QueryOrder, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match order {
            QueryOrder::ColourFirst => "lex-c",
            QueryOrder::DiagonalFirst => "lex-d",
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<QueryOrder, D::Error> {
        match String::deserialize(d)?.as_str() {
            "lex-c" => Ok(QueryOrder::ColourFirst),
            "lex-d" => Ok(QueryOrder::DiagonalFirst),
            other => Err(D::Error::custom(format!("unknown query order {other:?} (accepted: lex-c, lex-d)"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::GameSpec;
    use super::beams::game::QueryOrder;

    /// The Beams spec keeps the texts of earlier files: it reads and writes
    /// them byte for byte, and refuses any other spelling.
    #[test]
    fn beams_spec_keeps_its_texts() {
        let text = r#"{"game":"beams","variant":"Beams(3c,6p)","order":"lex-d"}"#;
        let spec: GameSpec = serde_json::from_str(text).unwrap();
        let GameSpec::Beams { variant, order } = &spec else { panic!("{spec:?}") };
        assert_eq!((variant.colours, variant.piece_size, *order), (3, 6, QueryOrder::DiagonalFirst));
        assert_eq!(serde_json::to_string(&spec).unwrap(), text);
        for bad in [text.replace("Beams(3c,6p)", "3c6p"), text.replace("lex-d", "LEX-d")] {
            assert!(serde_json::from_str::<GameSpec>(&bad).is_err(), "{bad}");
        }
    }
}
