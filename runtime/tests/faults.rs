//! Fault injection at the runtime's doors: random and malformed datagrams into the input
//! mailbox, random command lines into the parser and into a running loop. Each case checks
//! that nothing panics, that no value the doors reject reaches the model (every input and
//! parameter stays finite and within its declaration), that the counters report what was
//! injected, and that the run goes on. Deterministic (a fixed xorshift seed), so a failure
//! repeats; the figures are in the book's real-time chapter.

use rtc_runtime::control::{self, Command, Message};
use rtc_runtime::door::{Admissible, ValueKind};
use rtc_runtime::io::Mailbox;
use rtc_runtime::{run, Config, Layout, Model, Slot};
use std::sync::atomic::Ordering;
use std::sync::mpsc;

/// xorshift64*: enough for picking cases, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

/// Inputs with doors of every kind: a bounded Real, an Integer, a Boolean, an unbounded Real.
fn inputs() -> Vec<Slot> {
    let slot = |name: &str, slot: usize, min: f64, max: f64, kind: ValueKind| Slot {
        name: name.into(),
        slot,
        offset: 0.0,
        admissible: Admissible { min, max, kind },
    };
    vec![
        slot("u", 0, -10.0, 10.0, ValueKind::Real),
        slot("n", 1, 0.0, 5.0, ValueKind::Integer),
        slot("b", 2, 0.0, 1.0, ValueKind::Boolean),
        slot("w", 3, f64::NEG_INFINITY, f64::INFINITY, ValueKind::Real),
    ]
}

/// Numbers as a sender might write them, well or badly.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2.5",
    "3",
    "5",
    "6",
    "10",
    "10.000001",
    "-10",
    "-11",
    "1e308",
    "1e999",
    "-1e999",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "infinity",
    "4.9e-324",
    "-0",
    "0x10",
    "1,5",
    "",
    "1e",
    "--1",
    "+7",
    " 7",
    "1_000",
    "٣",
];

const NAMES: &[&str] = &["u", "n", "b", "w", "zz", "U", "u ", "", "u.v", "ü"];

/// One datagram: a random mix of well-formed pairs and garbage, or random bytes.
fn datagram(r: &mut Rng) -> Vec<u8> {
    match r.below(4) {
        0 => (0..r.below(300)).map(|_| r.next() as u8).collect(),
        1 => {
            // Long: a flood of pairs in one datagram.
            let mut s = String::new();
            for _ in 0..r.below(2000) {
                s.push_str(&format!("u={} ", r.pick(NUMBERS)));
            }
            s.into_bytes()
        }
        _ => {
            let seps = [" ", ",", ";", "\n", "\t", "  "];
            let mut s = String::new();
            for _ in 0..1 + r.below(6) {
                s.push_str(&format!(
                    "{}={}{}",
                    r.pick(NAMES),
                    r.pick(NUMBERS),
                    seps[r.below(seps.len())]
                ));
            }
            s.into_bytes()
        }
    }
}

/// What the mailbox must have done with `text`: per input, the last value it admits (if any),
/// and how many values each door rejected; `None` when the datagram does not parse at all.
fn expected(text: &str, doors: &[Slot]) -> Option<(Vec<Option<f64>>, Vec<u64>)> {
    let mut last = vec![None; doors.len()];
    let mut bad = vec![0u64; doors.len()];
    for item in text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|s| !s.is_empty())
    {
        let (name, value) = item.split_once('=')?;
        let v: f64 = value.parse().ok()?;
        if let Some(i) = doors.iter().position(|d| d.name == name) {
            match doors[i].admissible.check(v) {
                Ok(v) => last[i] = Some(v),
                Err(_) => bad[i] += 1,
            }
        }
    }
    Some((last, bad))
}

/// 20 000 datagrams into a mailbox with doors: no panic; after each, every input holds what
/// the doors let through last (or its previous value), always finite and within its
/// declaration; the mailbox's counts of received datagrams and rejected values are those
/// injected.
#[test]
fn random_datagrams_never_pass_a_bad_value() {
    let doors = inputs();
    let mb = Mailbox::new(&doors);
    let mut r = Rng(0x5eed_1234_abcd_0001);
    let mut mem = [1.0, 2.0, 0.0, 0.0];
    let mut want = mem;
    let mut bad = [0u64; 4];
    let (mut parsed, mut refused_values) = (0u64, 0u64);
    const CASES: u64 = 20_000;
    for _ in 0..CASES {
        let bytes = datagram(&mut r);
        let text = String::from_utf8_lossy(&bytes);
        let result = mb.post(&text, "fuzz");
        mb.apply(&mut mem);
        if let Some((last, b)) = expected(&text, &doors) {
            parsed += 1;
            for i in 0..doors.len() {
                if let Some(v) = last[i] {
                    want[i] = v;
                }
                bad[i] += b[i];
                refused_values += b[i];
            }
            if b.iter().any(|&c| c > 0) {
                assert!(result.is_err(), "{text:?} was accepted whole");
            }
        }
        for (i, d) in doors.iter().enumerate() {
            assert!(
                d.admissible.check(mem[i]).is_ok(),
                "{text:?} let `{}` = {} in",
                d.name,
                mem[i]
            );
        }
        assert_eq!(
            mem.map(f64::to_bits),
            want.map(f64::to_bits),
            "after {text:?}"
        );
    }
    assert_eq!(mb.received.load(Ordering::Relaxed), CASES);
    let counted: Vec<(String, u64)> = doors
        .iter()
        .zip(bad)
        .filter(|(_, c)| *c > 0)
        .map(|(d, c)| (d.name.clone(), c))
        .collect();
    assert_eq!(mb.bad_values(), counted);
    eprintln!(
        "faults: {CASES} datagrams, {parsed} well-formed, {refused_values} values refused at the doors ({counted:?})"
    );
    assert!(
        parsed > 1000 && refused_values > 1000,
        "the cases exercise the doors"
    );
}

/// Random command lines: the parser never panics; it accepts some and refuses the others.
#[test]
fn random_command_lines_parse_or_are_refused() {
    let mut r = Rng(0x5eed_1234_abcd_0002);
    let words = [
        "set", "pause", "resume", "stop", "k", "u", "k=1", "=", "set k", "SET", "\u{0}", "é",
    ];
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..20_000 {
        let mut line = String::new();
        for _ in 0..r.below(5) {
            line.push_str(r.pick(&words));
            line.push(' ');
            if r.below(2) == 0 {
                line.push_str(r.pick(NUMBERS));
                line.push(' ');
            }
        }
        match control::parse(&line) {
            Ok(_) => ok += 1,
            Err(_) => refused += 1,
        }
    }
    eprintln!("faults: 20000 command lines, {ok} commands, {refused} refused");
    assert!(ok > 100 && refused > 100);
}

/// A model that checks, at every step, that its parameter and input are what the doors allow.
struct Guarded;

impl Model for Guarded {
    fn step(&mut self, mem: &mut [f64], _t: f64, h: f64) -> Result<(), rtc_runtime::StepError> {
        if !(0.0..=100.0).contains(&mem[1]) || !(-10.0..=10.0).contains(&mem[2]) {
            return Err(format!("a door let k = {} or u = {} in", mem[1], mem[2]).into());
        }
        mem[0] += h * (mem[1] * mem[2] - mem[0]);
        Ok(())
    }
    fn outputs(&mut self, mem: &[f64], out: &mut [f64]) {
        out[0] = mem[0];
    }
    fn parameters_changed(&mut self, _mem: &mut [f64]) -> Result<(), rtc_runtime::StepError> {
        Ok(())
    }
}

/// 5 000 random commands (good, bad, unknown, malformed) sent to a running loop: the run ends
/// at its stop time (or at a `stop`), never on a value a door refused; every refused `set`
/// is logged as refused.
#[test]
fn random_commands_into_a_running_loop() {
    let door = |min: f64, max: f64| Admissible {
        min,
        max,
        kind: ValueKind::Real,
    };
    let layout = Layout {
        inputs: vec![Slot {
            name: "u".into(),
            slot: 2,
            offset: 0.0,
            admissible: door(-10.0, 10.0),
        }],
        parameters: vec![Slot {
            name: "k".into(),
            slot: 1,
            offset: 0.0,
            admissible: door(0.0, 100.0),
        }],
        outputs: vec!["x".into()],
    };
    let mut r = Rng(0x5eed_1234_abcd_0003);
    let (tx, rx) = mpsc::channel::<Message>();
    let mut sent_bad = 0;
    for _ in 0..5_000 {
        let line = match r.below(6) {
            0 => format!("set k {}", r.pick(NUMBERS)),
            1 => format!("set u {}", r.pick(NUMBERS)),
            2 => format!("set {} 1", r.pick(NAMES)),
            3 => r.pick(&["pause", "resume", "bogus", "set", ""]).to_string(),
            _ => format!("set k={}", r.pick(NUMBERS)),
        };
        let msg = control::parse(&line);
        if let Ok(Command::Set { name, value }) = &msg {
            let d = layout
                .parameters
                .iter()
                .chain(&layout.inputs)
                .find(|s| &s.name == name);
            if d.is_some_and(|d| d.admissible.check(*value).is_err()) {
                sent_bad += 1;
            }
        }
        tx.send(msg).unwrap();
    }
    drop(tx);
    let mut cfg = Config::new(0.0, 1e-3, 2000);
    cfg.commands = Some(rx);
    let mut mem = [0.0, 1.0, 1.0];
    let report = run(&mut Guarded, &mut mem, &layout, &mut cfg);
    assert!(report.failure.is_none(), "{:?}", report.failure);
    let refused_by_doors = report
        .applied
        .iter()
        .filter(|a| {
            a.outcome
                .as_ref()
                .is_err_and(|e| e.contains("the value is"))
        })
        .count();
    assert_eq!(refused_by_doors, sent_bad);
    // The table counts the same, per variable, and every other refusal in its own rows.
    use rtc_runtime::door::Door;
    let by_doors =
        report.refused.count(Door::Command, "k") + report.refused.count(Door::Command, "u");
    assert_eq!(by_doors, sent_bad as u64);
    let refused_all = report.applied.iter().filter(|a| a.outcome.is_err()).count();
    assert_eq!(report.refused.total(), refused_all as u64);
    assert_eq!(
        report.applied.len(),
        5_000,
        "every command applied or refused"
    );
    eprintln!(
        "faults: 5000 commands into a running loop, {sent_bad} refused at the doors, {} frames",
        report.stats.frames
    );
}

/// `--bad-input stop`: a rejected UDP value, or a rejected `set`, ends the run at the frame
/// after it, naming the value and its source; the value was never applied.
#[test]
fn bad_input_stop_ends_the_run() {
    let layout = Layout {
        inputs: inputs().into_iter().take(1).collect(),
        parameters: Vec::new(),
        outputs: vec!["x".into()],
    };
    struct Still;
    impl Model for Still {
        fn step(&mut self, _: &mut [f64], _: f64, _: f64) -> Result<(), rtc_runtime::StepError> {
            Ok(())
        }
        fn outputs(&mut self, mem: &[f64], out: &mut [f64]) {
            out[0] = mem[0];
        }
        fn parameters_changed(&mut self, _: &mut [f64]) -> Result<(), rtc_runtime::StepError> {
            Ok(())
        }
    }
    // A datagram.
    let mb = std::sync::Arc::new(Mailbox::with_policy(
        &layout.inputs,
        rtc_runtime::door::BadInput::Stop,
    ));
    assert!(mb.post("u=nan", "10.0.0.7:5000").is_err());
    let mut cfg = Config::new(0.0, 1e-3, 1000);
    cfg.mailbox = Some(mb);
    cfg.bad_input = rtc_runtime::door::BadInput::Stop;
    let mut mem = [1.0];
    let report = run(&mut Still, &mut mem, &layout, &mut cfg);
    let stopped = report.stopped.expect("stopped").to_string();
    assert!(
        stopped.contains("`u` = NaN from 10.0.0.7:5000"),
        "{stopped}"
    );
    assert!(report.stats.frames < 1000, "it stopped early");
    assert_eq!(mem[0], 1.0, "never applied");
    assert!(report.last_input.is_none(), "nothing was applied");
    // A command.
    let (tx, rx) = mpsc::channel::<Message>();
    tx.send(control::parse("set u 11")).unwrap();
    let mut cfg = Config::new(0.0, 1e-3, 1000);
    cfg.commands = Some(rx);
    cfg.bad_input = rtc_runtime::door::BadInput::Stop;
    let report = run(&mut Still, &mut mem, &layout, &mut cfg);
    let why = report.stopped.expect("stopped");
    assert!(why.is_failure());
    let stopped = why.to_string();
    assert!(
        stopped.contains("set u 11: the value is above its max"),
        "{stopped}"
    );
    assert_eq!(mem[0], 1.0, "never applied");
}

/// A model whose output is its step count: x += 1 per step.
struct Counter;

impl Model for Counter {
    fn step(&mut self, mem: &mut [f64], _: f64, _: f64) -> Result<(), rtc_runtime::StepError> {
        mem[0] += 1.0;
        Ok(())
    }
    fn outputs(&mut self, mem: &[f64], out: &mut [f64]) {
        out[0] = mem[0];
    }
    fn parameters_changed(&mut self, _: &mut [f64]) -> Result<(), rtc_runtime::StepError> {
        Ok(())
    }
}

/// A device that takes `room` bytes and then fails every write as a full disk does; what it
/// took is in `taken`.
struct Full {
    taken: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    room: usize,
}

impl std::io::Write for Full {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut taken = self.taken.lock().unwrap();
        let n = buf.len().min(self.room - taken.len());
        if n == 0 && !buf.is_empty() {
            return Err(std::io::Error::from_raw_os_error(28)); // ENOSPC
        }
        taken.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Outputs to a device that fills up part way, to a UDP port nobody listens on, and a frame
/// log that fails: the run reaches its stop time (a sink's fault is not the plant's), every
/// byte written before the fault is exactly what the run would have written, the error is
/// reported at the end, and every datagram is either sent or counted as lost.
#[test]
fn outputs_to_a_full_device_and_a_closed_port() {
    use rtc_runtime::io::{CsvSink, OutputSink, UdpSink};
    use std::sync::{Arc, Mutex};
    let layout = Layout {
        inputs: Vec::new(),
        parameters: Vec::new(),
        outputs: vec!["x".into()],
    };
    const FRAMES: u64 = 3_000;
    let csv = |room: usize| {
        let taken = Arc::new(Mutex::new(Vec::new()));
        let sink = CsvSink::new(
            Box::new(Full {
                taken: taken.clone(),
                room,
            }),
            1,
        );
        (taken, sink)
    };
    let run_with = |sinks: Vec<Box<dyn OutputSink>>, log_room: Option<usize>| {
        let mut cfg = Config::new(0.0, 1e-3, FRAMES);
        cfg.selected = vec![0];
        cfg.sinks = sinks;
        if let Some(room) = log_room {
            let taken = Arc::new(Mutex::new(Vec::new()));
            cfg.frame_log = Some(Box::new(rtc_runtime::stats::CsvFrameLog::new(Box::new(
                Full { taken, room },
            ))));
        }
        let mut mem = [0.0];
        let report = run(&mut Counter, &mut mem, &layout, &mut cfg);
        (report, mem[0], cfg)
    };
    // The whole output, with room for all of it.
    let (all, good) = csv(usize::MAX);
    let (report, x, _) = run_with(vec![Box::new(good)], None);
    assert!(report.io_error.is_none());
    assert_eq!(x, FRAMES as f64);
    let all = all.lock().unwrap().clone();
    // A device full after a third of it (mid-row), a closed port, a failing frame log.
    let closed = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let room = all.len() / 3 + 7;
    let (part, full) = csv(room);
    let udp = UdpSink::new(&format!("127.0.0.1:{port}")).unwrap();
    let (report, x, cfg) = run_with(vec![Box::new(full), Box::new(udp)], Some(4096));
    assert!(report.failure.is_none() && report.stopped.is_none());
    assert_eq!(x, FRAMES as f64, "the run reached its stop time");
    assert_eq!(report.stats.frames, FRAMES);
    let error = report.io_error.expect("the fault is reported");
    assert!(
        error.contains("output: No space left on device") && error.contains("timing log: "),
        "both named: {error}"
    );
    let part = part.lock().unwrap().clone();
    assert_eq!(part.len(), room);
    assert_eq!(
        part[..],
        all[..room],
        "nothing written before the fault is lost"
    );
    let lost = cfg.sinks[1].lost();
    assert!(lost <= FRAMES + 1);
    eprintln!(
        "faults: {FRAMES} frames into a device full after {room} of {} bytes, a closed UDP port ({lost} datagrams refused by the network) and a failing frame log: run complete, output intact up to the fault",
        all.len()
    );
}

/// The last UDP input applied is in the report, with the frame whose inputs it was: what a
/// failure's message names as the last change from outside.
#[test]
fn the_last_udp_input_applied_is_reported() {
    let layout = Layout {
        inputs: inputs().into_iter().take(1).collect(),
        parameters: Vec::new(),
        outputs: vec!["x".into()],
    };
    let mb = std::sync::Arc::new(Mailbox::new(&layout.inputs));
    mb.post("u=2.5", "10.0.0.7:5000").unwrap();
    let mut cfg = Config::new(0.0, 1e-3, 10);
    cfg.mailbox = Some(mb);
    let mut mem = [0.0, 0.0, 0.0, 0.0];
    let report = run(&mut Counter, &mut mem, &layout, &mut cfg);
    let last = report.last_input.expect("an input was applied");
    assert_eq!(
        last.outcome,
        Ok(Command::Set {
            name: "u".into(),
            value: 2.5
        })
    );
    assert_eq!((last.time, last.frame), (0.0, 0));
}
