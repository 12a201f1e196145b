//! KIF (Kakinoki format) game records and board diagrams for the kshogi variants.
//!
//! Reading ([`parse_kif`], [`read_kif`] from bytes) accepts UTF-8 with or without BOM and
//! Shift_JIS ([`decode_kif`]); writing ([`to_kif`]) gives UTF-8. A record keeps its header
//! lines (known and unknown, in order), comments, time columns and result line, so that
//! reading and writing again gives back the same record.
//!
//! ```
//! use kshogi_notation::kif::{parse_kif, to_kif, KifResult};
//! use kshogi_notation::to_sfen;
//! use kshogi_rules_kyoto::Kyoto;
//! use kshogi_core::Color;
//!
//! let text = "\
//! #KIF version=2.0 encoding=UTF-8
//! 開始日時：2023/01/01 12:00:00
//! 手合割：京都将棋
//! 先手：Alice
//! 後手：Bob
//! 手数----指手---------消費時間--
//!    1 ４四銀成(45) ( 0:03/00:00:03)
//!    2 ２二と成(11) ( 0:05/00:00:05)
//! *a comment on move 2
//!    3 投了         ( 0:10/00:00:13)
//! まで2手で後手の勝ち
//! ";
//! let record = parse_kif::<Kyoto>(text).unwrap();
//! // Black's silver went to 4d as a bishop, White's tokin to 2b as a lance.
//! assert_eq!(to_sfen(record.position()), "pgks1/3l1/5/1B3/T1KGP b - 3");
//! assert_eq!(record.result(), Some(KifResult::Win(Color::White)));
//! assert_eq!(to_kif(&record), text);
//! ```
//!
//! The variant comes from the type parameter; [`kif_variant`] finds it from the `手合割`
//! header when the caller does not know it: `京都将棋` Kyoto, `五分摩訶将棋` Micro,
//! `金属将棋` Kinzoku. Every move is checked against the rules, and every error names the
//! line (and usually the column) and what was expected.
//!
//! ```
//! use kshogi_notation::kif::{parse_kif, to_kif, KifRecord};
//! use kshogi_rules_kyoto::Kyoto;
//!
//! let text = "手合割：京都将棋\n手数----指手---------消費時間--\n   1 １四歩成(15)\n";
//! let record = parse_kif::<Kyoto>(text).unwrap();
//! assert_eq!(record.moves().len(), 1);
//! assert!(to_kif(&record).contains("   1 １四歩成(15)\n"));
//! ```

// Reading, by job: bytes to text (`encoding`), text to classified lines (`lex`), the
// header area (`header`), board diagrams (`diagram`), move lines to core's move requests
// (`move_line`), and the replay of the record by the rules (`replay`).
mod annotate;
mod diagram;
mod encoding;
mod error;
mod header;
mod lex;
mod move_line;
mod record;
mod replay;
pub(crate) mod text;
mod write;

#[cfg(test)]
mod tests;

pub use annotate::{annotate_move, review_comments, KifEval, ReviewNote};
pub use encoding::decode_kif;
pub use error::{KifError, KifErrorKind};
pub use header::kif_variant;
pub use record::{
    summary_line, KifEnd, KifHeaderLine, KifMove, KifRecord, KifResult, KifSpecial, KifTime,
    SideNames,
};
pub use replay::{parse_kif, parse_kif_among, parse_kif_chosen, read_kif, OverriddenHeader};
pub use write::{kif_diagram, kif_move_text, to_kif};
