//! The property of the `usi_protocol` fuzz target: the USI loop of `kshogi usi`
//! (`kshogi_usi::serve_with`, bounded searches) on arbitrary input.
//!
//! This file is compiled into the fuzz crate (`fuzz/src/lib.rs`) and into the regression
//! tests of `kshogi-usi` (`crates/usi/tests/fuzz_regressions.rs`), so a committed input is
//! checked by exactly the code that fuzzes. It uses only the public API of `kshogi-usi`
//! (`kshogi_usi`), `kshogi-core`, `kshogi-notation` and the rules crates.
//!
//! # The input
//!
//! Byte 0 picks the variant the session starts with: the registry's variant number
//! `(byte - b'0') % n` of its `n` variants, so that the ASCII digits `0`, `1`, `2`, ... name
//! them in a seed file in the registry's order (kyoto, micro, kinzoku, ...). The other bytes are the USI
//! input, as is, cut into lines at `\n`, with one abbreviation so that a short input can
//! make a line longer than the loop's limit (64 KiB): the first line starting with the bytes
//! `00 00 HI LO` is replaced by the rest of the line (or `x` when there is none) repeated up
//! to exactly `4 * (HI * 256 + LO)` bytes (at most 256 KiB). Only the first such line of an
//! input is expanded (the others stay as they are), which keeps every run cheap.
//!
//! # What is checked
//!
//! The loop runs with [`Budget::TINY`], where every `go` has answered before the next line
//! is read, so the output of each input line can be told apart (the reader notes how much
//! output there is whenever the loop starts reading a line). A model of the session (the
//! variant, the game, the `go infinite` whose answer is held back) then checks, line by
//! line:
//!
//! - all output is UTF-8 text ending in a line end, with no control character other than
//!   the line ends and no line longer than 4 KiB (empty lines come only in the answer to
//!   `go perft`, which is checked whole); an error line (`info string error: ...`) has at
//!   most 300 characters after the prefix (plus `...`);
//! - a line that is not UTF-8 or longer than 64 KiB, an unknown command, a known command
//!   with wrong arguments, gets exactly one error line and changes nothing;
//! - `isready` gets exactly `readyok`; `usi` and `uci` the ten handshake lines ending in
//!   `usiok` / `uciok`, with the start variant as `USI_Variant` / `UCI_Variant` default
//!   (after `uci` moves are read and written in UCI coordinates, with Fairy-Stockfish's
//!   letters unless `Dialect` says otherwise); `position`, `setoption`, `ponderhit` and
//!   empty lines print nothing unless they are wrong (a new `USI_Hash` or `Threads` first
//!   ends a held search);
//! - `position` is accepted exactly when `kshogi_notation::parse_game` accepts its text
//!   (`fen` read as `sfen`), and then sets the game that later answers are checked against;
//!   a rejected one leaves no game, and the next `go` answers an error line and
//!   `bestmove resign` (`checkmate nomate` for `go mate`, nothing more for `go perft`);
//!   `setoption name USI_Variant` switches the variant (to its start position) as the
//!   model expects;
//! - `go perft N` prints exactly the model's count (depth capped at the budget's), one line
//!   per legal move in the current dialect, a blank line, `Nodes searched: N`, a blank line;
//! - every other `go` accepted (no error line) gets exactly one answer: at once, or for
//!   `go infinite` and `go ponder` at the next command that ends a search (`stop`, `go`,
//!   `usinewgame`, `gameover`, a new hash size or variant, `Clear_Hash`, `quit`, end of
//!   input; `ponderhit` for `go ponder`), and nowhere else; `quit` ends the session, and
//!   nothing is left unanswered at the end;
//! - a `bestmove` is the text of a legal move of the position of its `go`, written as the
//!   `Dialect` and the protocol say (with `ponder <move>` legal after it, when
//!   `USI_Ponder` is on), or, when that game is over, `info depth 0 score mate 0` (`cp 0`
//!   when drawn) and then `win` if the side to move has won and `resign` otherwise
//!   (`(none)` in UCI mode); a `go mate` gets `checkmate` and `nomate`, `timeout` or a line of
//!   legal moves that ends in a position the side to move of the `go` has won; every `info`
//!   line of a search has the fields in order and a `pv` of legal moves.

use kshogi_core::Variant;
use kshogi_core::{Game, Position};
use kshogi_notation::uci::{uci_to_usi, usi_to_uci};
use kshogi_notation::{move_to_usi_in, parse_game, parse_usi, Dialect};
use kshogi_registry::with_variant;
use kshogi_usi::{serve_with, Budget, Out, SearchMode, VariantKind, MAX_LINE};
use std::io::{BufRead, Read};
use std::sync::{Arc, Mutex};

/// The longest output line accepted, in bytes.
const MAX_OUTPUT_LINE: usize = 4096;

/// The prefix of an error line.
const ERROR: &str = "info string error: ";

/// The most characters after [`ERROR`]: the loop's limit of 300, then `...`.
const MAX_ERROR_CHARS: usize = 303;

/// Runs the property on one fuzz input; panics, naming the property, when it breaks.
pub fn usi_protocol(data: &[u8]) {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let variant = VariantKind::ALL[usize::from(head.wrapping_sub(b'0')) % VariantKind::ALL.len()];
    let (input, ends) = script(rest);
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: Out = buf.clone();
    let mut reader = Script {
        bytes: &input,
        ends: &ends,
        pos: 0,
        line_end: 0,
        next_line: 0,
        out: Arc::clone(&buf),
        at_line_start: true,
        marks: Vec::new(),
    };
    serve_with(
        &mut reader,
        &out,
        variant,
        SearchMode::Bounded(Budget::TINY),
    );
    let marks = reader.marks;
    let output = buf.lock().unwrap_or_else(|e| e.into_inner()).clone();
    check_session(variant, &input, &ends, &marks, &output);
}

/// The USI input of a fuzz input (its bytes after the first), the first abbreviated line
/// expanded.
pub fn expand(bytes: &[u8]) -> Vec<u8> {
    script(bytes).0
}

/// [`expand`], and the end of each line (after its `\n`; the last line ends at the end).
fn script(bytes: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let mut out = Vec::with_capacity(bytes.len());
    let mut ends = Vec::new();
    let mut expanded = false;
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.push(b'\n');
            ends.push(out.len());
        }
        match line {
            [0, 0, hi, lo, rest @ ..] if !expanded => {
                expanded = true;
                let len = 4 * (usize::from(*hi) * 256 + usize::from(*lo));
                let unit: &[u8] = if rest.is_empty() { b"x" } else { rest };
                // Doubling, so that a long line costs a few copies, not a loop per byte.
                let start = out.len();
                out.extend_from_slice(&unit[..unit.len().min(len)]);
                while out.len() - start < len {
                    let have = out.len() - start;
                    out.extend_from_within(start..start + have.min(len - have));
                }
            }
            _ => out.extend_from_slice(line),
        }
    }
    if !out.is_empty() && !out.ends_with(b"\n") {
        ends.push(out.len());
    }
    (out, ends)
}

/// The input as a reader that notes, each time the loop starts reading a line (and at the
/// end of input), where that line starts and how much output there is so far. It hands out
/// at most one line per `fill_buf`, so the loop never holds a line it has not started.
struct Script<'a> {
    bytes: &'a [u8],
    /// The end of each line (see [`script`]).
    ends: &'a [usize],
    pos: usize,
    /// The end of the line being read.
    line_end: usize,
    /// The index of the next line in `ends`.
    next_line: usize,
    out: Arc<Mutex<Vec<u8>>>,
    /// Whether the next `fill_buf` starts a line (or finds the end of input).
    at_line_start: bool,
    /// (input offset of the line, output length when its reading started).
    marks: Vec<(usize, usize)>,
}

impl Read for Script<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let chunk = self.fill_buf()?;
        let n = chunk.len().min(buf.len());
        buf[..n].copy_from_slice(&chunk[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Script<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at_line_start {
            let len = self.out.lock().unwrap_or_else(|e| e.into_inner()).len();
            self.marks.push((self.pos, len));
            self.at_line_start = false;
            self.line_end = self
                .ends
                .get(self.next_line)
                .copied()
                .unwrap_or(self.bytes.len());
            self.next_line += 1;
        } else if self.pos == self.bytes.len() {
            // The end of a last line without a line end; the next read starts afresh.
            self.at_line_start = true;
        }
        Ok(&self.bytes[self.pos..self.line_end])
    }

    fn consume(&mut self, amt: usize) {
        self.pos += amt;
        if amt > 0 && self.pos == self.line_end && self.bytes[self.pos - 1] == b'\n' {
            self.at_line_start = true;
        }
    }
}

/// A game of any registered variant, behind one object-safe trait, so that the model runs
/// over the registry's list without naming a variant.
#[derive(Debug)]
struct AnyGame(Box<dyn GameModel>);

/// What the model needs of a game, for any variant.
trait GameModel: core::fmt::Debug {
    fn clone_box(&self) -> Box<dyn GameModel>;
    /// `parse_game` for the variant of `self`; in UCI mode the moves are in UCI coordinates.
    fn parse(&self, text: &str, uci: bool) -> Option<AnyGame>;
    fn check_answer(&self, answer: &str, mate: bool, w: Writing) -> Result<(), String>;
    fn check_info(&self, line: &str, w: Writing) -> Result<(), String>;
    /// The expected output lines of `go perft depth`.
    fn perft_lines(&self, depth: u32, w: Writing) -> Vec<String>;
}

/// How the loop writes moves: the `Dialect` option, in USI or UCI coordinates, and whether
/// `bestmove` may name a move to ponder on (`USI_Ponder`).
#[derive(Copy, Clone, Debug)]
struct Writing {
    dialect: Dialect,
    uci: bool,
    ponder: bool,
}

/// `mv` (legal in `pos`) as the loop must write it.
fn written<V: Variant>(pos: &Position<V>, mv: kshogi_core::Move, w: Writing) -> String {
    let text = move_to_usi_in(pos, mv, w.dialect);
    if w.uci {
        let g = V::GEOMETRY;
        usi_to_uci(&text, g.width, g.height).expect("a USI move of the board")
    } else {
        text
    }
}

/// A `position` text with its moves read from UCI coordinates (a word that is not a UCI
/// move left as it is).
fn from_uci<V: Variant>(text: &str) -> String {
    let Some(at) = text.find(" moves") else {
        return text.to_string();
    };
    let g = V::GEOMETRY;
    let (head, tail) = text.split_at(at + " moves".len());
    let mut out = head.to_string();
    for word in tail.split(' ') {
        out.push(' ');
        if !word.is_empty() {
            out.push_str(&uci_to_usi(word, g.width, g.height).unwrap_or_else(|| word.to_string()));
        }
    }
    out
}

impl<V: Variant> GameModel for Game<V> {
    fn clone_box(&self) -> Box<dyn GameModel> {
        Box::new(self.clone())
    }

    fn parse(&self, text: &str, uci: bool) -> Option<AnyGame> {
        let text = if uci {
            from_uci::<V>(text)
        } else {
            text.to_string()
        };
        parse_game::<V>(&text)
            .ok()
            .map(|g| AnyGame(Box::new(g) as Box<dyn GameModel>))
    }

    fn check_answer(&self, answer: &str, mate: bool, w: Writing) -> Result<(), String> {
        check_answer(self, answer, mate, w)
    }

    fn check_info(&self, line: &str, w: Writing) -> Result<(), String> {
        // A finished game gets one line, its score: `mate 0` decided, `cp 0` drawn.
        if let Some(outcome) = self.outcome() {
            let want = match outcome.winner() {
                Some(_) => "info depth 0 score mate 0",
                None => "info depth 0 score cp 0",
            };
            return if line == want {
                Ok(())
            } else {
                Err(format!("the game is over ({outcome:?}): expected `{want}`"))
            };
        }
        check_info(self.position(), line, w)
    }

    fn perft_lines(&self, depth: u32, w: Writing) -> Vec<String> {
        let pos = self.position();
        let mut rows: Vec<(String, u64)> = pos
            .legal_moves()
            .iter()
            .map(|&m| {
                (
                    written(pos, m, w),
                    kshogi_core::perft(&mut pos.after(m), depth - 1),
                )
            })
            .collect();
        rows.sort();
        let total: u64 = rows.iter().map(|r| r.1).sum();
        let mut out: Vec<String> = rows.iter().map(|(m, n)| format!("{m}: {n}")).collect();
        out.push(String::new());
        out.push(format!("Nodes searched: {total}"));
        out.push(String::new());
        out
    }
}

impl Clone for AnyGame {
    fn clone(&self) -> AnyGame {
        AnyGame(self.0.clone_box())
    }
}

impl AnyGame {
    fn start(kind: VariantKind) -> AnyGame {
        with_variant!(kind, V => AnyGame(Box::new(Game::new(Position::<V>::start()))))
    }

    fn parse(&self, text: &str, uci: bool) -> Option<AnyGame> {
        self.0.parse(text, uci)
    }

    fn check_answer(&self, answer: &str, mate: bool, w: Writing) -> Result<(), String> {
        self.0.check_answer(answer, mate, w)
    }

    fn check_info(&self, line: &str, w: Writing) -> Result<(), String> {
        self.0.check_info(line, w)
    }

    fn perft_lines(&self, depth: u32, w: Writing) -> Vec<String> {
        self.0.perft_lines(depth, w)
    }
}

/// The moves of `text` (separated by single spaces, written as `w` says), checked legal
/// one after the other from `pos`; the position after them.
fn check_moves<V: Variant>(
    pos: &Position<V>,
    text: &str,
    w: Writing,
) -> Result<Position<V>, String> {
    let mut p = *pos;
    let g = V::GEOMETRY;
    for word in text.split(' ') {
        let usi = if w.uci {
            uci_to_usi(word, g.width, g.height).ok_or_else(|| format!("`{word}` is not UCI"))?
        } else {
            word.to_string()
        };
        let mv = parse_usi(&p, &usi).map_err(|e| format!("`{word}` is not legal: {e}"))?;
        if written(&p, mv, w) != word {
            return Err(format!(
                "`{word}` is not written as the dialect says ({w:?})"
            ));
        }
        p.make(mv);
    }
    Ok(p)
}

/// Checks an answer to a `go` in `game`: `checkmate ...` for a `go mate`, otherwise
/// `bestmove ...`.
fn check_answer<V: Variant>(
    game: &Game<V>,
    answer: &str,
    mate: bool,
    w: Writing,
) -> Result<(), String> {
    if let Some(mv) = answer.strip_prefix("bestmove ").filter(|_| !mate) {
        let pos = game.position();
        if let Some(outcome) = game.outcome() {
            let want = if w.uci {
                "(none)"
            } else if outcome.winner() == Some(pos.side_to_move()) {
                "win"
            } else {
                "resign"
            };
            return if mv == want {
                Ok(())
            } else {
                Err(format!("the game is over ({outcome:?}): expected `{want}`"))
            };
        }
        if pos.legal_moves().is_empty() {
            return if mv == "resign" {
                Ok(())
            } else {
                Err("no legal move: expected `resign`".to_string())
            };
        }
        let (mv, ponder) = match mv.split_once(" ponder ") {
            Some((m, p)) if w.ponder => (m, Some(p)),
            _ => (mv, None),
        };
        if mv.contains(' ') || ponder.is_some_and(|p| p.contains(' ')) {
            return Err("more than one move".to_string());
        }
        let after = check_moves(pos, mv, w)?;
        return match ponder {
            Some(p) => check_moves(&after, p, w).map(|_| ()),
            None => Ok(()),
        };
    }
    if let Some(rest) = answer.strip_prefix("checkmate ").filter(|_| mate) {
        return match rest {
            "nomate" | "timeout" => Ok(()),
            pv => {
                let end = check_moves(game.position(), pv, w)?;
                let attacker = game.position().side_to_move();
                match end.outcome() {
                    Some(o) if o.winner() == Some(attacker) => Ok(()),
                    other => Err(format!("the mate line ends in {other:?}, not a win")),
                }
            }
        };
    }
    Err(format!(
        "not an answer to a `go`{}",
        if mate { " mate" } else { "" }
    ))
}

/// Checks a search report: `info depth D seldepth S multipv K score cp|mate N nodes N nps N
/// time N hashfull N [pv ...]`, the moves legal from `pos`.
fn check_info<V: Variant>(pos: &Position<V>, line: &str, w: Writing) -> Result<(), String> {
    let mut words: Vec<&str> = line.split(' ').collect();
    // `UCI_ShowWDL`: `wdl W D L` after the score, three per mille numbers summing to 1000.
    if words.get(10) == Some(&"wdl") {
        let n: Vec<u32> = words
            .get(11..14)
            .unwrap_or(&[])
            .iter()
            .filter_map(|x| x.parse().ok())
            .collect();
        if n.len() != 3 || n.iter().sum::<u32>() != 1000 {
            return Err("`wdl` needs three numbers summing to 1000".to_string());
        }
        words.drain(10..14);
    }
    let keys = [
        (1, "depth"),
        (3, "seldepth"),
        (5, "multipv"),
        (7, "score"),
        (10, "nodes"),
        (12, "nps"),
        (14, "time"),
        (16, "hashfull"),
    ];
    if words.len() < 18 || words[0] != "info" {
        return Err("not a search report".to_string());
    }
    for (i, key) in keys {
        if words[i] != key {
            return Err(format!("word {i} should be `{key}`"));
        }
    }
    if !matches!(words[8], "cp" | "mate") || words[9].parse::<i32>().is_err() {
        return Err("bad score".to_string());
    }
    for i in [2, 4, 6, 11, 13, 15, 17] {
        if words[i].parse::<u64>().is_err() {
            return Err(format!("word {i} should be a number"));
        }
    }
    match words.get(18) {
        None => Ok(()),
        Some(&"pv") if words.len() > 19 => check_moves(pos, &words[19..].join(" "), w).map(|_| ()),
        Some(_) => Err("expected `pv` and moves".to_string()),
    }
}

/// The model's reading of `setoption` (name lowercased, value), or `None` when the loop must
/// reject the line.
fn setoption(args: &[&str]) -> Option<(String, Option<String>)> {
    let (&first, rest) = args.split_first()?;
    if first != "name" {
        return None;
    }
    let (name, value) = match rest.iter().position(|&w| w == "value") {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return None;
    }
    Some((name.join(" ").to_ascii_lowercase().replace(' ', "_"), value))
}

/// A check option's value: `true` or `false`, in any case.
fn check(value: Option<&str>) -> Option<bool> {
    match value?.trim().to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// A whole number from `min` to `max` (a spin option's value).
fn spin(value: Option<&str>, min: u64, max: u64) -> Option<u64> {
    let n = value?.trim().parse::<u64>().ok()?;
    (min..=max).contains(&n).then_some(n)
}

/// What the model knows about the session.
struct Model {
    initial: VariantKind,
    variant: VariantKind,
    /// `None` after a rejected `position`.
    game: Option<AnyGame>,
    hash_mb: u64,
    threads: u64,
    /// After `uci`: UCI coordinates.
    uci: bool,
    /// The `Dialect` option, when set.
    dialect: Option<Dialect>,
    /// `USI_Ponder`.
    ponder: bool,
    /// The game of a `go infinite` (or `go ponder`, `true`) whose answer is held back, and
    /// how its moves are written.
    pending: Option<(AnyGame, bool, Writing)>,
    /// `go` commands accepted and answers seen.
    accepted: usize,
    answered: usize,
}

/// What one command's output must be, beyond the answers.
enum Expect {
    /// Exactly one error line.
    Error,
    /// Nothing but a held-back answer if the command ends the search.
    Silent { ends_search: bool },
}

/// The lines of output text, each without its `\n` (but with any `\r`).
fn lines_of(text: &str) -> Vec<&str> {
    match text.strip_suffix('\n') {
        Some(body) => body.split('\n').collect(),
        None if text.is_empty() => Vec::new(),
        None => text.split('\n').collect(),
    }
}

/// Checks the output of the whole session against the model, line by line.
fn check_session(
    variant: VariantKind,
    input: &[u8],
    ends: &[usize],
    marks: &[(usize, usize)],
    output: &[u8],
) {
    // The whole output.
    let Ok(text) = std::str::from_utf8(output) else {
        panic!("the output is not UTF-8");
    };
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "the output does not end with a line end"
    );
    // (Empty lines belong to `go perft` only, which the model checks line by line.)
    for &line in &lines_of(text) {
        assert!(
            !line.chars().any(char::is_control),
            "a control character in output line `{}`",
            line.escape_debug()
        );
        assert!(
            line.len() <= MAX_OUTPUT_LINE,
            "an output line of {} bytes",
            line.len()
        );
        if let Some(message) = line.strip_prefix(ERROR) {
            assert!(
                message.chars().count() <= MAX_ERROR_CHARS,
                "an error line of {} characters",
                message.chars().count()
            );
        }
    }
    // Line by line.
    let mut model = Model {
        initial: variant,
        variant,
        game: Some(AnyGame::start(variant)),
        hash_mb: 16,
        threads: 1,
        uci: false,
        dialect: None,
        ponder: false,
        pending: None,
        accepted: 0,
        answered: 0,
    };
    assert!(!marks.is_empty(), "the loop read nothing");
    for (i, &(at, _)) in marks.iter().enumerate() {
        let start = if i == 0 { 0 } else { ends[i - 1] };
        assert_eq!(at, start, "the loop did not read line by line");
    }
    for (i, &(at, from)) in marks.iter().enumerate() {
        let to = marks.get(i + 1).map_or(output.len(), |m| m.1);
        let lines = lines_of(&text[from..to]);
        if at == input.len() {
            // The end of input: works as `quit`.
            assert_eq!(
                i + 1,
                marks.len(),
                "the loop read on after the end of input"
            );
            model.finish(&lines, "end of input");
            break;
        }
        let raw = &input[at..ends[i]];
        let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let shown = String::from_utf8_lossy(&raw[..raw.len().min(80)]).into_owned();
        let context = format!("line {} `{}`", i + 1, shown.escape_debug());
        let quit = model.line(raw, &lines, &context);
        if quit {
            assert_eq!(
                i + 1,
                marks.len(),
                "{context}: the loop read on after `quit`"
            );
        }
    }
    assert!(
        model.pending.is_none(),
        "a `go infinite` was never answered"
    );
    assert_eq!(
        model.accepted, model.answered,
        "{} `go` accepted, {} answers",
        model.accepted, model.answered
    );
}

impl Model {
    /// Checks the output `out` of one input line `raw`; true when the line was `quit`.
    fn line(&mut self, raw: &[u8], out: &[&str], context: &str) -> bool {
        if raw.len() > MAX_LINE {
            self.expect(Expect::Error, out, context);
            return false;
        }
        let Ok(line) = std::str::from_utf8(raw) else {
            self.expect(Expect::Error, out, context);
            return false;
        };
        // Only as many words as the command needs are split off: most long lines are
        // garbage, and splitting them whole would double the cost of a run.
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            self.expect(Expect::Silent { ends_search: false }, out, context);
            return false;
        };
        let plain = |no_args: bool, ends_search| {
            if no_args {
                Expect::Silent { ends_search }
            } else {
                Expect::Error
            }
        };
        match cmd {
            "usi" | "uci" | "isready" | "ponderhit" | "usinewgame" | "ucinewgame" | "stop"
            | "quit" => {
                let no_args = words.next().is_none();
                match cmd {
                    "usi" | "uci" if no_args => {
                        self.uci = cmd == "uci";
                        self.usi(out, context);
                    }
                    "isready" if no_args => {
                        assert_eq!(out, ["readyok"], "{context}: `isready` answers `readyok`");
                    }
                    "ponderhit" if no_args => {
                        // It ends a ponder search only.
                        let ends = self.pending.as_ref().is_some_and(|p| p.1);
                        self.expect(Expect::Silent { ends_search: ends }, out, context);
                    }
                    "usi" | "uci" | "isready" | "ponderhit" => {
                        self.expect(plain(no_args, false), out, context);
                    }
                    _ => {
                        self.expect(plain(no_args, true), out, context);
                        return cmd == "quit" && no_args;
                    }
                }
            }
            "gameover" => {
                let args: Vec<&str> = words.take(2).collect();
                let ok = matches!(args[..], [] | ["win" | "lose" | "draw"]);
                self.expect(plain(ok, true), out, context);
            }
            "setoption" => self.setoption(&words.collect::<Vec<_>>(), out, context),
            "position" => self.position(line, words.next(), out, context),
            "go" => self.go(&words.collect::<Vec<_>>(), out, context),
            _ => self.expect(Expect::Error, out, context),
        }
        false
    }

    /// `usi` or `uci`: the handshake.
    fn usi(&self, out: &[&str], context: &str) {
        assert_eq!(
            out.len(),
            19,
            "{context}: the handshake is nineteen lines (sixteen options): {out:?}"
        );
        assert!(out[0].starts_with("id name kshogi "), "{context}: {out:?}");
        let (option, ok) = if self.uci {
            ("UCI_Variant", "uciok")
        } else {
            ("USI_Variant", "usiok")
        };
        let default = format!(
            "option name {option} type combo default {} ",
            self.initial.name()
        );
        assert!(out[2].starts_with(&default), "{context}: {out:?}");
        assert_eq!(out[18], ok, "{context}");
    }

    /// How the loop writes moves now.
    fn writing(&self) -> Writing {
        Writing {
            dialect: self.dialect.unwrap_or(if self.uci {
                Dialect::Fsf
            } else {
                Dialect::Canonical
            }),
            uci: self.uci,
            ponder: self.ponder,
        }
    }

    /// Checks output that has no answer of its own.
    fn expect(&mut self, e: Expect, out: &[&str], context: &str) {
        match e {
            Expect::Error => {
                assert!(
                    out.len() == 1 && out[0].starts_with(ERROR),
                    "{context}: expected one error line, got {out:?}"
                );
            }
            Expect::Silent { ends_search: true } => self.finish(out, context),
            Expect::Silent { ends_search: false } => {
                assert!(out.is_empty(), "{context}: expected no output, got {out:?}");
            }
        }
    }

    /// A command that ends a search: the held-back answer, if any, and nothing else.
    fn finish(&mut self, out: &[&str], context: &str) {
        let rest = self.take_pending(out, context);
        assert!(rest.is_empty(), "{context}: unexpected output {out:?}");
    }

    /// Checks and removes the held-back answer at the start of `out`; returns the rest.
    fn take_pending<'o>(&mut self, out: &'o [&'o str], context: &str) -> &'o [&'o str] {
        let Some((game, _, w)) = self.pending.take() else {
            return out;
        };
        let Some((&answer, rest)) = out.split_first() else {
            panic!("{context}: the `go infinite` was not answered when its search ended");
        };
        if let Err(e) = game.check_answer(answer, false, w) {
            panic!("{context}: answer `{answer}` to `go infinite`: {e}");
        }
        self.answered += 1;
        rest
    }

    fn setoption(&mut self, args: &[&str], out: &[&str], context: &str) {
        let Some((name, value)) = setoption(args) else {
            return self.expect(Expect::Error, out, context);
        };
        let value = value.as_deref();
        let ok = match name.as_str() {
            "usi_variant" | "uci_variant" => {
                match value.and_then(|v| VariantKind::from_name(v.trim())) {
                    Some(kind) if kind != self.variant => {
                        self.finish(out, context);
                        self.variant = kind;
                        self.game = Some(AnyGame::start(kind));
                        return;
                    }
                    Some(_) => true,
                    None => false,
                }
            }
            "usi_hash" | "hash" => match spin(value, 1, 4096) {
                Some(mb) if mb != self.hash_mb => {
                    self.finish(out, context);
                    self.hash_mb = mb;
                    return;
                }
                Some(_) => true,
                None => false,
            },
            "multipv" | "usi_multipv" => spin(value, 1, 32).is_some(),
            "threads" => match spin(value, 1, 512) {
                Some(n) if n != self.threads => {
                    self.finish(out, context);
                    self.threads = n;
                    return;
                }
                Some(_) => true,
                None => false,
            },
            "usi_ponder" | "ponder" => match check(value) {
                Some(v) => {
                    self.ponder = v;
                    true
                }
                None => false,
            },
            // Options the clients send that change no answer the model checks (skill levels
            // still play legal moves; `wdl` is checked in every `info` line).
            "usi_analysemode" | "uci_analysemode" | "usi_limitstrength" | "uci_limitstrength"
            | "usi_showwdl" | "uci_showwdl" => check(value).is_some(),
            "skill_level" => value
                .and_then(|v| v.trim().parse::<i64>().ok())
                .is_some_and(|n| (-20..=20).contains(&n)),
            "usi_elo" | "uci_elo" => spin(value, 500, 2850).is_some(),
            // Changes the scores of drawn lines, which the model does not check.
            "contempt" => value
                .and_then(|v| v.trim().parse::<i64>().ok())
                .is_some_and(|n| (-200..=200).contains(&n)),
            "usi_chess960" | "uci_chess960" => check(value) == Some(false),
            "variantpath" => true,
            "dialect" => match value.and_then(|v| v.trim().parse::<Dialect>().ok()) {
                Some(d) => {
                    self.dialect = Some(d);
                    true
                }
                None => false,
            },
            "clear_hash" => {
                self.finish(out, context);
                return;
            }
            _ => false,
        };
        let e = if ok {
            Expect::Silent { ends_search: false }
        } else {
            Expect::Error
        };
        self.expect(e, out, context);
    }

    fn position(&mut self, line: &str, first: Option<&str>, out: &[&str], context: &str) {
        // A rejected `position` leaves no position.
        let start = AnyGame::start(self.variant);
        let parsed = match (first, line.find("position")) {
            (Some("startpos" | "sfen"), Some(at)) => {
                start.parse(&line[at + "position".len()..], self.uci)
            }
            (Some("fen"), Some(at)) => {
                let rest = &line[at + "position".len()..];
                let fen = rest.find("fen").map(|i| &rest[i + 3..]).unwrap_or_default();
                start.parse(&format!(" sfen{fen}"), self.uci)
            }
            _ => None,
        };
        match parsed {
            Some(_) => self.expect(Expect::Silent { ends_search: false }, out, context),
            None => self.expect(Expect::Error, out, context),
        }
        self.game = parsed;
    }

    /// `go` with its arguments `args`.
    fn go(&mut self, args: &[&str], out: &[&str], context: &str) {
        if out.len() == 1 && out[0].starts_with(ERROR) {
            // Rejected (or `go perft` without a position): the error alone; a held-back
            // answer stays held back.
            return self.expect(Expect::Error, out, context);
        }
        let out = self.take_pending(out, context);
        let mate = args.contains(&"mate");
        let perft = args
            .iter()
            .rposition(|&a| a == "perft")
            .and_then(|i| args.get(i + 1)?.parse::<u32>().ok());
        let w = self.writing();
        let Some(game) = self.game.clone() else {
            // No position: an error, then `bestmove resign` (nothing more for `go perft`).
            assert!(
                !out.is_empty() && out[0].starts_with(ERROR),
                "{context}: expected an error for the missing position, got {out:?}"
            );
            if perft.is_some() {
                assert_eq!(out.len(), 1, "{context}: {out:?}");
                return;
            }
            let want = if mate {
                "checkmate nomate"
            } else {
                "bestmove resign"
            };
            assert_eq!(&out[1..], [want], "{context}");
            self.accepted += 1;
            self.answered += 1;
            return;
        };
        if let Some(depth) = perft {
            let want = game.perft_lines(depth.min(Budget::TINY.depth), w);
            assert_eq!(out, want, "{context}: the perft count");
            return;
        }
        self.accepted += 1;
        let (reports, answer) = match out.split_last() {
            Some((&last, reports)) if !last.starts_with("info ") => (reports, Some(last)),
            _ => (out, None),
        };
        for report in reports {
            if let Err(e) = game.check_info(report, w) {
                panic!("{context}: search report `{report}`: {e}");
            }
        }
        match answer {
            Some(answer) => {
                if let Err(e) = game.check_answer(answer, mate, w) {
                    panic!("{context}: answer `{answer}`: {e}");
                }
                self.answered += 1;
            }
            None => {
                let infinite = args.contains(&"infinite");
                assert!(
                    infinite || args.contains(&"ponder"),
                    "{context}: `go` without `infinite` or `ponder` did not answer: {out:?}"
                );
                self.pending = Some((game, !infinite, w));
            }
        }
    }
}
