//! Characters of KIF text: numerals, spaces, piece kanji and display widths.

use kshogi_core::{Kind, Square, Variant};

/// Kanji rank numerals, rank 1 (`a`) first.
pub(crate) const RANK_KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Full-width digits, 1 first.
const FULL_WIDTH_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The full-width digit for a file number 1..=9 (`?` beyond, which no variant has).
pub(crate) fn full_width_digit(n: u8) -> char {
    FULL_WIDTH_DIGITS
        .get(usize::from(n).wrapping_sub(1))
        .copied()
        .unwrap_or('?')
}

/// The kanji numeral of a rank index (0 = `一`).
pub(crate) fn rank_kanji(rank: u8) -> char {
    RANK_KANJI.get(usize::from(rank)).copied().unwrap_or('?')
}

/// A square in KIF notation (`２四`).
pub(crate) fn kif_square<V: Variant>(sq: Square) -> String {
    let g = V::GEOMETRY;
    format!("{}{}", full_width_digit(g.file(sq)), rank_kanji(g.rank(sq)))
}

/// The value of an ASCII or full-width decimal digit.
pub(crate) fn digit_value(c: char) -> Option<u32> {
    match c {
        '0'..='9' => Some(c as u32 - '0' as u32),
        '０'..='９' => Some(c as u32 - '０' as u32),
        _ => None,
    }
}

/// The value 1..=9 of a kanji rank numeral.
pub(crate) fn kanji_digit(c: char) -> Option<u32> {
    RANK_KANJI
        .iter()
        .position(|&k| k == c)
        .map(|i| i as u32 + 1)
}

/// Whether `c` separates words in KIF text: ASCII space, tab, a stray carriage return or
/// the full-width space. Trimming all of them in one pass keeps reading idempotent: what is
/// written back reads back the same.
pub(crate) fn is_space(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\r' || c == '\u{3000}'
}

/// `s` without leading and trailing spaces (ASCII and full-width).
pub(crate) fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// A count written in kanji, as in hands (`二`, `十`, `十二`, `二十`): 1 to 99.
pub(crate) fn kanji_count(n: u32) -> String {
    let mut s = String::new();
    let (tens, ones) = (n / 10, n % 10);
    if tens > 1 {
        s.push(RANK_KANJI[(tens as usize - 1).min(8)]);
    }
    if tens >= 1 {
        s.push('十');
    }
    if ones > 0 {
        s.push(RANK_KANJI[ones as usize - 1]);
    }
    s
}

/// Reads a count written in kanji (`二`, `十`, `十二`, `二十三`) or in ASCII or full-width
/// digits; `None` when the text is not such a number (or is zero or above 99).
pub(crate) fn parse_count(s: &str) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    if s.chars().all(|c| digit_value(c).is_some()) {
        if s.chars().count() > 2 {
            return None;
        }
        let n = s
            .chars()
            .try_fold(0u32, |acc, c| Some(acc * 10 + digit_value(c)?))?;
        return (n > 0).then_some(n);
    }
    let chars: Vec<char> = s.chars().collect();
    let n = match chars.as_slice() {
        ['十'] => 10,
        [d] => kanji_digit(*d)?,
        ['十', d] => 10 + kanji_digit(*d)?,
        [t, '十'] => 10 * kanji_digit(*t)?,
        [t, '十', d] => 10 * kanji_digit(*t)? + kanji_digit(*d)?,
        _ => return None,
    };
    Some(n)
}

/// Display width in a monospace terminal: 1 for ASCII, 2 for everything else in KIF
/// (kanji, kana, full-width digits and spaces).
pub(crate) fn display_width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// The kind whose one-character name is `c` in variant `V`: its diagram kanji, or a
/// one-character KIF name or alias; `王` is accepted for the king.
pub(crate) fn kind_by_kanji<V: Variant>(c: char) -> Option<Kind> {
    if let Some(i) = V::PIECES.iter().position(|d| d.kanji == c) {
        return Some(Kind(i as u8));
    }
    let mut buf = [0u8; 4];
    let name: &str = c.encode_utf8(&mut buf);
    if let Some(i) = V::PIECES
        .iter()
        .position(|d| d.kif_name == name || d.kif_aliases.contains(&name))
    {
        return Some(Kind(i as u8));
    }
    if c == '王' {
        return V::PIECES
            .iter()
            .position(|d| d.royal)
            .map(|i| Kind(i as u8));
    }
    None
}

/// The piece named at the start of `chars` in variant `V`, and the length of its name in
/// characters: the longest of the KIF names ([`kshogi_core::PieceDef::kif_name`]), their
/// aliases and the diagram kanji that matches (`成銀` before `銀`, `ひよこ` before `ひ`).
pub(crate) fn kind_by_name<V: Variant>(chars: &[char]) -> Option<(Kind, usize)> {
    let mut best: Option<(Kind, usize)> = None;
    let mut consider = |kind: usize, name: &str| {
        let len = name.chars().count();
        if len > 0
            && len <= chars.len()
            && name.chars().zip(chars).all(|(a, &b)| a == b)
            && best.map_or(true, |(_, l)| len > l)
        {
            best = Some((Kind(kind as u8), len));
        }
    };
    for (i, d) in V::PIECES.iter().enumerate() {
        consider(i, d.kif_name);
        for a in d.kif_aliases {
            consider(i, a);
        }
    }
    if best.is_none() {
        return chars
            .first()
            .and_then(|&c| kind_by_kanji::<V>(c))
            .map(|k| (k, 1));
    }
    best
}

/// The KIF move-text name of a kind (`成銀`, `ライオン`).
pub(crate) fn kif_name_of<V: Variant>(kind: Kind) -> &'static str {
    V::PIECES
        .get(kind.index())
        .map(|d| d.kif_name)
        .unwrap_or("?")
}

/// The kanji of a kind.
pub(crate) fn kanji_of<V: Variant>(kind: Kind) -> char {
    V::PIECES.get(kind.index()).map(|d| d.kanji).unwrap_or('?')
}

/// The piece names of `V` (the KIF names, and the diagram kanji where it differs), space
/// separated, for error messages.
pub(crate) fn kanji_list<V: Variant>() -> String {
    let mut s = String::new();
    for d in V::PIECES {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(d.kif_name);
        if d.kif_name.chars().ne([d.kanji]) {
            s.push('/');
            s.push(d.kanji);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use kshogi_rules_kinzoku::Kinzoku;
    use kshogi_rules_kyoto::Kyoto;

    #[test]
    fn counts_in_kanji() {
        let cases = [
            (1, "一"),
            (2, "二"),
            (9, "九"),
            (10, "十"),
            (11, "十一"),
            (18, "十八"),
            (20, "二十"),
            (23, "二十三"),
        ];
        for (n, text) in cases {
            assert_eq!(kanji_count(n), text);
            assert_eq!(parse_count(text), Some(n), "{text}");
        }
        assert_eq!(parse_count("2"), Some(2));
        assert_eq!(parse_count("１２"), Some(12));
        assert_eq!(parse_count("0"), None);
        assert_eq!(parse_count("十十"), None);
        assert_eq!(parse_count("歩"), None);
        assert_eq!(parse_count(""), None);
    }

    #[test]
    fn digits_and_widths() {
        assert_eq!(full_width_digit(5), '５');
        assert_eq!(digit_value('５'), Some(5));
        assert_eq!(digit_value('5'), Some(5));
        assert_eq!(kanji_digit('四'), Some(4));
        assert_eq!(rank_kanji(0), '一');
        assert_eq!(display_width("２四銀(35)"), 10);
        assert_eq!(trim("\u{3000} 京都将棋\u{3000}"), "京都将棋");
    }

    #[test]
    fn kanji_lookup_is_per_variant() {
        // Kyoto: 金 is the gold (kind 5); Kinzoku: 金 is the promoted soldier (kind 4).
        assert_eq!(kind_by_kanji::<Kyoto>('金'), Some(Kind(5)));
        assert_eq!(kind_by_kanji::<Kinzoku>('金'), Some(Kind(4)));
        assert_eq!(kind_by_kanji::<Kyoto>('王'), Some(Kind(0)));
        assert_eq!(kind_by_kanji::<Kyoto>('銅'), None);
        assert_eq!(kind_by_kanji::<Kinzoku>('歩'), None);
    }
}
