//! The database file, and looking positions up.
//!
//! # Format (version 2, all integers little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `KSHOGIDB` |
//! | 4 | format version (2) |
//! | 4 | header length in bytes (to the end of the header checksum) |
//! | 16 | variant name ([`Variant::NAME`]), zero-padded |
//! | 4 | index scheme version ([`Indexed::SCHEME`]) |
//! | 4 | index scope, the whole game or a sub-game ([`Indexed::scope`]) |
//! | 4 | bytes per entry (1 or 2) |
//! | 8 | entries |
//! | 4 | entries per block |
//! | 4 | blocks |
//! | 6 x 8 | wins, losses, draws, entries that hold no position, longest win, longest loss |
//! | 16 per block | offset in the file (8), compressed length (4), CRC-32 of the block's entries (4) |
//! | 4 | CRC-32 of everything above |
//!
//! Then the blocks, each a zlib stream of its entries ([`crate::value::encode`]). Opening
//! checks the magic, the format version, that the file holds the whole header and the
//! header checksum, then that the file is for the variant, index scheme and a scope of the
//! index it is opened with and that the index has the stated size, and that the file is
//! exactly as long as the blocks say; every block read is checked against its checksum. A
//! damaged or truncated file, or a file of another variant or version, gives a [`DbError`],
//! never a value. Version 1 (Kinzoku only, before the generic solver) is refused with a
//! message saying to rebuild the file.

use crate::generic::{outcome_value, Indexed, Table};
use crate::value::{decode, encode, Entry, Value};
use kshogi_core::{Move, Position, Variant};
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Magic bytes at the start of a database file.
pub const MAGIC: &[u8; 8] = b"KSHOGIDB";
/// The file format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 2;
/// Entries per block.
pub const BLOCK_ENTRIES: u32 = 1 << 16;
/// Bytes of the header before the block table.
const FIXED_HEADER: usize = 8 + 4 + 4 + 16 + 4 + 4 + 4 + 8 + 4 + 4 + 6 * 8;
/// Bytes of the variant name field.
const NAME_BYTES: usize = 16;

/// Why a database cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// The file is not a kshogi database, or of another version or variant, or damaged.
    #[error("{path}: not a usable database: {why}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: Unusable,
    },
    /// The database says a valid position is no position: the file does not match these
    /// rules.
    #[error("the database does not know this position; it was built for other rules")]
    Inconsistent,
}

/// What makes a file no usable database: not one, of another format, variant or index, or
/// damaged (cut short, padded, a checksum that does not match).
#[derive(Debug, thiserror::Error)]
pub enum Unusable {
    /// The file is shorter than the start of any header.
    #[error("the file is {len} bytes long, shorter than a header (truncated?)")]
    TooShort {
        /// The file's length in bytes.
        len: u64,
    },
    /// The file does not start with [`MAGIC`].
    #[error("it does not start with KSHOGIDB")]
    NotADatabase,
    /// Another version of the format.
    #[error("format version {found}; this kshogi reads version {reads} only")]
    Version {
        /// The file's version.
        found: u32,
        /// The version this build reads ([`FORMAT_VERSION`]).
        reads: u32,
    },
    /// The file ends inside the fixed part of its header.
    #[error("the file is {len} bytes long, shorter than a header: truncated")]
    HeaderCut {
        /// The file's length in bytes.
        len: u64,
    },
    /// The header's length does not fit its number of blocks.
    #[error("the header says it is {says} bytes long; {blocks} blocks need {needs}")]
    HeaderLength {
        /// The length the header states.
        says: u64,
        /// The blocks it states.
        blocks: u64,
        /// The length those blocks need.
        needs: u64,
    },
    /// The file ends inside its block table.
    #[error(
        "the file is {len} bytes long, shorter than its own header ({header} bytes): truncated"
    )]
    ShorterThanHeader {
        /// The file's length in bytes.
        len: u64,
        /// The header's length.
        header: u64,
    },
    /// The header's checksum does not match.
    #[error("the header checksum does not match")]
    HeaderChecksum,
    /// A database of another variant.
    #[error("it is a database of `{found}`, not of `{want}`")]
    OtherVariant {
        /// The variant the file names.
        found: String,
        /// The variant it was opened for.
        want: &'static str,
    },
    /// Positions numbered by another index scheme.
    #[error("index scheme {found}; this kshogi numbers {variant} positions by scheme {scheme}")]
    Scheme {
        /// The file's scheme.
        found: u32,
        /// The variant.
        variant: &'static str,
        /// The scheme of this build.
        scheme: u32,
    },
    /// A scope the variant's index does not have.
    #[error("scope {scope} is no part of {variant}")]
    Scope {
        /// The file's scope.
        scope: u32,
        /// The variant.
        variant: &'static str,
    },
    /// The entry width or block size is out of range.
    #[error("the header's sizes are out of range")]
    Sizes,
    /// The entries and blocks do not fit the index.
    #[error("{entries} entries in {blocks} blocks do not fit the index ({index} entries)")]
    Entries {
        /// The entries the header states.
        entries: u64,
        /// The blocks it states.
        blocks: u64,
        /// The entries of the index.
        index: u64,
    },
    /// A block does not start where the one before it ends.
    #[error("block {block} is not where the header says")]
    BlockPlace {
        /// The block's number, from 0.
        block: u64,
    },
    /// The file is longer or shorter than its blocks.
    #[error("the file is {len} bytes long, but its blocks need {needs} (truncated or padded)")]
    Length {
        /// The file's length in bytes.
        len: u64,
        /// The length the header and its blocks need.
        needs: u64,
    },
    /// A block does not decompress.
    #[error("block {block} does not decompress: {source}")]
    Decompress {
        /// The block's number, from 0.
        block: u32,
        /// The decompressor's error.
        source: io::Error,
    },
    /// A block decompresses to the wrong length.
    #[error("block {block} holds {found} bytes, expected {expected}")]
    BlockLength {
        /// The block's number, from 0.
        block: u32,
        /// The bytes it holds.
        found: usize,
        /// The bytes it should hold.
        expected: usize,
    },
    /// A block's checksum does not match.
    #[error("block {block} fails its checksum")]
    BlockChecksum {
        /// The block's number, from 0.
        block: u32,
    },
}

/// Counts stored in a database header.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Valid positions won by the side to move.
    pub wins: u64,
    /// Valid positions lost by the side to move.
    pub losses: u64,
    /// Valid positions drawn.
    pub draws: u64,
    /// Entries that hold no position.
    pub illegal: u64,
    /// Longest win in plies.
    pub longest_win: u64,
    /// Longest loss in plies.
    pub longest_loss: u64,
}

/// Something that knows the value of every position of an index: a solved table in
/// memory, a database file, or a whole file loaded into memory.
pub trait Probe: Sync {
    /// The index.
    type I: Indexed;

    /// The index.
    fn index(&self) -> &Self::I;

    /// The entry at an index.
    fn entry(&self, index: u64) -> Result<Entry, DbError>;

    /// The value of a position for its side to move; `Ok(None)` when the index does not
    /// cover it (a sub-game). A finished game without an entry (the Dobutsu lion captured)
    /// has the value of its outcome.
    #[allow(clippy::type_complexity)]
    fn value(&self, pos: &Position<<Self::I as Indexed>::V>) -> Result<Option<Value>, DbError> {
        let Some(i) = self.index().index_any(pos) else {
            return Ok(pos.outcome().map(|o| outcome_value(pos, o)));
        };
        match self.entry(i)? {
            Entry::Illegal => Err(DbError::Inconsistent),
            Entry::Value(v) => Ok(Some(v)),
        }
    }

    /// The value of a position and of each of its legal moves, for the side to move, best
    /// first (then in generation order); `Ok(None)` when the index does not cover it or one
    /// of its successors.
    #[allow(clippy::type_complexity)]
    fn moves(
        &self,
        pos: &Position<<Self::I as Indexed>::V>,
    ) -> Result<Option<(Value, Vec<(Move, Value)>)>, DbError> {
        let Some(v) = self.value(pos)? else {
            return Ok(None);
        };
        let mut out = Vec::new();
        for m in pos.legal_moves().iter() {
            let Some(after) = self.value(&pos.after(*m))? else {
                return Ok(None);
            };
            out.push((*m, after.back()));
        }
        out.sort_by_key(|&(_, mv)| -mv.rank());
        Ok(Some((v, out)))
    }
}

impl<I: Indexed> Probe for Table<I> {
    type I = I;

    fn index(&self) -> &I {
        Table::index(self)
    }

    fn entry(&self, index: u64) -> Result<Entry, DbError> {
        Ok(Table::entry(self, index))
    }
}

/// A whole database file in memory, checked (see [`Database::load_all`]).
pub struct Loaded<I: Indexed> {
    index: I,
    width: usize,
    data: Vec<u8>,
}

impl<I: Indexed> Loaded<I> {
    /// The entry at an index (a loaded file cannot fail).
    pub fn entry(&self, index: u64) -> Entry {
        let i = index as usize;
        let code = if self.width == 1 {
            self.data[i] as u16
        } else {
            u16::from_le_bytes([self.data[2 * i], self.data[2 * i + 1]])
        };
        decode(code)
    }

    /// The value of a position for its side to move, or `None` when the index does not
    /// cover it or its entry holds no position (see [`Probe::value`]).
    pub fn value(&self, pos: &Position<I::V>) -> Option<Value> {
        Probe::value(self, pos).ok().flatten()
    }
}

impl<I: Indexed> Probe for Loaded<I> {
    type I = I;

    fn index(&self) -> &I {
        &self.index
    }

    fn entry(&self, index: u64) -> Result<Entry, DbError> {
        Ok(Loaded::entry(self, index))
    }
}

struct BlockRef {
    offset: u64,
    len: u32,
    crc: u32,
}

/// An open database file of the index `I`. Blocks are read on demand and kept in a small
/// cache.
pub struct Database<I: Indexed> {
    path: PathBuf,
    index: I,
    width: usize,
    entries: u64,
    blocks: Vec<BlockRef>,
    summary: Summary,
    file: Mutex<File>,
    cache: Mutex<HashMap<u32, Arc<Vec<u8>>>>,
}

const CACHE_BLOCKS: usize = 256;

fn le_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

/// The first fields of a file, checked: its length, the format version and the variant
/// name.
struct Front {
    file: File,
    file_len: u64,
    head: Vec<u8>,
    name: String,
}

fn bad(path: &Path, why: Unusable) -> DbError {
    DbError::Bad {
        path: path.to_path_buf(),
        why,
    }
}

fn read_front(path: &Path) -> Result<Front, DbError> {
    let io = |source| DbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = File::open(path).map_err(io)?;
    let file_len = file.metadata().map_err(io)?.len();
    if file_len < 12 {
        return Err(bad(path, Unusable::TooShort { len: file_len }));
    }
    let mut head = vec![0u8; FIXED_HEADER.min(file_len as usize)];
    file.read_exact(&mut head).map_err(io)?;
    if &head[0..8] != MAGIC {
        return Err(bad(path, Unusable::NotADatabase));
    }
    let version = le_u32(&head, 8);
    if version != FORMAT_VERSION {
        return Err(bad(
            path,
            Unusable::Version {
                found: version,
                reads: FORMAT_VERSION,
            },
        ));
    }
    if head.len() < FIXED_HEADER {
        return Err(bad(path, Unusable::HeaderCut { len: file_len }));
    }
    let field = &head[16..16 + NAME_BYTES];
    let name_end = field.iter().position(|&b| b == 0).unwrap_or(NAME_BYTES);
    let name = String::from_utf8_lossy(&field[..name_end]).into_owned();
    Ok(Front {
        file,
        file_len,
        head,
        name,
    })
}

/// The variant name ([`Variant::NAME`]) a database file says it is for, read from its
/// header without checking the rest: to choose the index to open it with.
pub fn variant_of(path: &Path) -> Result<String, DbError> {
    read_front(path).map(|f| f.name)
}

impl<I: Indexed> Database<I> {
    /// Opens and checks a database file of the variant of `I`, for the scope the file
    /// states.
    pub fn open(path: &Path) -> Result<Database<I>, DbError> {
        let io = |source| DbError::Io {
            path: path.to_path_buf(),
            source,
        };
        let bad = |why: Unusable| bad(path, why);
        let Front {
            mut file,
            file_len,
            head,
            name,
        } = read_front(path)?;
        let header_len = le_u32(&head, 12) as u64;
        let nblocks = le_u32(&head, 56) as u64;
        let expect_header = FIXED_HEADER as u64 + 16 * nblocks + 4;
        if header_len != expect_header {
            return Err(bad(Unusable::HeaderLength {
                says: header_len,
                blocks: nblocks,
                needs: expect_header,
            }));
        }
        if header_len > file_len {
            return Err(bad(Unusable::ShorterThanHeader {
                len: file_len,
                header: header_len,
            }));
        }
        let mut rest = vec![0u8; (header_len as usize) - FIXED_HEADER];
        file.read_exact(&mut rest).map_err(io)?;
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&head);
        hasher.update(&rest[..rest.len() - 4]);
        if hasher.finalize() != le_u32(&rest, rest.len() - 4) {
            return Err(bad(Unusable::HeaderChecksum));
        }
        let want = <I::V as Variant>::NAME;
        if name != want {
            return Err(bad(Unusable::OtherVariant { found: name, want }));
        }
        let scheme = le_u32(&head, 32);
        let scope = le_u32(&head, 36);
        let width = le_u32(&head, 40) as usize;
        let entries = le_u64(&head, 44);
        let block_entries = le_u32(&head, 52);
        if scheme != I::SCHEME {
            return Err(bad(Unusable::Scheme {
                found: scheme,
                variant: want,
                scheme: I::SCHEME,
            }));
        }
        let Some(index) = I::with_scope(scope) else {
            return Err(bad(Unusable::Scope {
                scope,
                variant: want,
            }));
        };
        if !(width == 1 || width == 2) || block_entries != BLOCK_ENTRIES {
            return Err(bad(Unusable::Sizes));
        }
        if index.len() != entries || nblocks != entries.div_ceil(BLOCK_ENTRIES as u64) {
            return Err(bad(Unusable::Entries {
                entries,
                blocks: nblocks,
                index: index.len(),
            }));
        }
        let mut blocks = Vec::with_capacity(nblocks as usize);
        let mut expect_offset = header_len;
        for b in 0..nblocks as usize {
            let at = 16 * b;
            let r = BlockRef {
                offset: le_u64(&rest, at),
                len: le_u32(&rest, at + 8),
                crc: le_u32(&rest, at + 12),
            };
            if r.offset != expect_offset {
                return Err(bad(Unusable::BlockPlace { block: b as u64 }));
            }
            expect_offset += r.len as u64;
            blocks.push(r);
        }
        if expect_offset != file_len {
            return Err(bad(Unusable::Length {
                len: file_len,
                needs: expect_offset,
            }));
        }
        let summary = Summary {
            wins: le_u64(&head, 60),
            losses: le_u64(&head, 68),
            draws: le_u64(&head, 76),
            illegal: le_u64(&head, 84),
            longest_win: le_u64(&head, 92),
            longest_loss: le_u64(&head, 100),
        };
        Ok(Database {
            path: path.to_path_buf(),
            index,
            width,
            entries,
            blocks,
            summary,
            file: Mutex::new(file),
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Counts stored in the header.
    pub fn summary(&self) -> Summary {
        self.summary
    }

    /// Bytes per entry before compression.
    pub fn width(&self) -> usize {
        self.width
    }

    fn block(&self, b: u32) -> Result<Arc<Vec<u8>>, DbError> {
        if let Some(x) = self.cache.lock().expect("no panics").get(&b) {
            return Ok(x.clone());
        }
        let r = &self.blocks[b as usize];
        let mut raw = vec![0u8; r.len as usize];
        {
            let mut f = self.file.lock().expect("no panics");
            let io = |source| DbError::Io {
                path: self.path.clone(),
                source,
            };
            f.seek(SeekFrom::Start(r.offset)).map_err(io)?;
            f.read_exact(&mut raw).map_err(io)?;
        }
        let data = self.unpack(b, &raw)?;
        let data = Arc::new(data);
        let mut cache = self.cache.lock().expect("no panics");
        if cache.len() >= CACHE_BLOCKS {
            cache.clear();
        }
        cache.insert(b, data.clone());
        Ok(data)
    }

    fn block_len(&self, b: u32) -> usize {
        let first = b as u64 * BLOCK_ENTRIES as u64;
        ((self.entries - first).min(BLOCK_ENTRIES as u64) as usize) * self.width
    }

    fn unpack(&self, b: u32, raw: &[u8]) -> Result<Vec<u8>, DbError> {
        let bad = |why: Unusable| bad(&self.path, why);
        let want = self.block_len(b);
        let mut data = Vec::with_capacity(want);
        let mut z = flate2::read::ZlibDecoder::new(raw);
        z.by_ref()
            .take(want as u64 + 1)
            .read_to_end(&mut data)
            .map_err(|source| bad(Unusable::Decompress { block: b, source }))?;
        if data.len() != want {
            return Err(bad(Unusable::BlockLength {
                block: b,
                found: data.len(),
                expected: want,
            }));
        }
        if crc32fast::hash(&data) != self.blocks[b as usize].crc {
            return Err(bad(Unusable::BlockChecksum { block: b }));
        }
        Ok(data)
    }

    /// Reads and checks every block, and returns the whole table in memory; `progress` is
    /// called with the blocks done and the total.
    pub fn load_all(&self, progress: &dyn Fn(u64, u64)) -> Result<Loaded<I>, DbError>
    where
        I: Clone,
    {
        let mut data = Vec::with_capacity(self.entries as usize * self.width);
        let mut f = self.file.lock().expect("no panics");
        let io = |source| DbError::Io {
            path: self.path.clone(),
            source,
        };
        let n = self.blocks.len() as u64;
        for (b, r) in self.blocks.iter().enumerate() {
            let mut raw = vec![0u8; r.len as usize];
            f.seek(SeekFrom::Start(r.offset)).map_err(io)?;
            f.read_exact(&mut raw).map_err(io)?;
            data.extend_from_slice(&self.unpack(b as u32, &raw)?);
            if b % 256 == 255 {
                progress(b as u64 + 1, n);
            }
        }
        progress(n, n);
        Ok(Loaded {
            index: self.index.clone(),
            width: self.width,
            data,
        })
    }
}

impl<I: Indexed> Probe for Database<I> {
    type I = I;

    fn index(&self) -> &I {
        &self.index
    }

    fn entry(&self, index: u64) -> Result<Entry, DbError> {
        let b = (index / BLOCK_ENTRIES as u64) as u32;
        let i = (index % BLOCK_ENTRIES as u64) as usize;
        let data = self.block(b)?;
        let code = if self.width == 1 {
            data[i] as u16
        } else {
            u16::from_le_bytes([data[2 * i], data[2 * i + 1]])
        };
        Ok(decode(code))
    }
}

/// Sizes of a written file.
#[derive(Copy, Clone, Debug)]
pub struct Written {
    /// Bytes of the file.
    pub bytes: u64,
    /// Bytes per entry before compression.
    pub width: usize,
}

/// How many blocks ahead of the last one written [`write()`] may compress.
pub const WRITE_WINDOW: u64 = 64;

/// Bytes [`write()`] holds at most beyond the table, with `threads` threads: the compressed
/// blocks waiting to be written in order ([`WRITE_WINDOW`]), each thread's raw block and
/// its compressed copy (a zlib stream is at most a little longer than its input), the
/// header, and the file's buffer.
pub fn write_memory(entries: u64, threads: usize) -> u64 {
    let raw = 2 * BLOCK_ENTRIES as u64;
    let packed = raw + raw / 1000 + 1024;
    let nblocks = entries.div_ceil(BLOCK_ENTRIES as u64);
    (WRITE_WINDOW + threads.max(1) as u64) * packed
        + threads.max(1) as u64 * raw
        + 2 * (FIXED_HEADER as u64 + 16 * nblocks + 4)
        + (64 << 10)
}

/// The file [`write()`] is writing, shared by its threads.
struct Sink {
    file: io::BufWriter<File>,
    /// Blocks written so far (the next one to write).
    written: u64,
    /// Compressed blocks (and the CRC-32 of their entries) waiting for their turn.
    pending: HashMap<u64, (Vec<u8>, u32)>,
    /// Offset, compressed length and CRC-32 of each block written.
    blocks: Vec<(u64, u32, u32)>,
    /// Where the next block goes.
    offset: u64,
    /// The first write that failed; the threads stop.
    error: Option<io::Error>,
}

impl Sink {
    /// Writes the waiting blocks that come next in order.
    fn flush_ready(&mut self) {
        while self.error.is_none() {
            let Some((data, crc)) = self.pending.remove(&self.written) else {
                return;
            };
            if let Err(e) = self.file.write_all(&data) {
                self.error = Some(e);
                return;
            }
            self.blocks.push((self.offset, data.len() as u32, crc));
            self.offset += data.len() as u64;
            self.written += 1;
        }
    }
}

/// The temporary file [`write()`] writes beside `path` before renaming it into place.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    PathBuf::from(tmp)
}

/// Writes a solved table to `path`, through a temporary file beside it ([`temp_path`])
/// that is renamed into place at the end, so that a failure never leaves a half-written
/// database. `progress` is called with the blocks done and the total.
pub fn write<I: Indexed>(
    table: &Table<I>,
    path: &Path,
    threads: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Written, DbError> {
    let io = |source| DbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let stats = table.stats();
    let longest = stats.longest_win.0.max(stats.longest_loss.0);
    let width = if 3 + 2 * (longest as u32) <= 255 {
        1
    } else {
        2
    };
    let index = table.index();
    let entries = index.len();
    let nblocks = entries.div_ceil(BLOCK_ENTRIES as u64);
    let header_len = FIXED_HEADER as u64 + 16 * nblocks + 4;

    // The blocks are compressed by the threads and written in order behind room left for
    // the header, which is written last (it holds the blocks' offsets and checksums). A
    // thread does not start a block more than `WRITE_WINDOW` blocks ahead of the last one
    // written, so at most that many compressed blocks wait in memory ([`write_memory`]).
    let tmp = temp_path(path);
    let file = match File::create(&tmp) {
        Ok(f) => f,
        Err(e) => return Err(io(e)),
    };
    let sink = Mutex::new(Sink {
        file: io::BufWriter::new(file),
        written: 0,
        pending: HashMap::new(),
        blocks: Vec::with_capacity(nblocks as usize),
        offset: header_len,
        error: None,
    });
    let advanced = Condvar::new();
    let result = (|| -> io::Result<u64> {
        sink.lock()
            .expect("no panics")
            .file
            .write_all(&vec![0u8; header_len as usize])?;
        let next = AtomicU64::new(0);
        let done = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| loop {
                    let b = next.fetch_add(1, Ordering::Relaxed);
                    if b >= nblocks {
                        break;
                    }
                    {
                        let mut g = sink.lock().expect("no panics");
                        while b >= g.written + WRITE_WINDOW && g.error.is_none() {
                            g = advanced.wait(g).expect("no panics");
                        }
                        if g.error.is_some() {
                            break;
                        }
                    }
                    let lo = b * BLOCK_ENTRIES as u64;
                    let hi = (lo + BLOCK_ENTRIES as u64).min(entries);
                    let mut raw = Vec::with_capacity((hi - lo) as usize * width);
                    for i in lo..hi {
                        let code = encode(table.entry(i));
                        if width == 1 {
                            raw.push(code as u8);
                        } else {
                            raw.extend_from_slice(&code.to_le_bytes());
                        }
                    }
                    let crc = crc32fast::hash(&raw);
                    let mut z =
                        flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
                    z.write_all(&raw).expect("writing to memory");
                    let packed = z.finish().expect("writing to memory");
                    drop(raw);
                    let mut g = sink.lock().expect("no panics");
                    g.pending.insert(b, (packed, crc));
                    g.flush_ready();
                    advanced.notify_all();
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    drop(g);
                    progress(d, nblocks);
                });
            }
        });
        let mut g = sink.into_inner().expect("no panics");
        if let Some(e) = g.error.take() {
            return Err(e);
        }
        debug_assert_eq!(g.written, nblocks);

        let mut head = Vec::with_capacity(header_len as usize);
        head.extend_from_slice(MAGIC);
        head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        head.extend_from_slice(&(header_len as u32).to_le_bytes());
        let name = <I::V as Variant>::NAME.as_bytes();
        assert!(name.len() <= NAME_BYTES, "variant names fit the header");
        let mut field = [0u8; NAME_BYTES];
        field[..name.len()].copy_from_slice(name);
        head.extend_from_slice(&field);
        head.extend_from_slice(&I::SCHEME.to_le_bytes());
        head.extend_from_slice(&index.scope().to_le_bytes());
        head.extend_from_slice(&(width as u32).to_le_bytes());
        head.extend_from_slice(&entries.to_le_bytes());
        head.extend_from_slice(&BLOCK_ENTRIES.to_le_bytes());
        head.extend_from_slice(&(nblocks as u32).to_le_bytes());
        for x in [
            stats.wins,
            stats.losses,
            stats.draws,
            stats.illegal,
            stats.longest_win.0 as u64,
            stats.longest_loss.0 as u64,
        ] {
            head.extend_from_slice(&x.to_le_bytes());
        }
        debug_assert_eq!(head.len(), FIXED_HEADER);
        for &(offset, len, crc) in &g.blocks {
            head.extend_from_slice(&offset.to_le_bytes());
            head.extend_from_slice(&len.to_le_bytes());
            head.extend_from_slice(&crc.to_le_bytes());
        }
        let crc = crc32fast::hash(&head);
        head.extend_from_slice(&crc.to_le_bytes());
        debug_assert_eq!(head.len() as u64, header_len);

        let mut f = g.file.into_inner().map_err(|e| e.into_error())?;
        f.seek(SeekFrom::Start(0))?;
        f.write_all(&head)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        Ok(g.offset)
    })();
    let offset = match result {
        Ok(offset) => offset,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(e));
        }
    };
    Ok(Written {
        bytes: offset,
        width,
    })
}

/// An optimal line from `pos`: at each ply one move that keeps the value (the first in
/// generation order among the best), until the game ends (a drawn line ends when a position
/// occurs for the fourth time, or as the rules end a game by repetition), the probe does not
/// cover a position, or `max_plies` moves are played.
#[allow(clippy::type_complexity)]
pub fn optimal_line<P: Probe + ?Sized>(
    probe: &P,
    pos: &Position<<P::I as Indexed>::V>,
    max_plies: usize,
) -> Result<Vec<(Move, Value)>, DbError> {
    let mut line = Vec::new();
    let mut game = kshogi_core::Game::new(*pos);
    while line.len() < max_plies && game.outcome().is_none() {
        let Some((v, moves)) = probe.moves(game.position())? else {
            break;
        };
        let Some(&(m, _)) = moves.iter().find(|&&(_, mv)| mv == v) else {
            break;
        };
        line.push((m, v));
        if game.play(m).is_err() {
            break;
        }
    }
    Ok(line)
}
