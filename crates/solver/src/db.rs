//! The database file, and looking positions up.
//!
//! # Format (version 1, all integers little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `KSHOGIDB` |
//! | 4 | format version (1) |
//! | 4 | header length in bytes (to the end of the header checksum) |
//! | 16 | variant name, `kinzoku`, zero-padded |
//! | 4 | index scheme version ([`crate::index::LAYOUT_VERSION`]) |
//! | 4 | largest number of non-king pieces covered |
//! | 4 | countdown length (5) |
//! | 4 | bytes per entry (1 or 2) |
//! | 8 | entries |
//! | 4 | entries per block |
//! | 4 | blocks |
//! | 5 x 8 | wins, losses, draws, illegal entries, longest win |
//! | 16 per block | offset in the file (8), compressed length (4), CRC-32 of the block's entries (4) |
//! | 4 | CRC-32 of everything above |
//!
//! Then the blocks, each a zlib stream of its entries ([`crate::value::encode`]). Opening
//! checks the magic, the versions, the header checksum, that the layout has the stated size,
//! and that the file is exactly as long as the blocks say; every block read is checked
//! against its checksum. A damaged or truncated file gives a [`DbError`], never a value.

use crate::index::{Compact, Layout, LAYOUT_VERSION};
use crate::retro::Solved;
use crate::value::{decode, encode, Entry, Value};
use kshogi_core::{Move, Position};
use kshogi_rules_kinzoku::{Kinzoku, COUNTDOWN_MOVES};
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Magic bytes at the start of a database file.
pub const MAGIC: &[u8; 8] = b"KSHOGIDB";
/// The file format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Entries per block.
pub const BLOCK_ENTRIES: u32 = 1 << 16;
const FIXED_HEADER: usize = 8 + 4 + 4 + 16 + 4 * 4 + 8 + 4 + 4 + 5 * 8;

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
    #[error("{path}: not a usable Kinzoku database: {why}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The position has more pieces than the database covers.
    #[error("the database covers positions with at most {0} pieces besides the kings")]
    NotCovered(usize),
    /// The database says a valid position is illegal: the file does not match these rules.
    #[error("the database does not know this position; it was built for other rules")]
    Inconsistent,
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
    /// Entries that are not valid positions.
    pub illegal: u64,
    /// Longest win in plies.
    pub longest_win: u64,
}

/// Something that knows the value of every position of a layout: a solved table in memory,
/// or a database file.
pub trait Probe {
    /// The layout.
    fn layout(&self) -> &Layout;

    /// The entry at an index.
    fn entry(&self, index: u64) -> Result<Entry, DbError>;

    /// The value of a position, for its side to move.
    fn value(&self, pos: &Position<Kinzoku>) -> Result<Value, DbError> {
        let c = Compact::from_position(pos);
        let layout = self.layout();
        let Some(i) = layout.index_any(&c) else {
            return Err(DbError::NotCovered(layout.max_pieces()));
        };
        match self.entry(i)? {
            Entry::Illegal => Err(DbError::Inconsistent),
            Entry::Value(v) => Ok(v),
        }
    }

    /// The value of a position and of each of its legal moves, for the side to move, best
    /// first (then in generation order).
    fn moves(&self, pos: &Position<Kinzoku>) -> Result<(Value, Vec<(Move, Value)>), DbError> {
        let v = self.value(pos)?;
        let mut out = Vec::new();
        for m in pos.legal_moves().iter() {
            let after = pos.after(*m);
            out.push((*m, self.value(&after)?.back()));
        }
        out.sort_by_key(|&(_, mv)| -mv.rank());
        Ok((v, out))
    }

    /// The moves that keep the value of the position (all optimal moves).
    fn best_moves(&self, pos: &Position<Kinzoku>) -> Result<(Value, Vec<Move>), DbError> {
        let (v, moves) = self.moves(pos)?;
        let best = moves
            .iter()
            .filter(|&&(_, mv)| mv == v)
            .map(|&(m, _)| m)
            .collect();
        Ok((v, best))
    }
}

impl Probe for Solved {
    fn layout(&self) -> &Layout {
        Solved::layout(self)
    }

    fn entry(&self, index: u64) -> Result<Entry, DbError> {
        Ok(Solved::entry(self, index))
    }
}

/// A whole table of file codes in memory (see [`Database::load_all`]).
pub struct Table {
    layout: Layout,
    width: usize,
    data: Vec<u8>,
}

impl Probe for Table {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn entry(&self, index: u64) -> Result<Entry, DbError> {
        let i = index as usize;
        let code = if self.width == 1 {
            self.data[i] as u16
        } else {
            u16::from_le_bytes([self.data[2 * i], self.data[2 * i + 1]])
        };
        Ok(decode(code))
    }
}

struct BlockRef {
    offset: u64,
    len: u32,
    crc: u32,
}

/// An open database file. Blocks are read on demand and kept in a small cache.
pub struct Database {
    path: PathBuf,
    layout: Layout,
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

impl Database {
    /// Opens and checks a database file.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        let io = |source| DbError::Io {
            path: path.to_path_buf(),
            source,
        };
        let bad = |why: String| DbError::Bad {
            path: path.to_path_buf(),
            why,
        };
        let mut file = File::open(path).map_err(io)?;
        let file_len = file.metadata().map_err(io)?.len();
        let mut head = vec![0u8; FIXED_HEADER];
        if file_len < FIXED_HEADER as u64 {
            return Err(bad(format!(
                "the file is {file_len} bytes long, shorter than a header"
            )));
        }
        file.read_exact(&mut head).map_err(io)?;
        if &head[0..8] != MAGIC {
            return Err(bad("it does not start with KSHOGIDB".into()));
        }
        let version = le_u32(&head, 8);
        if version != FORMAT_VERSION {
            return Err(bad(format!(
                "format version {version}; this kshogi reads version {FORMAT_VERSION}"
            )));
        }
        let header_len = le_u32(&head, 12) as u64;
        let name_end = head[16..32].iter().position(|&b| b == 0).unwrap_or(16);
        let name = String::from_utf8_lossy(&head[16..16 + name_end]).into_owned();
        if name != "kinzoku" {
            return Err(bad(format!("it is a database of `{name}`, not kinzoku")));
        }
        let layout_version = le_u32(&head, 32);
        let max_pieces = le_u32(&head, 36) as usize;
        let countdown = le_u32(&head, 40);
        let width = le_u32(&head, 44) as usize;
        let entries = le_u64(&head, 48);
        let block_entries = le_u32(&head, 56);
        let nblocks = le_u32(&head, 60) as u64;
        if layout_version != LAYOUT_VERSION {
            return Err(bad(format!(
                "index scheme {layout_version}; this kshogi uses {LAYOUT_VERSION}"
            )));
        }
        if countdown != COUNTDOWN_MOVES as u32 {
            return Err(bad(format!("built for a countdown of {countdown} moves")));
        }
        if max_pieces > 6 || !(width == 1 || width == 2) || block_entries != BLOCK_ENTRIES {
            return Err(bad("the header's sizes are out of range".into()));
        }
        let expect_header = FIXED_HEADER as u64 + 16 * nblocks + 4;
        if header_len != expect_header {
            return Err(bad(format!(
                "the header says it is {header_len} bytes long; {nblocks} blocks need {expect_header}"
            )));
        }
        if header_len > file_len {
            return Err(bad(format!(
                "the file is {file_len} bytes long, shorter than its own header ({header_len} bytes): truncated"
            )));
        }
        let layout = Layout::new(max_pieces);
        if layout.len() != entries || nblocks != entries.div_ceil(BLOCK_ENTRIES as u64) {
            return Err(bad(format!(
                "{entries} entries in {nblocks} blocks do not fit the index ({} entries)",
                layout.len()
            )));
        }
        let mut rest = vec![0u8; (header_len as usize) - FIXED_HEADER];
        file.read_exact(&mut rest).map_err(io)?;
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&head);
        hasher.update(&rest[..rest.len() - 4]);
        if hasher.finalize() != le_u32(&rest, rest.len() - 4) {
            return Err(bad("the header checksum does not match".into()));
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
                return Err(bad(format!("block {b} is not where the header says")));
            }
            expect_offset += r.len as u64;
            blocks.push(r);
        }
        if expect_offset != file_len {
            return Err(bad(format!(
                "the file is {file_len} bytes long, but its blocks need {expect_offset} (truncated or padded)"
            )));
        }
        let summary = Summary {
            wins: le_u64(&head, 64),
            losses: le_u64(&head, 72),
            draws: le_u64(&head, 80),
            illegal: le_u64(&head, 88),
            longest_win: le_u64(&head, 96),
        };
        Ok(Database {
            path: path.to_path_buf(),
            layout,
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
        let bad = |why: String| DbError::Bad {
            path: self.path.clone(),
            why,
        };
        let want = self.block_len(b);
        let mut data = Vec::with_capacity(want);
        let mut z = flate2::read::ZlibDecoder::new(raw);
        z.by_ref()
            .take(want as u64 + 1)
            .read_to_end(&mut data)
            .map_err(|e| bad(format!("block {b} does not decompress: {e}")))?;
        if data.len() != want {
            return Err(bad(format!(
                "block {b} holds {} bytes, expected {want}",
                data.len()
            )));
        }
        if crc32fast::hash(&data) != self.blocks[b as usize].crc {
            return Err(bad(format!("block {b} fails its checksum")));
        }
        Ok(data)
    }

    /// Reads and checks every block, and returns the whole table in memory.
    pub fn load_all(&self) -> Result<Table, DbError> {
        let mut data = Vec::with_capacity(self.entries as usize * self.width);
        let mut f = self.file.lock().expect("no panics");
        let io = |source| DbError::Io {
            path: self.path.clone(),
            source,
        };
        for (b, r) in self.blocks.iter().enumerate() {
            let mut raw = vec![0u8; r.len as usize];
            f.seek(SeekFrom::Start(r.offset)).map_err(io)?;
            f.read_exact(&mut raw).map_err(io)?;
            data.extend_from_slice(&self.unpack(b as u32, &raw)?);
        }
        Ok(Table {
            layout: self.layout.clone(),
            width: self.width,
            data,
        })
    }
}

impl Probe for Database {
    fn layout(&self) -> &Layout {
        &self.layout
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

/// Writes a solved table to `path`, through a temporary file beside it that is renamed into
/// place at the end, so that a failure never leaves a half-written database. `progress` is
/// called with the blocks done and the total.
pub fn write(
    solved: &Solved,
    path: &Path,
    threads: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Written, DbError> {
    let io = |source| DbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let stats = solved.stats();
    let longest = stats.longest_win.0.max(stats.longest_loss.0);
    let width = if 3 + 2 * (longest as u32) <= 255 {
        1
    } else {
        2
    };
    let entries = solved.layout().len();
    let nblocks = entries.div_ceil(BLOCK_ENTRIES as u64);
    // Each block's compressed bytes and the CRC-32 of its entries, filled in by the threads.
    type Packed = Mutex<Option<(Vec<u8>, u32)>>;
    let packed: Vec<Packed> = (0..nblocks).map(|_| Mutex::new(None)).collect();
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let b = next.fetch_add(1, Ordering::Relaxed);
                if b >= nblocks {
                    break;
                }
                let lo = b * BLOCK_ENTRIES as u64;
                let hi = (lo + BLOCK_ENTRIES as u64).min(entries);
                let mut raw = Vec::with_capacity((hi - lo) as usize * width);
                for i in lo..hi {
                    let code = encode(solved.entry(i));
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
                let packed_block = z.finish().expect("writing to memory");
                *packed[b as usize].lock().expect("no panics") = Some((packed_block, crc));
                let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                progress(d, nblocks);
            });
        }
    });
    let blocks: Vec<(Vec<u8>, u32)> = packed
        .into_iter()
        .map(|m| {
            m.into_inner()
                .expect("no panics")
                .expect("every block packed")
        })
        .collect();

    let header_len = FIXED_HEADER as u64 + 16 * nblocks + 4;
    let mut head = Vec::with_capacity(header_len as usize);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    head.extend_from_slice(&(header_len as u32).to_le_bytes());
    let mut name = [0u8; 16];
    name[..7].copy_from_slice(b"kinzoku");
    head.extend_from_slice(&name);
    head.extend_from_slice(&LAYOUT_VERSION.to_le_bytes());
    head.extend_from_slice(&(solved.layout().max_pieces() as u32).to_le_bytes());
    head.extend_from_slice(&(COUNTDOWN_MOVES as u32).to_le_bytes());
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
    ] {
        head.extend_from_slice(&x.to_le_bytes());
    }
    let mut offset = header_len;
    for (data, crc) in &blocks {
        head.extend_from_slice(&offset.to_le_bytes());
        head.extend_from_slice(&(data.len() as u32).to_le_bytes());
        head.extend_from_slice(&crc.to_le_bytes());
        offset += data.len() as u64;
    }
    let crc = crc32fast::hash(&head);
    head.extend_from_slice(&crc.to_le_bytes());
    debug_assert_eq!(head.len() as u64, header_len);

    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let result = (|| -> io::Result<()> {
        let mut f = io::BufWriter::new(File::create(&tmp)?);
        f.write_all(&head)?;
        for (data, _) in &blocks {
            f.write_all(data)?;
        }
        let f = f.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(Written {
        bytes: offset,
        width,
    })
}
