//! `rtc run --realtime` end to end: pacing, overrun handling, UDP inputs, outputs and
//! commands. The tests that count overruns use 20 ms frames and injected loads (see
//! `runtime/tests/frames.rs`); they run one at a time.

use crate::common;

use std::net::UdpSocket;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static SERIAL: Mutex<()> = Mutex::new(());

fn rtc() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rtc"));
    c.current_dir(common::repo_root())
        .env_remove("MODELICAPATH");
    c
}

/// The number of frames computed, from the summary's "(frame … us, N frames)".
fn summary_frames(err: &str) -> usize {
    err.split(" frames)")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("frame count in the summary")
}

fn free_port() -> u16 {
    UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("rtc-rt-{}-{name}", std::process::id()))
}

/// The acceptance run: 2 s of the n = 5 line (mixed mode) at a 1 ms frame takes 2 s of
/// wall time within 1 %, with the statistics printed.
#[test]
fn two_seconds_take_two_seconds() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let out = tmp("two.csv");
    let t0 = Instant::now();
    let o = rtc()
        .args([
            "run",
            "examples/VdPLine.mo",
            "--method",
            "mixed",
            "--implicit",
            "u_l",
            "--step",
            "1e-4",
            "--frame",
            "1e-3",
            "--duration",
            "2",
            "--realtime",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let elapsed = t0.elapsed().as_secs_f64();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    eprintln!("{err}");
    // The loop's own wall time, as printed.
    let wall: f64 = err
        .split("in ")
        .last()
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .expect("wall time in the summary");
    // Frames lost in a machine stall beyond what one doubled step makes up are dropped and
    // reported ("N frames behind"): the loop then ends that much later, on the clock.
    let behind: f64 = err
        .split(" frames behind")
        .next()
        .filter(|s| s.len() < err.len())
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0.0);
    let expected = 2.0 + behind * 1e-3;
    assert!(
        wall >= expected && wall <= expected + 0.02,
        "the loop took {wall} s, expected {expected} s ({behind} frames dropped)"
    );
    assert!(elapsed >= 2.0, "the process took {elapsed} s");
    for what in ["task execution time", "frame start jitter", "overruns:"] {
        assert!(err.contains(what), "{what} missing: {err}");
    }
    // A row per computed frame and the start (a catch-up frame covers two frames in one row).
    let frames = summary_frames(&err);
    let csv = std::fs::read_to_string(&out).unwrap();
    assert_eq!(csv.lines().count(), 1 + 1 + frames, "a row per frame");
    let _ = std::fs::remove_file(out);
}

#[test]
fn injected_overrun_is_counted_and_caught_up() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let log = tmp("timing.csv");
    let o = rtc()
        .args([
            "run",
            "examples/VdPLine.mo",
            "--method",
            "mixed",
            "--implicit",
            "u_l",
            "--step",
            "1e-4",
            "--frame",
            "0.02",
            "--duration",
            "1",
            "--realtime",
            "--grace",
            "0",
            "--inject-load",
            "15:25000",
            "--inject-load",
            "30:45000",
            "--out",
            "/dev/null",
            "--timing-log",
        ])
        .arg(&log)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("overruns: 2 (") && err.contains("longest run 1"),
        "{err}"
    );
    assert!(err.contains("2 steps lengthened to catch up"), "{err}");
    let text = std::fs::read_to_string(&log).unwrap();
    let rows: Vec<Vec<f64>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|c| c.parse().unwrap()).collect())
        .collect();
    let row = |f: f64| rows.iter().find(|r| r[0] == f);
    assert_eq!(row(15.0).unwrap()[5], 1.0, "frame 15 overran");
    assert!(row(16.0).is_none(), "frame 16 was lost");
    assert_eq!(row(17.0).unwrap()[2], 2e-4, "the next steps are doubled");
    assert_eq!(row(18.0).unwrap()[2], 1e-4);
    assert_eq!(
        row(33.0).unwrap()[2],
        2e-4,
        "two lost frames: still doubled, one dropped"
    );
    assert!(err.contains("1 frames behind"), "{err}");
    // Locked: each frame's computation ends at its clock frame's end (200 steps per frame),
    // less the frame dropped at frame 30.
    for r in &rows {
        let end = r[1] + 200.0 * r[2];
        let behind = if r[0] >= 33.0 { 0.02 } else { 0.0 };
        assert!(
            (end - (r[0] + 1.0) * 0.02 + behind).abs() < 1e-9,
            "frame {}",
            r[0]
        );
    }
    let _ = std::fs::remove_file(log);
}

/// Inputs and commands over UDP, outputs back over UDP: the DC motor driven with 12 V sent
/// as a datagram, its armature resistance raised by a command halfway.
#[test]
fn udp_inputs_commands_and_outputs() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (pin, pctl) = (free_port(), free_port());
    let receiver = UdpSocket::bind("127.0.0.1:0").unwrap();
    receiver
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let out_port = receiver.local_addr().unwrap().port();
    let csv = tmp("motor.csv");
    let child = rtc()
        .args([
            "run",
            "examples/DCMotor.mo",
            "--method",
            "trapezoid",
            "--frame",
            "0.01",
            "--duration",
            "1",
            "--realtime",
            "--vars",
            "u,i",
        ])
        .arg(format!("--inputs=udp:{pin}"))
        .arg(format!("--control=udp:{pctl}"))
        .arg("--control-token=k7-rig")
        .arg(format!("--outputs=udp:127.0.0.1:{out_port}"))
        .arg("--out")
        .arg(&csv)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first output datagram says the run is going.
    let mut buf = [0u8; 2048];
    let n = receiver.recv(&mut buf).unwrap();
    let first = String::from_utf8_lossy(&buf[..n]).into_owned();
    assert!(first.starts_with("time=0 u=0 i=0"), "{first}");
    let s = UdpSocket::bind("127.0.0.1:0").unwrap();
    std::thread::sleep(Duration::from_millis(100));
    s.send_to(b"u=12", ("127.0.0.1", pin)).unwrap();
    // Values the input's door rejects: never applied, counted, the run goes on.
    s.send_to(b"u=nan", ("127.0.0.1", pin)).unwrap();
    s.send_to(b"u=1e999", ("127.0.0.1", pin)).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    // Without the shared token a datagram is refused whole; with it, its commands apply.
    s.send_to(b"set R 1000", ("127.0.0.1", pctl)).unwrap();
    s.send_to(
        b"k7-rig set R nan\nset R 100\nset nope 1",
        ("127.0.0.1", pctl),
    )
    .unwrap();
    let mut datagrams = 1;
    let mut last = String::new();
    while let Ok(n) = receiver.recv(&mut buf) {
        datagrams += 1;
        last = String::from_utf8_lossy(&buf[..n]).into_owned();
        if last.starts_with("time=1 ") {
            break;
        }
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let frames = summary_frames(&err);
    assert_eq!(
        datagrams,
        frames + 1,
        "one datagram per computed frame and the start"
    );
    assert!(last.starts_with("time=1 u=12 i="), "{last}");
    // The command took effect at a frame boundary, logged with its time.
    let line = err.lines().find(|l| l.contains("set R 100")).expect(&err);
    let t_set: f64 = line
        .strip_prefix("rtc: t = ")
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .expect(line);
    assert!(
        (t_set * 100.0 - (t_set * 100.0).round()).abs() < 1e-9,
        "{line}"
    );
    assert!(err.contains("command refused: set nope"), "{err}");
    assert!(
        err.contains("command refused: a datagram from 127.0.0.1:")
            && err.contains("without the control token (ignored)"),
        "{err}"
    );
    assert!(!err.contains("set R 1000"), "{err}");
    assert!(
        err.contains("command refused: set R NaN: the value is not finite; `R` keeps 1.2"),
        "{err}"
    );
    assert!(
        err.contains("`u` = NaN from 127.0.0.1:") && err.contains("the value is not finite"),
        "{err}"
    );
    // The table of refusals at the end: per door and variable, with the first of each.
    let row = |door_and_name: &str| {
        err.lines()
            .find_map(|l| {
                let l = l.split_whitespace().collect::<Vec<_>>().join(" ");
                let rest = l.strip_prefix("rtc: ")?.strip_prefix(door_and_name)?;
                rest.split(' ').nth(1)?.parse::<u64>().ok()
            })
            .unwrap_or(0)
    };
    assert!(
        err.contains("5 values or commands refused at the doors, never applied"),
        "{err}"
    );
    assert_eq!(row("UDP input u"), 2, "{err}");
    assert_eq!(row("command R"), 1, "{err}");
    assert_eq!(row("command (no variable nope)"), 1, "{err}");
    assert_eq!(row("command (no token)"), 1, "{err}");
    // The input reached the model in a frame after it was sent, and the current responded;
    // after the resistance went up, the current falls towards 12/100 minus the back-EMF.
    let rows: Vec<Vec<f64>> = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|c| c.parse().unwrap()).collect())
        .collect();
    let on = rows
        .iter()
        .find(|r| r[1] == 12.0)
        .expect("the input arrived")[0];
    assert!((0.09..0.3).contains(&on), "12 V from t = {on}");
    let before = rows.iter().rfind(|r| r[0] <= t_set).unwrap();
    let end = rows.last().unwrap();
    assert!(before[2] > 1.0, "current before the change {}", before[2]);
    assert!(end[2] < 0.2, "current after R = 100: {}", end[2]);
    let _ = std::fs::remove_file(csv);
}

/// A run that fails after a change from outside says so: `set R -100` (no `min` on R, so the
/// door lets it in) makes the motor unstable, and the failure message names the command and
/// when it took effect, besides the variable that became non-finite.
#[test]
fn a_failure_names_the_last_change_from_outside() {
    use std::io::Write;
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut child = rtc()
        .args([
            "run",
            "examples/DCMotor.mo",
            "--input",
            "u=12",
            "--control",
            "stdin",
            "--realtime",
            "--duration",
            "1",
            "--out",
            "/dev/null",
        ])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"set R -100\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("became non-finite"), "{err}");
    assert!(
        err.contains("the last command applied before it: `set R -100` at t = "),
        "{err}"
    );
    // R < 0 makes the motor's electrical mode unstable: the states grew, and the message
    // says so (not a division by zero, not Newton).
    assert!(
        err.contains("the solution grew without bound before it: the largest state"),
        "{err}"
    );
}

/// The rectifier in real time at a 1 ms frame (100 steps of 1e-5 s per frame): its switching
/// events are handled and counted in the statistics.
#[test]
fn rectifier_in_real_time_counts_events() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let o = rtc()
        .args([
            "run",
            "examples/Rectifier.mo",
            "--method",
            "trapezoid",
            "--step",
            "1e-5",
            "--frame",
            "1e-3",
            "--duration",
            "0.5",
            "--realtime",
            "--out",
            "/dev/null",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // 0.5 s of a 50 Hz rectifier: two switchings per period and the one at t = 0.
    assert!(err.contains("events: 50 handled, 0 deferred"), "{err}");
}

/// A burst of events beyond those located per step, in real time at a 1 ms frame: at every
/// rising pass of the oscillator six thresholds are crossed in one step
/// (tests/models/EventBurst.mo); the four earliest are located and handled, the other two
/// deferred and counted, none lost.
#[test]
fn event_burst_in_real_time_is_deferred_and_counted() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let out = std::env::temp_dir().join(format!("rtc-burst-{}.csv", std::process::id()));
    let o = rtc()
        .args([
            "run",
            "tests/models/EventBurst.mo",
            "--method",
            "trapezoid",
            "--step",
            "1e-3",
            "--duration",
            "0.5",
            "--realtime",
            "--vars",
            "n1,n2,n3,n4,n5,n6",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // Five rising passes in 0.5 s (at 8.3 ms, then every 100 ms).
    assert!(err.contains("events: 20 handled, 10 deferred"), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let last = text.lines().last().unwrap();
    assert!(
        last.ends_with(",5,5,5,5,5,5"),
        "every event applied: {last}"
    );
    let _ = std::fs::remove_file(out);
}

/// `--ftz`: a value decaying through the subnormal range becomes subnormal without
/// flush-to-zero; with it no value is ever subnormal (here the decrement −0.1·x flushes to 0
/// once it would be subnormal, so x stops near 2e-307); `--timing-log` on an as-fast-as-possible run streams one row per
/// frame.
#[test]
fn flush_to_zero_and_batch_timing_log() {
    let model = tmp("decay.mo");
    std::fs::write(
        &model,
        "model Decay\n  Real x(start = 1e-300, fixed = true);\nequation\n  der(x) = -1000 * x;\nend Decay;\n",
    )
    .unwrap();
    let last_x = |extra: &[&str]| -> f64 {
        // 200 forward-Euler steps of 1e-4: x = 1e-300 · 0.9^200 ≈ 7e-310, subnormal.
        let o = rtc()
            .arg("run")
            .arg(&model)
            .args(["--method", "fe", "--step", "1e-4", "--stop", "0.02"])
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        let last = text.lines().last().unwrap();
        last.split(',').nth(1).unwrap().parse().unwrap()
    };
    let plain = last_x(&[]);
    assert!(
        plain > 0.0 && plain < f64::MIN_POSITIVE,
        "a subnormal without --ftz: {plain:e}"
    );
    if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
        let x = last_x(&["--ftz"]);
        assert!((f64::MIN_POSITIVE..1e-305).contains(&x), "flushed: {x:e}");
    }
    let log = tmp("batch-timing.csv");
    last_x(&["--timing-log", log.to_str().unwrap()]);
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("frame,time,h,lateness_us,exec_us,overrun,lost,grace,events")
    );
    assert_eq!(lines.count(), 200, "one row per frame");
}
