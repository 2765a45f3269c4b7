//! Strategy files: a game, the claims about a strategy (total, worst case,
//! constraints), provenance and the tree, sealed with CRC-32s so that an
//! edited file is told from a written one.
//!
//! The seal holds two CRC-32s, of the header (every field but the tree and
//! the seal) and of the tree, each over the compact JSON of the parsed value
//! (so whitespace and key order do not matter, any changed, added or removed
//! value does). Files are written in field order. Files written before sealing have no seal; they are read
//! with a note and checked by replay only.

use super::perfect::Constraints;
use super::tree::TreeNode;
use crate::error::{Result, invalid};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A strategy file: the game (`G`: whatever the game layer writes to rebuild
/// it, e.g. `games::GameSpec`), the claimed total, provenance, and the tree.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StrategyFile<G> {
    #[serde(flatten)]
    pub game: G,
    pub codes: u64,
    pub total: u64,
    /// The constraints the strategy claims to respect (none in older files).
    #[serde(default, skip_serializing_if = "Constraints::is_none")]
    pub constraints: Constraints,
    /// The claimed worst case: the most queries any code takes (not in older files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<u64>,
    pub program: String,
    pub version: String,
    pub tree: TreeNode,
    /// CRC-32s of the contents ([`seal`]); `None` in files written before sealing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<Seal>,
}

/// CRC-32s (hex) of a strategy file's header and tree.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Seal {
    pub crc32_header: String,
    pub crc32_tree: String,
}

/// What the seal of a file read says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SealCheck {
    /// Both CRC-32s match the contents.
    Intact,
    /// No seal (a file written before strategy files were sealed).
    Unsealed,
    /// The parts whose CRC-32 does not match ("header", "tree").
    Broken(Vec<&'static str>),
}

fn crc_hex(value: &Value) -> String {
    let bytes = serde_json::to_vec(value).expect("JSON values serialize");
    crate::output::crc32_hex(&bytes)
}

/// The seal of a file given as a JSON object (its own "seal" ignored).
fn seal_of(object: &serde_json::Map<String, Value>) -> Seal {
    let mut header = object.clone();
    header.remove("seal");
    let tree = header.remove("tree").unwrap_or(Value::Null);
    Seal { crc32_header: crc_hex(&Value::Object(header)), crc32_tree: crc_hex(&tree) }
}

impl<G: Serialize> StrategyFile<G> {
    /// The file with its seal computed from everything else (written in
    /// field order; the seal does not depend on the order).
    pub fn sealed(mut self) -> Self {
        self.seal = None;
        let value = serde_json::to_value(&self).expect("strategy files serialize");
        let object = value.as_object().expect("a strategy file is a JSON object");
        self.seal = Some(seal_of(object));
        self
    }
}

/// Parses a strategy file and checks its seal against its contents.
pub fn read_strategy_file<G: DeserializeOwned>(text: &str) -> Result<(StrategyFile<G>, SealCheck)> {
    let value: Value = serde_json::from_str(text).map_err(|e| invalid(format!("not a strategy file: {e}")))?;
    let Some(object) = value.as_object() else { return Err(invalid("not a strategy file: not a JSON object")) };
    let check = match object.get("seal") {
        None => SealCheck::Unsealed,
        Some(stored) => {
            let stored: Seal =
                serde_json::from_value(stored.clone()).map_err(|e| invalid(format!("a malformed seal: {e}")))?;
            let actual = seal_of(object);
            let mut broken = Vec::new();
            if stored.crc32_header != actual.crc32_header {
                broken.push("header");
            }
            if stored.crc32_tree != actual.crc32_tree {
                broken.push("tree");
            }
            if broken.is_empty() { SealCheck::Intact } else { SealCheck::Broken(broken) }
        }
    };
    let file = serde_json::from_value(value).map_err(|e| invalid(format!("not a strategy file: {e}")))?;
    Ok((file, check))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file() -> StrategyFile<Value> {
        StrategyFile {
            game: serde_json::json!({"game": "toy"}),
            codes: 2,
            total: 3,
            constraints: Constraints { max_depth: Some(2), possible_only: true },
            max_depth: Some(2),
            program: "p".into(),
            version: "v".into(),
            tree: TreeNode::Stop { codes: vec![0, 1] },
            seal: None,
        }
    }

    #[test]
    fn a_sealed_file_reads_intact_and_edits_are_named() {
        let text = serde_json::to_string_pretty(&file().sealed()).unwrap();
        let (read, check) = read_strategy_file::<Value>(&text).unwrap();
        assert_eq!((check, read.total, read.constraints.max_depth), (SealCheck::Intact, 3, Some(2)));
        let edited = text.replace("\"total\": 3", "\"total\": 4");
        assert_eq!(read_strategy_file::<Value>(&edited).unwrap().1, SealCheck::Broken(vec!["header"]));
        let edited = text.replacen("1\n", "2\n", 1);
        assert_ne!(edited, text);
        assert_eq!(read_strategy_file::<Value>(&edited).unwrap().1, SealCheck::Broken(vec!["tree"]));
        // whitespace and key order do not matter
        let compact = serde_json::to_string(&file().sealed()).unwrap();
        assert_eq!(read_strategy_file::<Value>(&compact).unwrap().1, SealCheck::Intact);
    }

    #[test]
    fn an_unsealed_file_reads_with_its_defaults() {
        let text = serde_json::to_string(&serde_json::json!({
            "game": "toy", "codes": 2, "total": 3, "program": "p", "version": "v", "tree": {"codes": [0, 1]}
        }))
        .unwrap();
        let (read, check) = read_strategy_file::<Value>(&text).unwrap();
        assert_eq!((check, read.constraints, read.max_depth), (SealCheck::Unsealed, Constraints::none(), None));
    }
}
