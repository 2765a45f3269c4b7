//! Certificate files: gzip of a magic line, a JSON header line and the
//! binary body ([`super::check`] describes it). The header names the game
//! (`G`, as strategy files do), the objective, the claimed bound, the node
//! count and the program, and is sealed with two CRC-32s: of the body, and of
//! the header's compact JSON without its own CRC — so an edited file is told
//! from a written one before (and besides) the check.

use crate::error::{Error, Result, invalid};
use crate::output::{crc32_hex, write_atomic};
use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::Path;

const MAGIC: &[u8] = b"renyi-search certificate 1\n";
/// The format's number (the one in [`MAGIC`]); checkpoints of proofs name it.
pub const FORMAT_VERSION: u32 = 1;

/// The header of a certificate file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Header<G> {
    #[serde(flatten)]
    pub game: G,
    pub codes: u64,
    /// What is bounded: "total" (the least total over all codes, no constraints).
    pub objective: String,
    /// The lower bound on the least total the body proves.
    pub bound: u64,
    pub nodes: u64,
    pub body_bytes: u64,
    pub program: String,
    pub version: String,
    pub crc32_body: String,
    /// CRC-32 of the header's compact JSON without this field.
    #[serde(default)]
    pub crc32_header: String,
}

impl<G> Header<G> {
    /// The header of a fresh certificate of the least total (objective
    /// "total") proving `bound` with `nodes` nodes; sizes and seals are filled
    /// in when the file is written.
    pub fn total(game: G, codes: u64, bound: u64, nodes: u64) -> Header<G> {
        Header {
            game,
            codes,
            objective: "total".into(),
            bound,
            nodes,
            body_bytes: 0,
            program: "renyi-search".into(),
            version: crate::VERSION.into(),
            crc32_body: String::new(),
            crc32_header: String::new(),
        }
    }
}

/// A certificate as read: header, body, and which seals failed.
pub struct CertificateFile<G> {
    pub header: Header<G>,
    pub body: Vec<u8>,
    /// The parts whose CRC-32 does not match ("header", "body"); empty if intact.
    pub broken: Vec<&'static str>,
}

fn header_crc<G: Serialize>(header: &Header<G>) -> String {
    let mut value = serde_json::to_value(header).expect("headers serialize");
    if let Some(object) = value.as_object_mut() {
        object.remove("crc32_header");
    }
    crc32_hex(&serde_json::to_vec(&value).expect("JSON values serialize"))
}

/// Writes a certificate atomically; the header's sizes and seals are set here.
pub fn write_certificate<G: Serialize>(path: &Path, mut header: Header<G>, body: &[u8]) -> Result<u64> {
    header.body_bytes = body.len() as u64;
    header.crc32_body = crc32_hex(body);
    header.crc32_header = header_crc(&header);
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    let line = serde_json::to_string(&header).expect("headers serialize");
    let io = |source| Error::Io { path: path.display().to_string(), source };
    gz.write_all(MAGIC).map_err(io)?;
    gz.write_all(line.as_bytes()).map_err(io)?;
    gz.write_all(b"\n").map_err(io)?;
    gz.write_all(body).map_err(io)?;
    let bytes = gz.finish().map_err(io)?;
    write_atomic(path, &bytes)?;
    Ok(bytes.len() as u64)
}

/// Reads a certificate file; malformed files give a one-line error, broken
/// seals are reported in [`CertificateFile::broken`].
pub fn read_certificate<G: Serialize + DeserializeOwned>(path: &Path) -> Result<CertificateFile<G>> {
    let bad = |what: String| invalid(format!("{}: not a certificate file: {what}", path.display()));
    let raw = std::fs::read(path).map_err(|source| Error::Io { path: path.display().to_string(), source })?;
    let mut data = Vec::new();
    GzDecoder::new(&raw[..]).read_to_end(&mut data).map_err(|e| bad(format!("{e}")))?;
    let rest = data.strip_prefix(MAGIC).ok_or_else(|| bad("no certificate magic line".into()))?;
    let end = rest.iter().position(|&b| b == b'\n').ok_or_else(|| bad("no header line".into()))?;
    let header: Header<G> = serde_json::from_slice(&rest[..end]).map_err(|e| bad(format!("header: {e}")))?;
    let body = rest[end + 1..].to_vec();
    let mut broken = Vec::new();
    if header_crc(&header) != header.crc32_header {
        broken.push("header");
    }
    if crc32_hex(&body) != header.crc32_body || body.len() as u64 != header.body_bytes {
        broken.push("body");
    }
    Ok(CertificateFile { header, body, broken })
}
