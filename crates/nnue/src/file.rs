//! The net file: a small header and the integer weights, little-endian.
//!
//! | field | type |
//! |---|---|
//! | magic `KSNN` | 4 bytes |
//! | format version ([`FORMAT_VERSION`]) | `u16` |
//! | variant name length, then the name ([`Variant::NAME`]) | `u8`, bytes |
//! | feature count ([`crate::Layout::features`]) | `u32` |
//! | hidden size `H` (1 to [`MAX_HIDDEN`]) | `u16` |
//! | `qa` (1 to 255), `qb` (at least 1), scale in centipawns (at least 1) | `u16` each |
//! | transformer biases | `H` x `i16` |
//! | transformer weights, by feature then unit | `F * H` x `i16` |
//! | output weights: side to move's half, then the other's | `2H` x `i16` |
//! | output bias | `i32` |
//! | FNV-1a 64 checksum of every byte before it | `u64` |

use crate::features::Layout;
use crate::network::{Network, MAX_HIDDEN};
use core::fmt;
use core::marker::PhantomData;
use kshogi_core::Variant;
use std::sync::OnceLock;

/// The first four bytes of every net file.
pub const MAGIC: [u8; 4] = *b"KSNN";
/// The format version this crate writes and reads.
pub const FORMAT_VERSION: u16 = 1;

/// Why bytes are not a net for a variant; each names the field that is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The data end inside a field.
    Truncated {
        /// The field being read.
        field: &'static str,
        /// Bytes the file has.
        len: usize,
    },
    /// The file does not start with [`MAGIC`].
    BadMagic {
        /// The first bytes found.
        found: Vec<u8>,
    },
    /// A format version this crate does not read.
    Version {
        /// The version in the file.
        found: u16,
        /// The version this crate reads.
        supported: u16,
    },
    /// The net was trained for another variant.
    Variant {
        /// The variant name in the file.
        found: String,
        /// The variant it was loaded for.
        expected: &'static str,
    },
    /// The feature count is not the variant's.
    FeatureCount {
        /// In the file.
        found: u32,
        /// The variant's ([`Layout::features`]).
        expected: usize,
    },
    /// A header field out of its range.
    Field {
        /// The field's name.
        field: &'static str,
        /// Its value.
        value: u32,
        /// The range it must lie in, in words.
        allowed: &'static str,
    },
    /// Bytes after the checksum.
    TrailingBytes {
        /// How many.
        extra: usize,
    },
    /// The checksum does not match the contents.
    Checksum {
        /// Stored in the file.
        stored: u64,
        /// Computed from the contents.
        computed: u64,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Truncated { field, len } => {
                write!(
                    f,
                    "net file ends inside the {field} field ({len} bytes in all)"
                )
            }
            NetError::BadMagic { found } => write!(
                f,
                "not a kshogi net file: it starts with {found:02x?}, not \"KSNN\""
            ),
            NetError::Version { found, supported } => write!(
                f,
                "net file format version {found} is not supported (this build reads version \
                 {supported})"
            ),
            NetError::Variant { found, expected } => {
                write!(f, "the net is for variant '{found}', not '{expected}'")
            }
            NetError::FeatureCount { found, expected } => write!(
                f,
                "the net has {found} input features, but the variant has {expected}"
            ),
            NetError::Field {
                field,
                value,
                allowed,
            } => write!(
                f,
                "net header field {field} is {value}; it must be {allowed}"
            ),
            NetError::TrailingBytes { extra } => {
                write!(f, "net file has {extra} bytes after its checksum")
            }
            NetError::Checksum { stored, computed } => write!(
                f,
                "net file checksum is {stored:016x} but its contents give {computed:016x}: the \
                 file is damaged"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64 bits: the file's checksum (detects damage, not tampering).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], NetError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(NetError::Truncated {
                field,
                len: self.bytes.len(),
            });
        };
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn u16(&mut self, field: &'static str) -> Result<u16, NetError> {
        let b = self.take(2, field)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, field: &'static str) -> Result<u32, NetError> {
        let b = self.take(4, field)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16s(&mut self, n: usize, field: &'static str) -> Result<Vec<i16>, NetError> {
        let len = n.checked_mul(2).ok_or(NetError::Truncated {
            field,
            len: self.bytes.len(),
        })?;
        let b = self.take(len, field)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

fn in_range(
    field: &'static str,
    value: u32,
    lo: u32,
    hi: u32,
    allowed: &'static str,
) -> Result<(), NetError> {
    if value < lo || value > hi {
        return Err(NetError::Field {
            field,
            value,
            allowed,
        });
    }
    Ok(())
}

impl<V: Variant> Network<V> {
    /// Reads a net for `V` from the bytes of a net file, checking every field (see the
    /// [module documentation](self)).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network<V>, NetError> {
        let mut r = Reader { bytes, pos: 0 };
        let magic = r.take(4, "magic").map_err(|_| NetError::BadMagic {
            found: bytes[..bytes.len().min(4)].to_vec(),
        })?;
        if magic != MAGIC {
            return Err(NetError::BadMagic {
                found: magic.to_vec(),
            });
        }
        let version = r.u16("format version")?;
        if version != FORMAT_VERSION {
            return Err(NetError::Version {
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let name_len = r.take(1, "variant name length")?[0] as usize;
        let name = r.take(name_len, "variant name")?;
        if name != V::NAME.as_bytes() {
            return Err(NetError::Variant {
                found: String::from_utf8_lossy(name).into_owned(),
                expected: V::NAME,
            });
        }
        let layout = Layout::of::<V>();
        let features = r.u32("feature count")?;
        if features as usize != layout.features() {
            return Err(NetError::FeatureCount {
                found: features,
                expected: layout.features(),
            });
        }
        let hidden = r.u16("hidden size")?;
        in_range(
            "hidden size",
            hidden.into(),
            1,
            MAX_HIDDEN as u32,
            "from 1 to 128",
        )?;
        let qa = r.u16("qa")?;
        in_range("qa", qa.into(), 1, 255, "from 1 to 255")?;
        let qb = r.u16("qb")?;
        in_range("qb", qb.into(), 1, i16::MAX as u32, "from 1 to 32767")?;
        let scale = r.u16("scale")?;
        in_range("scale", scale.into(), 1, u16::MAX.into(), "at least 1")?;
        let h = hidden as usize;
        let ft_bias = r.i16s(h, "transformer biases")?;
        let ft_weights = r.i16s(layout.features() * h, "transformer weights")?;
        let out_weights = r.i16s(2 * h, "output weights")?;
        let b = r.take(4, "output bias")?;
        let out_bias = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let body = r.pos;
        let b = r.take(8, "checksum")?;
        let stored = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        if r.pos != bytes.len() {
            return Err(NetError::TrailingBytes {
                extra: bytes.len() - r.pos,
            });
        }
        let computed = fnv1a(&bytes[..body]);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        Ok(Network {
            layout,
            hidden: h,
            qa: qa as i16,
            qb: qb as i16,
            scale,
            ft_bias,
            ft_weights,
            out_weights,
            out_bias,
            _v: PhantomData,
        })
    }

    /// The bytes of the net file of this net.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 2 * self.ft_weights.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(V::NAME.len() as u8);
        out.extend_from_slice(V::NAME.as_bytes());
        out.extend_from_slice(&(self.layout.features() as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u16).to_le_bytes());
        out.extend_from_slice(&(self.qa as u16).to_le_bytes());
        out.extend_from_slice(&(self.qb as u16).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        for w in self
            .ft_bias
            .iter()
            .chain(&self.ft_weights)
            .chain(&self.out_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The net in `bytes` (typically a file embedded with `include_bytes!`), read and
    /// checked once: the first call parses it into `cell`, later calls return it. An error
    /// is returned on every call while the bytes are not a valid net for `V`.
    pub fn embedded(
        cell: &'static OnceLock<Network<V>>,
        bytes: &'static [u8],
    ) -> Result<&'static Network<V>, NetError> {
        if let Some(net) = cell.get() {
            return Ok(net);
        }
        let net = Network::from_bytes(bytes)?;
        // Another thread may have won the race; both parsed the same bytes.
        Ok(cell.get_or_init(|| net))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::FloatNet;
    use kshogi_core::Position;
    use kshogi_rules_micro::Micro;
    use kshogi_rules_minishogi::Minishogi;

    fn net() -> Network<Minishogi> {
        FloatNet::new(Layout::of::<Minishogi>().features(), 8, 1)
            .quantise(250)
            .expect("valid")
    }

    /// The file with the checksum recomputed after `edit`, so that only the edited field
    /// is wrong.
    fn edited(edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
        let mut b = net().to_bytes();
        b.truncate(b.len() - 8);
        edit(&mut b);
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    #[test]
    fn a_net_reads_back_as_written() {
        let n = net();
        let bytes = n.to_bytes();
        // Header: 4 + 2 + 1 + 9 ("minishogi") + 4 + 4 * 2 = 28 bytes; then 8 biases,
        // 520 * 8 weights and 16 output weights of 2 bytes, a 4-byte bias, an 8-byte sum.
        assert_eq!(bytes.len(), 28 + 2 * (8 + 520 * 8 + 16) + 4 + 8);
        let back = Network::<Minishogi>::from_bytes(&bytes).expect("reads");
        assert_eq!(back, n);
        let pos = Position::<Minishogi>::start();
        assert_eq!(back.evaluate_position(&pos), n.evaluate_position(&pos));
    }

    #[test]
    fn every_bad_field_is_named() {
        let r = |b: &[u8]| Network::<Minishogi>::from_bytes(b).unwrap_err();
        assert_eq!(
            r(b"KS"),
            NetError::BadMagic {
                found: b"KS".to_vec()
            }
        );
        assert_eq!(
            r(b"GIF89a.."),
            NetError::BadMagic {
                found: b"GIF8".to_vec()
            }
        );
        assert_eq!(
            r(&edited(|b| b[4] = 9)),
            NetError::Version {
                found: 9,
                supported: 1
            }
        );
        // Byte 16 is the first byte of the feature count (after "minishogi").
        assert_eq!(
            r(&edited(|b| b[16] = 7)),
            NetError::FeatureCount {
                found: 520 - 8 + 7,
                expected: 520
            }
        );
        // Bytes 20-21: the hidden size; 22-23: qa; 24-25: qb; 26-27: the scale.
        let field = |at: usize, v: u16| match r(&edited(|b| {
            b[at..at + 2].copy_from_slice(&v.to_le_bytes())
        })) {
            NetError::Field { field, value, .. } => (field, value),
            e => panic!("{e}"),
        };
        assert_eq!(field(20, 0), ("hidden size", 0));
        assert_eq!(field(20, 129), ("hidden size", 129));
        assert_eq!(field(22, 256), ("qa", 256));
        assert_eq!(field(24, 0), ("qb", 0));
        assert_eq!(field(26, 0), ("scale", 0));
        let good = net().to_bytes();
        let cut = &good[..good.len() - 100];
        assert_eq!(
            r(cut),
            NetError::Truncated {
                field: "transformer weights",
                len: cut.len()
            }
        );
        let mut long = good.clone();
        long.push(0);
        assert_eq!(r(&long), NetError::TrailingBytes { extra: 1 });
        let mut damaged = good.clone();
        damaged[40] ^= 1;
        assert!(matches!(r(&damaged), NetError::Checksum { .. }));
        assert_eq!(
            Network::<Micro>::from_bytes(&good).unwrap_err(),
            NetError::Variant {
                found: "minishogi".into(),
                expected: "micro"
            }
        );
        assert_eq!(
            Network::<Micro>::from_bytes(&good).unwrap_err().to_string(),
            "the net is for variant 'minishogi', not 'micro'"
        );
    }

    #[test]
    fn an_embedded_net_is_read_once() {
        static CELL: OnceLock<Network<Minishogi>> = OnceLock::new();
        let bytes: &'static [u8] = Box::leak(net().to_bytes().into_boxed_slice());
        let a = Network::embedded(&CELL, bytes).expect("valid");
        let b = Network::embedded(&CELL, bytes).expect("valid");
        assert!(std::ptr::eq(a, b), "the second call returns the parsed net");
        static BAD: OnceLock<Network<Minishogi>> = OnceLock::new();
        assert!(Network::embedded(&BAD, b"KSNN").is_err());
        assert!(BAD.get().is_none());
    }
}
