//! The commands other than `go`: the handshake, `isready`, options, positions and the
//! commands that end a search. Each arrives as a parsed `GuiMessage`.

use super::{send, send_message, Next, Session, Settings};
use crate::options::{self, Opt, Shown, DEFAULT_HASH_MB};
use kshogi_notation::{parse_game, Dialect};
use kshogi_registry::Registered;
use kshogi_usi_protocol::{
    shorten, EngineMessage, ErrorKind, Go, GuiMessage, OptionValue, PositionArgs, Protocol, Setup,
};

impl<'o, V: Registered> Session<'o, V> {
    /// Runs one command line.
    pub(super) fn command(&mut self, line: &str, settings: &mut Settings) -> Option<Next> {
        let message = match line.parse::<GuiMessage>() {
            Ok(m) => m,
            Err(e) if e.kind == ErrorKind::Empty => return None,
            Err(e) => {
                // A rejected `position` leaves no position.
                if line.split_whitespace().next() == Some("position") {
                    self.game = None;
                }
                self.error(&e.to_string());
                return None;
            }
        };
        match message {
            GuiMessage::Usi | GuiMessage::Uci => {
                settings.protocol = if message == GuiMessage::Usi {
                    Protocol::Usi
                } else {
                    Protocol::Uci
                };
                self.handshake(settings);
            }
            GuiMessage::IsReady => send_message(self.out, &EngineMessage::ReadyOk),
            GuiMessage::UsiNewGame | GuiMessage::UciNewGame => {
                self.finish_search();
                if let Some(e) = self.analyzer.as_mut() {
                    e.clear();
                }
            }
            GuiMessage::SetOption { name, value } => {
                return self.setoption(&name, value.as_deref(), settings)
            }
            GuiMessage::Position(args) => self.position(&args, settings),
            GuiMessage::Go(go) => match unsupported(&go) {
                Some(word) => self.error(&format!("`go`: unknown parameter `{word}`")),
                None => self.go(&go, settings),
            },
            GuiMessage::Stop | GuiMessage::GameOver(_) => self.finish_search(),
            GuiMessage::PonderHit => self.ponderhit(),
            GuiMessage::Quit => return Some(Next::Quit),
        }
        None
    }

    /// The answer to `usi` or `uci`: the engine's name and options, then `usiok`/`uciok`,
    /// written at once.
    fn handshake(&self, settings: &Settings) {
        let shown = Shown {
            variant: settings.initial,
            roster: settings.roster.infos(),
            dialect: settings.writing().dialect,
        };
        let lines: Vec<String> = options::handshake(settings.protocol, &shown)
            .iter()
            .map(EngineMessage::to_string)
            .collect();
        send(self.out, &lines.join("\n"));
    }

    /// `setoption name <id> [value <x>]`: the option is found and its value checked in the
    /// table of options; here its value is applied.
    fn setoption(
        &mut self,
        name: &str,
        value: Option<&str>,
        settings: &mut Settings,
    ) -> Option<Next> {
        let Some(decl) = options::find(name) else {
            self.error(&format!("unknown option `{}`", shorten(name)));
            return None;
        };
        let value = match decl.read(name, value) {
            Ok(v) => v,
            Err(e) => {
                self.error(&e.to_string());
                return None;
            }
        };
        let int = |v: &OptionValue| match v {
            OptionValue::Int(n) => *n,
            _ => 0,
        };
        let flag = |v: &OptionValue| matches!(v, OptionValue::Bool(true));
        let text = |v: &OptionValue| match v {
            OptionValue::Text(t) => t.clone(),
            _ => String::new(),
        };
        match decl.opt {
            Opt::Variant => match settings.roster.find(&text(&value)) {
                Some(info) if info == settings.variant => {}
                Some(info) => return Some(Next::Switch(info)),
                None => self.error(&format!(
                    "option {name} takes {}, found `{}`",
                    settings.roster.expected(),
                    shorten(&text(&value))
                )),
            },
            Opt::Hash => {
                let mb = usize::try_from(int(&value)).unwrap_or(DEFAULT_HASH_MB);
                if mb != settings.hash_mb {
                    settings.hash_mb = mb;
                    self.finish_search();
                    if let Some(e) = self.analyzer.as_mut() {
                        e.set_hash(settings.table_mb());
                    }
                }
            }
            Opt::MultiPv => settings.multipv = usize::try_from(int(&value)).unwrap_or(1),
            Opt::Threads => {
                let n = usize::try_from(int(&value)).unwrap_or(1);
                if n != settings.threads {
                    settings.threads = n;
                    self.finish_search();
                    let threads = settings.search_threads();
                    if let Some(e) = self.analyzer.as_mut() {
                        e.set_threads(threads);
                    }
                }
            }
            Opt::MoveOverhead => settings.overhead_ms = u64::try_from(int(&value)).unwrap_or(0),
            Opt::Ponder => settings.ponder = flag(&value),
            Opt::Dialect => match text(&value).parse::<Dialect>() {
                Ok(d) => settings.dialect = Some(d),
                Err(_) => self.error(&format!(
                    "option Dialect takes canonical or fsf, found `{}`",
                    shorten(&text(&value))
                )),
            },
            Opt::ClearHash => {
                self.finish_search();
                if let Some(e) = self.analyzer.as_mut() {
                    e.clear();
                }
            }
            Opt::AnalyseMode => settings.analyse_mode = flag(&value),
            Opt::Contempt => settings.contempt = int(&value),
            Opt::VariantPath => {}
            Opt::SkillLevel => settings.skill_level = int(&value),
            Opt::LimitStrength => settings.limit_strength = flag(&value),
            Opt::Elo => settings.elo = int(&value),
            Opt::ShowWdl => settings.show_wdl = flag(&value),
            Opt::Chess960 => {
                if flag(&value) {
                    self.error(&format!(
                        "option {name}: no variant of kshogi has castling; only false is taken"
                    ));
                }
            }
        }
        None
    }

    /// `position startpos|sfen ...|fen ... [moves ...]`: replaces the game; when it is
    /// rejected, reports the error and leaves no position.
    fn position(&mut self, args: &PositionArgs, settings: &Settings) {
        // The text the notation reads is the line as written with single spaces, the
        // command word blanked, so that the columns in its errors count from the start of
        // the line. `fen` is read as `sfen` (bracketed FEN is an SFEN form kshogi reads),
        // one column earlier so that the FEN keeps its columns.
        let blank = " ".repeat("position".len());
        let mut text = match &args.setup {
            Setup::Startpos => format!("{blank} startpos"),
            Setup::Sfen(s) if s.is_empty() => format!("{blank} sfen"),
            Setup::Sfen(s) => format!("{blank} sfen {s}"),
            Setup::Fen(f) if f.is_empty() => format!("{blank}sfen"),
            Setup::Fen(f) => format!("{blank}sfen {f}"),
        };
        if !args.moves.is_empty() {
            let writing = settings.writing();
            text.push_str(" moves");
            for mv in &args.moves {
                text.push(' ');
                text.push_str(&writing.read_move::<V>(mv));
            }
        }
        match parse_game::<V>(&text) {
            Ok(game) => self.game = Some(game),
            Err(e) => {
                self.game = None;
                self.error(&format!(
                    "position rejected: {e}; no position until the next valid one"
                ));
            }
        }
    }
}

/// The first parameter of `go` this engine does not take: UCI's `movestogo` (the clock's
/// allotment does not use it) and `searchmoves`.
fn unsupported(go: &Go) -> Option<&'static str> {
    if go.movestogo.is_some() {
        Some("movestogo")
    } else if !go.searchmoves.is_empty() {
        Some("searchmoves")
    } else {
        None
    }
}
