//! A proof body packed for a line of a depth-bound checkpoint
//! ([`super::depth_checkpoint`]): compressed (xz), then base64, with the
//! SHA-256 of the body itself as its digest, by which a finished root query's
//! record names the class records it rests on. Unpacking checks the digest,
//! so a body that does not decompress to the proof it was packed from is an
//! error, not a wrong certificate (which the checker would refuse anyway).

use crate::error::{Result, invalid};
use std::io::{Read, Write};

/// The xz preset of the packed bodies.
const PRESET: u32 = 6;

/// The base64 alphabet (RFC 4648, with `=` padding).
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The SHA-256 of `body`, 64 lowercase hex digits.
pub fn digest(body: &[u8]) -> String {
    crate::output::sha256_hex(body)
}

/// `body` compressed and as base64 text.
pub fn pack(body: &[u8]) -> String {
    let mut z = liblzma::write::XzEncoder::new(Vec::new(), PRESET);
    // Writing to a Vec cannot fail.
    let packed = z.write_all(body).and_then(|()| z.finish()).unwrap_or_default();
    to_base64(&packed)
}

/// The body packed in `text`, which must have the SHA-256 `expected`.
pub fn unpack(text: &str, expected: &str) -> Result<Vec<u8>> {
    let packed = from_base64(text).ok_or_else(|| invalid("a checkpoint record's proof is not base64"))?;
    let mut body = Vec::new();
    liblzma::read::XzDecoder::new(&packed[..])
        .read_to_end(&mut body)
        .map_err(|e| invalid(format!("a checkpoint record's proof does not decompress: {e}")))?;
    if digest(&body) != expected {
        return Err(invalid("a checkpoint record's proof does not match its SHA-256"));
    }
    Ok(body)
}

/// Bytes as base64 (padded).
pub fn to_base64(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | ((b as u32) << (16 - 8 * i)));
        for i in 0..4 {
            let c = if i <= chunk.len() { ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] } else { b'=' };
            text.push(c as char);
        }
    }
    text
}

/// Base64 (padded) back to bytes; `None` if it is not base64 as [`to_base64`] writes it.
pub fn from_base64(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let mut values = [None; 256];
    for (v, &c) in ALPHABET.iter().enumerate() {
        values[c as usize] = Some(v as u32);
    }
    let mut bytes = Vec::with_capacity(text.len() / 4 * 3);
    for (i, quad) in text.chunks(4).enumerate() {
        let last = i + 1 == text.len() / 4;
        let pad = quad.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for (j, &c) in quad[..4 - pad].iter().enumerate() {
            n |= values[c as usize]? << (18 - 6 * j);
        }
        let kept = 3 - pad;
        if n & ((1u32 << (8 * pad)) - 1) != 0 {
            return None; // bits below the last byte: not as to_base64 writes it
        }
        bytes.extend((0..kept).map(|j| (n >> (16 - 8 * j)) as u8));
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4648's test vectors, round trips of every length mod 3, and text that is not base64.
    #[test]
    fn base64_is_rfc_4648() {
        for (plain, coded) in
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE=")]
        {
            assert_eq!(to_base64(plain.as_bytes()), coded);
            assert_eq!(from_base64(coded).unwrap(), plain.as_bytes());
        }
        let bytes: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
        for n in 0..20 {
            assert_eq!(from_base64(&to_base64(&bytes[n..])).unwrap(), &bytes[n..]);
        }
        for wrong in ["Zg=", "Z===", "Zg==Zg==", "Zh==", "Zm9*", "Zm=v"] {
            assert_eq!(from_base64(wrong), None, "{wrong}");
        }
    }

    /// A packed body unpacks to itself; a wrong digest or damaged text is refused.
    #[test]
    fn packed_bodies_unpack_only_to_their_digest() {
        let body: Vec<u8> = (0..5000u32).map(|i| (i * i % 251) as u8).collect();
        let (text, sum) = (pack(&body), digest(&body));
        assert_eq!(sum.len(), 64);
        assert_eq!(digest(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(unpack(&text, &sum).unwrap(), body);
        assert!(unpack(&text, &digest(b"abc")).unwrap_err().to_string().contains("SHA-256"));
        assert!(unpack(&text[4..], &sum).unwrap_err().to_string().contains("decompress"));
        assert!(unpack("Zg=", &sum).unwrap_err().to_string().contains("base64"));
    }
}
