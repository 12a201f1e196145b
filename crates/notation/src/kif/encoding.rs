//! Turning the bytes of a KIF file into text: UTF-8 (with or without BOM) or Shift_JIS.

use super::error::{KifError, KifErrorKind};
use encoding_rs::SHIFT_JIS;

/// Decodes the bytes of a KIF file.
///
/// - A UTF-8 byte order mark means UTF-8 (the mark is dropped).
/// - Bytes that are valid UTF-8 are UTF-8.
/// - Bytes that are valid UTF-8 up to some point, with at least one non-ASCII character
///   before it, are a damaged UTF-8 file: an error names the line of the bad byte (Shift_JIS
///   text practically never starts with valid multi-byte UTF-8).
/// - Anything else is decoded as Shift_JIS (the WHATWG encoding, which is Microsoft's code
///   page 932, the one Kakinoki's files use); a byte sequence that is not Shift_JIS either is
///   an error naming its line.
///
/// Line endings are kept as they are (`\r\n` or `\n`); the reader accepts both.
pub fn decode_kif(bytes: &[u8]) -> Result<String, KifError> {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return match std::str::from_utf8(rest) {
            Ok(s) => Ok(s.to_string()),
            Err(e) => Err(utf8_error(rest, e.valid_up_to(), e.error_len().is_none())),
        };
    }
    let e = match std::str::from_utf8(bytes) {
        Ok(s) => return Ok(s.to_string()),
        Err(e) => e,
    };
    let valid = &bytes[..e.valid_up_to()];
    if !valid.is_ascii() {
        return Err(utf8_error(bytes, e.valid_up_to(), e.error_len().is_none()));
    }
    let mut out = String::with_capacity(bytes.len() * 3 / 2);
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match SHIFT_JIS.decode_without_bom_handling_and_without_replacement(line) {
            Some(text) => out.push_str(&text),
            None => {
                return Err(KifError::at(
                    i + 1,
                    None,
                    KifErrorKind::Encoding(
                        "the file is neither UTF-8 nor Shift_JIS: this line has bytes that \
                         are not Shift_JIS"
                            .into(),
                    ),
                ))
            }
        }
    }
    Ok(out)
}

fn utf8_error(bytes: &[u8], at: usize, at_end: bool) -> KifError {
    let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let what = if at_end {
        "the UTF-8 text ends in the middle of a character (is the file cut off?)"
    } else {
        "the file is UTF-8 but this line has bytes that are not UTF-8"
    };
    KifError::at(line, None, KifErrorKind::Encoding(what.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_with_and_without_bom() {
        assert_eq!(
            decode_kif("手合割：京都将棋\n".as_bytes()).unwrap(),
            "手合割：京都将棋\n"
        );
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice("手合割：京都将棋\n".as_bytes());
        assert_eq!(decode_kif(&bom).unwrap(), "手合割：京都将棋\n");
    }

    #[test]
    fn shift_jis() {
        // 手 is 0x8E 0xE8 in Shift_JIS, 合 0x8D 0x87, 割 0x8A 0x84, the full-width colon
        // 0x81 0x46 (from the JIS X 0208 table, written out by hand here).
        let bytes = b"\x8E\xE8\x8D\x87\x8A\x84\x81\x46x\r\n";
        assert_eq!(decode_kif(bytes).unwrap(), "手合割：x\r\n");
    }

    #[test]
    fn bad_bytes_name_the_line() {
        // 0xFF is not Shift_JIS (nor UTF-8), and the text before it is ASCII.
        let e = decode_kif(b"a\nb\n\xFF\n").unwrap_err();
        assert_eq!(e.line, 3);
        // A lead byte (0x81) followed by a byte that cannot trail it.
        let e = decode_kif(b"a\r\n\x81\x20").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(matches!(e.kind, KifErrorKind::Encoding(_)));
        // UTF-8 text (non-ASCII on line 1) with a stray byte on line 2.
        let mut bytes = "手\nx".as_bytes().to_vec();
        bytes.push(0xFF);
        let e = decode_kif(&bytes).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        // UTF-8 cut in the middle of 銀 (E9 8A 80).
        let e = decode_kif(b"\xE6\x89\x8B\n\xE9\x8A").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().contains("cut off"), "{e}");
    }
}
