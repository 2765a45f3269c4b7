//! The byte encoding of the solver's tables in a checkpoint (`snapshot.rs`): little-endian
//! integers, cell sets in the board's width (⌈cells / 8⌉ bytes), lists after their length, table
//! keys as the mover's byte and the two stone sets. Every value read is checked against the board
//! (a cell set with a bit off the board, a list longer than any the solver makes, an unknown tag:
//! the file is damaged), and the CRC-32 of all bytes is kept on the way, for the seal at the end.

use super::super::board::Bits;
use super::super::solver::{Entry, Expanded, PositionMap};
use std::io::{self, Read, Write};

/// The mover flag of a table key (`solver::key`).
const TOP: Bits = 1 << 127;

/// No list in the tables is longer (moves, SC carriers, kills: far fewer).
const MAX_LIST: u32 = 1 << 16;

/// The error of a damaged file (the caller names the file).
pub(super) fn damaged(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// A writer of the tables' bytes, with their CRC-32.
pub(super) struct Enc<W> {
    out: W,
    width: usize,
    crc: crc32fast::Hasher,
}

/// A reader of the tables' bytes, with their CRC-32 and the board's cells (for the range checks).
pub(super) struct Dec<R> {
    input: R,
    width: usize,
    all: Bits,
    crc: crc32fast::Hasher,
}

/// The bytes of a cell set on a board of `cells` cells.
fn width(cells: usize) -> usize {
    cells.div_ceil(8)
}

impl<W: Write> Enc<W> {
    /// A writer for a board of `cells` cells.
    pub(super) fn new(out: W, cells: usize) -> Enc<W> {
        Enc { out, width: width(cells), crc: crc32fast::Hasher::new() }
    }

    fn bytes(&mut self, b: &[u8]) -> io::Result<()> {
        self.crc.update(b);
        self.out.write_all(b)
    }

    pub(super) fn u64(&mut self, v: u64) -> io::Result<()> {
        self.bytes(&v.to_le_bytes())
    }

    /// Writes the CRC-32 of everything written so far (not itself counted) and returns the writer.
    pub(super) fn seal(mut self) -> io::Result<W> {
        let crc = self.crc.clone().finalize();
        self.out.write_all(&crc.to_le_bytes())?;
        Ok(self.out)
    }

    /// A table: its length, then each key and value.
    pub(super) fn map<V: Field>(&mut self, map: &PositionMap<V>) -> io::Result<()> {
        self.u64(map.len() as u64)?;
        for (k, v) in map {
            self.bytes(&[u8::from(k.0 & TOP != 0)])?;
            (k.0 & !TOP).put(self)?;
            k.1.put(self)?;
            v.put(self)?;
        }
        Ok(())
    }
}

impl<R: Read> Dec<R> {
    /// A reader for a board of `cells` cells.
    pub(super) fn new(input: R, cells: usize) -> Dec<R> {
        let all = if cells >= 128 { !0 } else { (1 << cells) - 1 };
        Dec { input, width: width(cells), all, crc: crc32fast::Hasher::new() }
    }

    fn bytes<const N: usize>(&mut self) -> io::Result<[u8; N]> {
        let mut b = [0; N];
        self.input.read_exact(&mut b)?;
        self.crc.update(&b);
        Ok(b)
    }

    pub(super) fn u64(&mut self) -> io::Result<u64> {
        self.bytes().map(u64::from_le_bytes)
    }

    /// A cell of the board, read as one byte.
    fn cell(&mut self) -> io::Result<u8> {
        let [c] = self.bytes()?;
        if c >= 128 || self.all >> c & 1 == 0 {
            return Err(damaged("a move off the board"));
        }
        Ok(c)
    }

    /// Reads the CRC-32 at the end and compares it with the bytes read; returns the reader.
    pub(super) fn unseal(mut self) -> io::Result<R> {
        let computed = self.crc.clone().finalize();
        let mut b = [0; 4];
        self.input.read_exact(&mut b)?;
        if u32::from_le_bytes(b) != computed {
            return Err(damaged("its checksum does not match its contents"));
        }
        Ok(self.input)
    }

    /// A table written by [`Enc::map`]; `expected`: its length as the file's contents line says.
    pub(super) fn map<V: Field>(&mut self, expected: u64) -> io::Result<PositionMap<V>> {
        if self.u64()? != expected {
            return Err(damaged("a table's length differs from its contents line"));
        }
        let mut map = PositionMap::default();
        map.reserve(usize::try_from(expected).map_err(|_| damaged("a table too long"))?);
        for _ in 0..expected {
            let [mover] = self.bytes()?;
            if mover > 1 {
                return Err(damaged("a key's mover is neither 0 nor 1"));
            }
            let black = Bits::take(self)? | Bits::from(mover) << 127;
            let k = (black, Bits::take(self)?);
            if map.insert(k, V::take(self)?).is_some() {
                return Err(damaged("a position twice in one table"));
            }
        }
        Ok(map)
    }
}

/// A value of the tables, as bytes.
pub(super) trait Field: Sized {
    fn put<W: Write>(&self, e: &mut Enc<W>) -> io::Result<()>;
    fn take<R: Read>(d: &mut Dec<R>) -> io::Result<Self>;
}

impl Field for u8 {
    fn put<W: Write>(&self, e: &mut Enc<W>) -> io::Result<()> {
        e.bytes(&[*self])
    }
    fn take<R: Read>(d: &mut Dec<R>) -> io::Result<Self> {
        d.bytes().map(|[b]| b)
    }
}

impl Field for u32 {
    fn put<W: Write>(&self, e: &mut Enc<W>) -> io::Result<()> {
        e.bytes(&self.to_le_bytes())
    }
    fn take<R: Read>(d: &mut Dec<R>) -> io::Result<Self> {
        d.bytes().map(u32::from_le_bytes)
    }
}

/// A set of board cells (never the mover flag: keys are written by [`Enc::map`]).
impl Field for Bits {
    fn put<W: Write>(&self, e: &mut Enc<W>) -> io::Result<()> {
        let w = e.width;
        e.bytes(&self.to_le_bytes()[..w])
    }
    fn take<R: Read>(d: &mut Dec<R>) -> io::Result<Self> {
        let mut b = [0; 16];
        d.input.read_exact(&mut b[..d.width])?;
        d.crc.update(&b[..d.width]);
        let v = Bits::from_le_bytes(b);
        if v & !d.all != 0 {
            return Err(damaged("a cell set with cells off the board"));
        }
        Ok(v)
    }
}

impl<A: Field, B: Field> Field for (A, B) {
    fn put<W: Write>(&self, e: &mut Enc<W>) -> io::Result<()> {
        self.0.put(e)?;
        self.1.put(e)
    }
    fn take<R: Read>(d: &mut Dec<R>) -> io::Result<Self> {
        Ok((A::take(d)?, B::take(d)?))
    }
}

impl<T: Field> Field for Vec<T> {
    fn put<W: Write>(&self, e: &mut Enc<W>) -> io::Result<()> {
        let n = u32::try_from(self.len()).ok().filter(|&n| n <= MAX_LIST).ok_or_else(|| damaged("a list too long"))?;
        n.put(e)?;
        self.iter().try_for_each(|v| v.put(e))
    }
    fn take<R: Read>(d: &mut Dec<R>) -> io::Result<Self> {
        let n = u32::take(d)?;
        if n > MAX_LIST {
            return Err(damaged("a list too long"));
        }
        (0..n).map(|_| T::take(d)).collect()
    }
}

impl Field for Entry {
    fn put<W: Write>(&self, e: &mut Enc<W>) -> io::Result<()> {
        match *self {
            Entry::WinByMove(c) => {
                let c = u8::try_from(c).map_err(|_| damaged("a move off the board"))?;
                e.bytes(&[0, c])
            }
            Entry::WinByVc(c) => e.bytes(&[1]).and_then(|()| c.put(e)),
            Entry::LossByVc(c) => e.bytes(&[2]).and_then(|()| c.put(e)),
            Entry::LossAll => e.bytes(&[3]),
        }
    }
    fn take<R: Read>(d: &mut Dec<R>) -> io::Result<Self> {
        match u8::take(d)? {
            0 => d.cell().map(|c| Entry::WinByMove(usize::from(c))),
            1 => Bits::take(d).map(Entry::WinByVc),
            2 => Bits::take(d).map(Entry::LossByVc),
            3 => Ok(Entry::LossAll),
            _ => Err(damaged("an unknown table entry")),
        }
    }
}

impl Field for Expanded {
    fn put<W: Write>(&self, e: &mut Enc<W>) -> io::Result<()> {
        self.stones.put(e)?;
        self.moves.put(e)?;
        self.scs.put(e)?;
        self.kills.put(e)?;
        // 0xff: no killer (cells are below 128).
        self.killer.unwrap_or(0xff).put(e)
    }
    fn take<R: Read>(d: &mut Dec<R>) -> io::Result<Self> {
        let stones = Field::take(d)?;
        let n = u32::take(d)?;
        if n > 128 {
            return Err(damaged("a list too long"));
        }
        let moves = (0..n).map(|_| d.cell()).collect::<io::Result<Vec<u8>>>()?;
        let (scs, kills) = (Field::take(d)?, Field::take(d)?);
        let killer = Some(u8::take(d)?).filter(|&c| c != 0xff);
        Ok(Expanded { stones, moves, scs, kills, killer })
    }
}
