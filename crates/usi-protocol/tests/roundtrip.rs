//! Round-trip properties of the protocol: every generated message parses back from its
//! printed line to the same value, and no text at all makes either parser panic.
//!
//! The generators draw words that cannot be taken for a keyword of the message they are in
//! (moves start with a digit, option names with a capital), as real moves and names cannot.

use kshogi_usi_protocol::{
    BestMove, Bound, Checkmate, Clock, EngineMessage, GameResult, Go, GuiMessage, Info, MateTime,
    OptionDecl, OptionType, PositionArgs, Score, ScoreValue, Setup, Wdl, MAX_DEPTH, MAX_THINK_MS,
};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

/// A move-like word: starts with a digit, so it is never a keyword.
fn mv() -> impl Strategy<Value = String> {
    "[1-9][a-z0-9+*@]{0,5}"
}

/// A name-like word: starts with a capital, so it is never `value`, `type` or `moves`.
fn name_word() -> impl Strategy<Value = String> {
    "[A-Z][A-Za-z0-9_]{0,7}"
}

/// Words joined by single spaces.
fn joined(word: impl Strategy<Value = String>, max: usize) -> impl Strategy<Value = String> {
    vec(word, 1..max).prop_map(|w| w.join(" "))
}

/// Free text as `id name` and `info string` carry it: no line end, no leading blank.
fn text() -> impl Strategy<Value = String> {
    "([A-Za-z0-9:<>.(][A-Za-z0-9:<>. ()]{0,20})?"
}

fn clock() -> impl Strategy<Value = Clock> {
    (
        option::of(any::<u64>()),
        option::of(any::<u64>()),
        option::of(any::<u64>()),
        option::of(any::<u64>()),
        option::of(any::<u64>()),
        option::of(0..=MAX_THINK_MS),
    )
        .prop_map(|(btime, wtime, byoyomi, binc, winc, movetime)| Clock {
            btime,
            wtime,
            byoyomi,
            binc,
            winc,
            movetime,
        })
}

fn go() -> impl Strategy<Value = Go> {
    (
        clock(),
        option::of(1..=MAX_DEPTH),
        option::of(1..=u64::MAX),
        any::<bool>(),
        any::<bool>(),
        option::of(prop_oneof![
            Just(MateTime::Infinite),
            (0..=MAX_THINK_MS).prop_map(MateTime::Millis)
        ]),
        option::of(1..=MAX_DEPTH),
        option::of(1..=u32::MAX),
        vec(mv(), 0..4),
    )
        .prop_map(
            |(clock, depth, nodes, infinite, ponder, mate, perft, movestogo, searchmoves)| Go {
                clock,
                depth,
                nodes,
                infinite,
                ponder,
                mate,
                perft,
                movestogo,
                searchmoves,
            },
        )
}

fn gui_message() -> impl Strategy<Value = GuiMessage> {
    let setup = prop_oneof![
        Just(Setup::Startpos),
        joined("[0-9A-Z][A-Za-z0-9+/-]{0,10}", 5).prop_map(Setup::Sfen),
        joined("[0-9A-Z][A-Za-z0-9+/\\[\\]-]{0,10}", 7).prop_map(Setup::Fen),
        Just(Setup::Sfen(String::new())),
    ];
    prop_oneof![
        Just(GuiMessage::Usi),
        Just(GuiMessage::Uci),
        Just(GuiMessage::IsReady),
        Just(GuiMessage::UsiNewGame),
        Just(GuiMessage::UciNewGame),
        Just(GuiMessage::Stop),
        Just(GuiMessage::PonderHit),
        Just(GuiMessage::Quit),
        option::of(prop_oneof![
            Just(GameResult::Win),
            Just(GameResult::Lose),
            Just(GameResult::Draw)
        ])
        .prop_map(GuiMessage::GameOver),
        (
            joined(name_word(), 3),
            option::of(prop_oneof![
                Just(String::new()),
                joined("[a-z0-9<>]{1,6}", 3)
            ])
        )
            .prop_map(|(name, value)| GuiMessage::SetOption { name, value }),
        (setup, vec(mv(), 0..6))
            .prop_map(|(setup, moves)| GuiMessage::Position(PositionArgs { setup, moves })),
        go().prop_map(GuiMessage::Go),
    ]
}

fn score() -> impl Strategy<Value = Score> {
    (
        prop_oneof![
            any::<i32>().prop_map(ScoreValue::Cp),
            any::<i32>().prop_map(ScoreValue::Mate),
            any::<bool>().prop_map(ScoreValue::MateSign),
        ],
        option::of(prop_oneof![Just(Bound::Lower), Just(Bound::Upper)]),
    )
        .prop_map(|(value, bound)| Score { value, bound })
}

fn info() -> impl Strategy<Value = Info> {
    (
        (
            option::of(any::<u32>()),
            option::of(any::<u32>()),
            option::of(any::<u32>()),
            option::of(score()),
            option::of((0..=1000u32, 0..=1000u32, 0..=1000u32)),
        ),
        (
            option::of(any::<u64>()),
            option::of(any::<u64>()),
            option::of(any::<u64>()),
            option::of(any::<u32>()),
            option::of(mv()),
            vec(mv(), 0..5),
            option::of(text()),
        ),
    )
        .prop_map(
            |(
                (depth, seldepth, multipv, score, wdl),
                (nodes, nps, time, hashfull, currmove, pv, string),
            )| Info {
                depth,
                seldepth,
                multipv,
                score,
                wdl: wdl.map(|(win, draw, loss)| Wdl { win, draw, loss }),
                nodes,
                nps,
                time,
                hashfull,
                currmove,
                pv,
                string,
            },
        )
}

fn option_type() -> impl Strategy<Value = OptionType> {
    prop_oneof![
        any::<bool>().prop_map(OptionType::Check),
        (any::<i64>(), any::<i64>(), any::<i64>())
            .prop_map(|(default, min, max)| OptionType::Spin { default, min, max }),
        (name_word(), vec(name_word(), 0..4))
            .prop_map(|(default, vars)| OptionType::Combo { default, vars }),
        Just(OptionType::Button),
        text().prop_map(OptionType::String),
        text().prop_map(OptionType::Filename),
    ]
}

fn engine_message() -> impl Strategy<Value = EngineMessage> {
    prop_oneof![
        text().prop_map(EngineMessage::IdName),
        text().prop_map(EngineMessage::IdAuthor),
        (joined(name_word(), 3), option_type())
            .prop_map(|(name, kind)| EngineMessage::Option(OptionDecl { name, kind })),
        Just(EngineMessage::UsiOk),
        Just(EngineMessage::UciOk),
        Just(EngineMessage::ReadyOk),
        info().prop_map(EngineMessage::Info),
        (
            prop_oneof![
                mv().prop_map(BestMove::Move),
                Just(BestMove::Resign),
                Just(BestMove::Win),
                Just(BestMove::NoMove),
            ],
            option::of(mv())
        )
            .prop_map(|(best, ponder)| EngineMessage::BestMove { best, ponder }),
        prop_oneof![
            vec(mv(), 1..6).prop_map(Checkmate::Mate),
            Just(Checkmate::NoMate),
            Just(Checkmate::Timeout),
            Just(Checkmate::NotImplemented),
        ]
        .prop_map(EngineMessage::Checkmate),
        (mv(), any::<u64>()).prop_map(|(mv, nodes)| EngineMessage::PerftMove { mv, nodes }),
        any::<u64>().prop_map(EngineMessage::PerftTotal),
    ]
}

/// Lines made of the protocol's own words and numbers, which reach deeper into the
/// parsers than random text does.
fn wordy_line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        prop::sample::select(vec![
            "usi",
            "uci",
            "go",
            "position",
            "setoption",
            "name",
            "value",
            "moves",
            "startpos",
            "sfen",
            "fen",
            "mate",
            "depth",
            "perft",
            "btime",
            "movetime",
            "info",
            "score",
            "cp",
            "pv",
            "string",
            "wdl",
            "bestmove",
            "ponder",
            "option",
            "type",
            "spin",
            "combo",
            "var",
            "default",
            "min",
            "max",
            "check",
            "id",
            "checkmate",
            "Nodes",
            "searched:",
            "-",
            "+",
            ":",
            "lowerbound",
            "infinite",
            "gameover",
        ])
        .prop_map(str::to_string),
        any::<i64>().prop_map(|n| n.to_string()),
        "[-+]?[0-9]{1,25}",
        "\\PC{0,4}",
    ];
    vec(word, 0..12).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn gui_messages_parse_back_to_themselves(m in gui_message()) {
        let line = m.to_string();
        prop_assert_eq!(line.parse::<GuiMessage>(), Ok(m), "{}", line);
    }

    #[test]
    fn engine_messages_parse_back_to_themselves(m in engine_message()) {
        let line = m.to_string();
        prop_assert_eq!(line.parse::<EngineMessage>(), Ok(m), "{}", line);
    }

    #[test]
    fn no_text_panics_either_parser(line in prop_oneof![any::<String>(), wordy_line()]) {
        // Whatever is read, a message printed again reads as the same message.
        if let Ok(m) = line.parse::<GuiMessage>() {
            prop_assert_eq!(m.to_string().parse::<GuiMessage>(), Ok(m));
        }
        if let Ok(m) = line.parse::<EngineMessage>() {
            let again = m.to_string().parse::<EngineMessage>();
            prop_assert!(again.is_ok(), "{:?} -> {:?}", m, again);
        }
    }
}
