//! The client against fake engines. This test binary is its own fake engine: started with
//! `--fake-engine MODE` it speaks USI on standard input and output and misbehaves as MODE
//! says; started otherwise (by `cargo test`) it runs the tests, each of which starts it
//! again as an engine. No script, no shell.

use kshogi_usi_client::{Engine, EngineError, Garbage, PerftAnswer};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// The fake engine: answers `usi` and `isready`, and `go perft` as `mode` says.
fn fake_engine(mode: &str) -> ! {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    if mode == "silent" {
        std::thread::sleep(Duration::from_secs(60));
        std::process::exit(0);
    }
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let reply: String = match line.trim() {
            "usi" => "id name fake\nid author tests\noption name Threads type spin default 1 min 1 max 8\noption name Odd Knob type spin default 1\nusiok\n".into(),
            "isready" => "readyok\n".into(),
            "quit" => std::process::exit(0),
            l if l.starts_with("go perft") => match mode {
                "right" => "info string counting\n7g7f: 2\n7g7e: 3\n\nNodes searched: 5\n".into(),
                "badsum" => "7g7f: 2\n7g7e: 3\n\nNodes searched: 6\n".into(),
                "garbage" => "7g7f: 2\nhello world\n".into(),
                "overflow" => format!("7g7f: {m}\n7g7e: {m}\nNodes searched: 0\n", m = u64::MAX),
                "endless" => {
                    // One line without end, far over the client's limit (64 KiB).
                    let chunk = vec![b'7'; 1 << 16];
                    for _ in 0..1024 {
                        if out.write_all(&chunk).is_err() {
                            break;
                        }
                    }
                    std::process::exit(0);
                }
                "crash" => {
                    eprintln!("fake engine: assertion failed");
                    std::process::exit(3);
                }
                "hang" => {
                    std::thread::sleep(Duration::from_secs(60));
                    std::process::exit(0);
                }
                _ => String::new(),
            },
            _ => String::new(),
        };
        let _ = out.write_all(reply.as_bytes());
        let _ = out.flush();
    }
    std::process::exit(0)
}

/// Starts this binary as the fake engine `mode`: a 1 s read timeout where the test waits for
/// it (`hang`, `silent`), 20 s elsewhere, so that a loaded machine does not fail a test.
fn start(mode: &str) -> Engine {
    let me = std::env::current_exe().expect("the test binary's path");
    let argv = vec![
        me.to_string_lossy().into_owned(),
        "--fake-engine".into(),
        mode.into(),
    ];
    let timeout = Duration::from_secs(if matches!(mode, "hang" | "silent") {
        1
    } else {
        20
    });
    Engine::spawn_argv(&argv, timeout).expect("the fake engine starts")
}

fn perft(mode: &str) -> Result<PerftAnswer, EngineError> {
    let mut e = start(mode);
    let info = e.handshake()?;
    assert_eq!(info.name.as_deref(), Some("fake"));
    assert_eq!(info.option_names(), ["Threads"]);
    // What the engine declared decides what may be set: the name in any case, the value
    // within its range.
    assert!(info.check_option("threads", "8").is_ok());
    let refused = info.check_option("Threads", "9").unwrap_err();
    assert!(matches!(refused, EngineError::Option(_)), "{refused:?}");
    assert_eq!(
        refused.to_string(),
        "option Threads takes a whole number from 1 to 8, found `9`"
    );
    let unknown = info.check_option("Hash", "16").unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "the engine declares no option `Hash` (its options: Threads)"
    );
    // An option line that does not parse (a spin without its range) is kept, and its
    // option is set unchecked rather than called unknown.
    assert_eq!(
        info.unread_options,
        ["option name Odd Knob type spin default 1"]
    );
    assert!(info.check_option("odd knob", "7").is_ok());
    e.is_ready()?;
    e.position("startpos-ish b - 1", &["7g7f".into()])?;
    let timeout = e.timeout;
    e.perft(2, Instant::now() + timeout)
}

fn right_answer() {
    let a = perft("right").unwrap();
    assert_eq!(a.nodes, 5);
    assert_eq!(a.divide, [("7g7f".to_string(), 2), ("7g7e".to_string(), 3)]);
}

fn a_sum_that_does_not_add_up_is_garbage() {
    let e = perft("badsum").unwrap_err();
    assert!(
        matches!(
            &e,
            EngineError::Garbage {
                reason: Garbage::DivideSum(Some(5)),
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().ends_with(": its divide adds up to 5"), "{e}");
}

fn garbage_names_the_line() {
    let e = perft("garbage").unwrap_err();
    assert!(
        matches!(&e, EngineError::Garbage { line, .. } if line == "hello world"),
        "{e:?}"
    );
    assert!(e.to_string().contains("`hello world`"), "{e}");
}

fn counts_that_add_up_past_u64_are_garbage() {
    let e = perft("overflow").unwrap_err();
    assert!(
        matches!(
            &e,
            EngineError::Garbage {
                reason: Garbage::DivideSum(None),
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("more than 2^64"), "{e}");
}

fn a_line_over_64_kib_is_garbage() {
    let e = perft("endless").unwrap_err();
    let EngineError::Garbage { line, reason, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(reason, &Garbage::TooLong);
    assert_eq!(reason.to_string(), "the line is longer than 65536 bytes");
    assert!(
        line.starts_with("7777") && line.len() < 300,
        "quoted cut: {line}"
    );
}

fn a_crash_gives_the_exit_status_and_error_output() {
    let e = perft("crash").unwrap_err();
    let EngineError::Crashed { status, stderr, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(status, "exit status 3");
    assert_eq!(stderr, &["fake engine: assertion failed"]);
}

fn a_hang_times_out() {
    let start = Instant::now();
    let e = perft("hang").unwrap_err();
    assert!(matches!(e, EngineError::Timeout { .. }), "{e:?}");
    assert!(start.elapsed() < Duration::from_secs(5));
}

fn a_silent_engine_times_out_in_the_handshake_and_is_killed() {
    let mut e = start("silent");
    let pid = e.id();
    let err = e.handshake().unwrap_err();
    assert!(
        matches!(&err, EngineError::Timeout { waiting_for, .. } if waiting_for == "`usiok`"),
        "{err:?}"
    );
    drop(e);
    // Killed and reaped by the drop: no such process any more.
    #[cfg(target_os = "linux")]
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
    let _ = pid;
}

fn a_timeout_too_large_for_an_instant_is_no_panic() {
    let mut e = start("right");
    e.timeout = Duration::MAX;
    e.handshake().unwrap();
    e.is_ready().unwrap();
    assert!(e.quit(Duration::MAX).expect("it exits").success());
}

fn quit_ends_the_engine() {
    let mut e = start("right");
    e.handshake().unwrap();
    let status = e.quit(Duration::from_secs(2)).expect("it exits");
    assert!(status.success());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--fake-engine") {
        fake_engine(args.get(i + 1).map_or("right", String::as_str));
    }
    let filter = args.iter().skip(1).find(|a| !a.starts_with('-')).cloned();
    // Every test, by name (a function left out of this list would be a dead-code warning,
    // which clippy -D warnings fails).
    let tests: &[(&str, fn())] = &[
        (stringify!(right_answer), right_answer),
        (
            stringify!(a_sum_that_does_not_add_up_is_garbage),
            a_sum_that_does_not_add_up_is_garbage,
        ),
        (stringify!(garbage_names_the_line), garbage_names_the_line),
        (
            stringify!(counts_that_add_up_past_u64_are_garbage),
            counts_that_add_up_past_u64_are_garbage,
        ),
        (
            stringify!(a_line_over_64_kib_is_garbage),
            a_line_over_64_kib_is_garbage,
        ),
        (
            stringify!(a_crash_gives_the_exit_status_and_error_output),
            a_crash_gives_the_exit_status_and_error_output,
        ),
        (stringify!(a_hang_times_out), a_hang_times_out),
        (
            stringify!(a_silent_engine_times_out_in_the_handshake_and_is_killed),
            a_silent_engine_times_out_in_the_handshake_and_is_killed,
        ),
        (
            stringify!(a_timeout_too_large_for_an_instant_is_no_panic),
            a_timeout_too_large_for_an_instant_is_no_panic,
        ),
        (stringify!(quit_ends_the_engine), quit_ends_the_engine),
    ];
    let (mut passed, mut failed) = (0, 0);
    for (name, test) in tests {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        match std::panic::catch_unwind(test) {
            Ok(()) => {
                println!("test {name} ... ok");
                passed += 1;
            }
            Err(_) => {
                println!("test {name} ... FAILED");
                failed += 1;
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        std::process::exit(1);
    }
}
