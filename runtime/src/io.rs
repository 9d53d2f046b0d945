//! Inputs sampled at the start of a frame (the A/D converters with their zero-order hold) and
//! outputs written at its end (the D/A converters), Cellier & Kofman §10.1 and §10.9.
//!
//! Sources: a CSV time series (held between samples), UDP datagrams (a mailbox per input:
//! the latest value wins, read without locks), constants. Sinks: a CSV log and UDP datagrams.
//!
//! Datagram format (both directions, UTF-8 text): `name=value` pairs separated by spaces,
//! commas, semicolons or newlines, e.g. `u=12.5 load=0.3`. Output datagrams carry the
//! simulated time first: `time=0.125 w=31.19 i=7.67`, one datagram per frame. Values are
//! printed in the shortest form that reads back exactly.

use crate::door::{Admissible, BadInput, Door, Tally};
use crate::Slot;
use std::io::Write;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Appends `x` to `out` in the shortest text that reads back to the same double: Rust's
/// shortest round-trip digits, in positional form (`0.125`, `1500`) or exponent form (`1e250`,
/// `2.5e-200`), whichever is shorter (positional on a tie). Non-finite values are `NaN`, `inf`
/// and `-inf`, which `str::parse::<f64>` and Python's `float` read back.
pub fn push_f64(out: &mut String, x: f64) {
    use std::fmt::Write as _;
    if !x.is_finite() {
        let _ = write!(out, "{x}");
        return;
    }
    // `{:e}` gives the shortest round-trip digits d[.ddd]e<exp>; the positional form has the
    // same digits, so its length follows from the digit count and the exponent.
    let mut sci = [0u8; 32];
    let len = {
        let mut w = SliceWriter {
            buf: &mut sci,
            len: 0,
        };
        let _ = write!(w, "{x:e}");
        w.len
    };
    let sci = std::str::from_utf8(&sci[..len]).unwrap_or("0e0");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits = mantissa.len() - usize::from(mantissa.contains('.'));
    let positional = sign.len()
        + if exp >= 0 {
            let int_digits = exp as usize + 1;
            if digits <= int_digits {
                int_digits
            } else {
                digits + 1
            }
        } else {
            // 0.000ddd
            2 + (-exp - 1) as usize + digits
        };
    if positional <= sci.len() {
        let _ = write!(out, "{x}");
    } else {
        out.push_str(sci);
    }
}

/// A `fmt::Write` into a fixed buffer (formatting a double without allocating).
struct SliceWriter<'b> {
    buf: &'b mut [u8],
    len: usize,
}

impl std::fmt::Write for SliceWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(std::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Parses a datagram into `(name, value)` pairs; the error names the first bad item.
pub fn parse_pairs(text: &str) -> Result<Vec<(&str, f64)>, String> {
    let mut out = Vec::new();
    for item in text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|s| !s.is_empty())
    {
        let Some((name, value)) = item.split_once('=') else {
            return Err(format!("`{item}`: expected name=value"));
        };
        let v: f64 = value
            .parse()
            .map_err(|_| format!("`{item}`: `{value}` is not a number"))?;
        out.push((name, v));
    }
    Ok(out)
}

/// Input samples from a CSV file: a `time` column, then one column per input.
#[derive(Clone, Debug, Default)]
pub struct CsvInputs {
    /// Nondecreasing sample times.
    pub times: Vec<f64>,
    /// One value per sample time for each input column.
    pub values: Vec<Vec<f64>>,
    /// (memory slot, its offset in the step, column, cursor): an input read at stage times
    /// has one slot per stage.
    targets: Vec<(usize, f64, usize, usize)>,
}

impl CsvInputs {
    /// Parses `text` (from the file `file`, named in errors as `file:line: …`) against the
    /// model's inputs.
    pub fn parse(file: &str, text: &str, inputs: &[Slot]) -> Result<CsvInputs, String> {
        let at = |line: usize, msg: String| format!("{file}:{line}: {msg}");
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let Some((_, head)) = lines.next() else {
            return Err(at(
                1,
                "empty file; expected a header `time,<input>,...`".into(),
            ));
        };
        let names: Vec<&str> = head.split(',').map(str::trim).collect();
        if names.first() != Some(&"time") {
            return Err(at(1, "the first column must be `time`".into()));
        }
        let mut targets: Vec<(usize, f64, usize, usize)> = Vec::new();
        // Per column, its input's door.
        let mut doors: Vec<Admissible> = Vec::new();
        for (col, n) in names[1..].iter().enumerate() {
            let Some(input) = inputs.iter().find(|s| s.name == *n) else {
                let all: Vec<&str> = inputs.iter().map(|s| s.name.as_str()).collect();
                let which = if all.is_empty() {
                    " (it has no inputs)".to_string()
                } else {
                    format!(" (its inputs: {})", all.join(", "))
                };
                return Err(at(1, format!("the model has no input `{n}`{which}")));
            };
            if names[1..col + 1].contains(n) {
                return Err(at(1, format!("input `{n}` appears twice")));
            }
            doors.push(input.admissible);
            for s in inputs.iter().filter(|s| s.name == *n) {
                targets.push((s.slot, s.offset, col, 0));
            }
        }
        let mut values: Vec<Vec<f64>> = vec![Vec::new(); names.len() - 1];
        let mut times: Vec<f64> = Vec::new();
        for (i, line) in lines {
            let cells: Vec<&str> = line.split(',').map(str::trim).collect();
            if cells.len() != names.len() {
                return Err(at(
                    i + 1,
                    format!("{} values, the header has {}", cells.len(), names.len()),
                ));
            }
            let mut row = Vec::with_capacity(cells.len());
            for c in cells {
                match c.parse::<f64>() {
                    Ok(v) if v.is_finite() => row.push(v),
                    _ => return Err(at(i + 1, format!("`{c}` is not a finite number"))),
                }
            }
            if times.last().is_some_and(|&t| row[0] < t) {
                return Err(at(i + 1, "times must not decrease".into()));
            }
            for (k, door) in doors.iter().enumerate() {
                if let Err(why) = door.check(row[k + 1]) {
                    return Err(at(
                        i + 1,
                        format!("`{}` = {}: the value is {why}", names[k + 1], row[k + 1]),
                    ));
                }
            }
            times.push(row[0]);
            for (k, c) in values.iter_mut().enumerate() {
                c.push(row[k + 1]);
            }
        }
        if times.is_empty() {
            return Err(at(2, "no samples after the header".into()));
        }
        Ok(CsvInputs {
            times,
            values,
            targets,
        })
    }

    /// Reads and parses a file.
    pub fn read(path: &std::path::Path, inputs: &[Slot]) -> Result<CsvInputs, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Self::parse(&path.display().to_string(), &text, inputs)
    }

    /// The slots this source drives.
    pub fn slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.targets.iter().map(|c| c.0)
    }

    /// Writes the held values for a step from `t` of length `h`: each slot takes the value
    /// at t + offset·h (the last sample at or before that time; the first sample before the
    /// first time). Steps are visited in nondecreasing order.
    pub fn apply(&mut self, mem: &mut [f64], t: f64, h: f64) {
        for (slot, offset, col, cursor) in self.targets.iter_mut() {
            let at = t + *offset * h;
            while *cursor + 1 < self.times.len() && self.times[*cursor + 1] <= at {
                *cursor += 1;
            }
            mem[*slot] = self.values[*col][*cursor];
        }
    }
}

/// Per-input mailboxes filled by a receiving thread: the latest value wins.
pub struct Mailbox {
    slots: Vec<usize>,
    names: Vec<String>,
    admissible: Vec<Admissible>,
    bits: Vec<AtomicU64>,
    fresh: Vec<AtomicBool>,
    /// Datagram items that named no input or did not parse.
    pub rejected: AtomicU64,
    pub received: AtomicU64,
    /// What the door refused, per input (not finite, out of `min`/`max`, not of the input's
    /// type: the input kept its last good value) and per name that is no input.
    pub tally: Tally,
    /// The first rejected value's message, when the run should stop for it
    /// (`--bad-input stop`).
    first_bad: Mutex<Option<String>>,
    policy: BadInput,
    stop: AtomicBool,
    /// The input `apply` wrote last (index + 1; 0 for none), for a failure's message.
    last_applied: AtomicU64,
    last_bits: AtomicU64,
}

impl Mailbox {
    pub fn new(inputs: &[Slot]) -> Mailbox {
        Mailbox::with_policy(inputs, BadInput::Hold)
    }

    pub fn with_policy(inputs: &[Slot], policy: BadInput) -> Mailbox {
        Mailbox {
            slots: inputs.iter().map(|s| s.slot).collect(),
            names: inputs.iter().map(|s| s.name.clone()).collect(),
            admissible: inputs.iter().map(|s| s.admissible).collect(),
            bits: inputs.iter().map(|_| AtomicU64::new(0)).collect(),
            fresh: inputs.iter().map(|_| AtomicBool::new(false)).collect(),
            rejected: AtomicU64::new(0),
            received: AtomicU64::new(0),
            tally: Tally::default(),
            first_bad: Mutex::new(None),
            policy,
            stop: AtomicBool::new(false),
            last_applied: AtomicU64::new(0),
            last_bits: AtomicU64::new(0),
        }
    }

    /// Stores the values of one datagram (`from`: its sender, for messages); returns the
    /// problems, if any. A value the input's door rejects is not stored; each refusal is
    /// counted in [`Mailbox::tally`], and the problems of this datagram are returned (the
    /// receiving thread reports those that are the first of their row).
    pub fn post(&self, text: &str, from: &str) -> Result<(), String> {
        self.post_reporting(text, from).map_err(|(all, _)| all)
    }

    /// As [`Mailbox::post`]; on problems: (all of them, those that were the first of their
    /// row of the tally: to report once).
    pub fn post_reporting(&self, text: &str, from: &str) -> Result<(), (String, Vec<String>)> {
        self.received.fetch_add(1, Ordering::Relaxed);
        let pairs = match parse_pairs(text) {
            Ok(p) => p,
            Err(e) => {
                self.rejected.fetch_add(1, Ordering::Relaxed);
                let first = self
                    .tally
                    .refuse(Door::Udp, "(unparsable)", || format!("from {from}: {e}"));
                return Err((e, first.into_iter().collect()));
            }
        };
        let mut problems = Vec::new();
        let mut firsts = Vec::new();
        for (name, v) in pairs {
            // Every slot of the input (one per stage time for multi-stage formulas): a value
            // that arrives in real time is the best available for all of them.
            let mut found = false;
            let mut refused = false;
            for (i, n) in self.names.iter().enumerate() {
                if n != name {
                    continue;
                }
                found = true;
                if let Err(why) = self.admissible[i].check(v) {
                    if !refused {
                        let message = format!(
                            "`{name}` = {v} from {from}: the value is {why}; `{name}` keeps its last value"
                        );
                        if let Some(first) = self.tally.refuse(Door::Udp, name, || message.clone())
                        {
                            firsts.push(first);
                        }
                        if self.policy == BadInput::Stop {
                            let mut first =
                                self.first_bad.lock().unwrap_or_else(|e| e.into_inner());
                            if first.is_none() {
                                *first = Some(message.clone());
                            }
                            self.stop.store(true, Ordering::Release);
                        }
                        problems.push(message);
                    }
                    refused = true;
                    continue;
                }
                self.bits[i].store(v.to_bits(), Ordering::Relaxed);
                self.fresh[i].store(true, Ordering::Release);
            }
            if !found {
                self.rejected.fetch_add(1, Ordering::Relaxed);
                let message = format!("no input named {name}");
                if let Some(first) =
                    self.tally
                        .refuse(Door::Udp, &format!("(no input {name})"), || {
                            format!("from {from}: {message}")
                        })
                {
                    firsts.push(first);
                }
                problems.push(message);
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err((problems.join("; "), firsts))
        }
    }

    /// Per input, the values its door rejected: (name, count), those with any.
    pub fn bad_values(&self) -> Vec<(String, u64)> {
        let mut out: Vec<(String, u64)> = Vec::new();
        for n in &self.names {
            let c = self.tally.count(Door::Udp, n);
            if c > 0 && !out.iter().any(|(m, _)| m == n) {
                out.push((n.clone(), c));
            }
        }
        out
    }

    /// Under `--bad-input stop`, once a value was rejected: its message (the run stops).
    pub fn stop_asked(&self) -> Option<String> {
        if !self.stop.load(Ordering::Acquire) {
            return None;
        }
        self.first_bad
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Copies every value that arrived since the last call into `mem`; true when one did.
    pub fn apply(&self, mem: &mut [f64]) -> bool {
        let mut any = false;
        for (i, f) in self.fresh.iter().enumerate() {
            if f.swap(false, Ordering::Acquire) {
                let bits = self.bits[i].load(Ordering::Relaxed);
                mem[self.slots[i]] = f64::from_bits(bits);
                self.last_applied.store(i as u64 + 1, Ordering::Relaxed);
                self.last_bits.store(bits, Ordering::Relaxed);
                any = true;
            }
        }
        any
    }

    /// The input `apply` wrote last and the value it wrote, if any.
    pub fn last_applied(&self) -> Option<(String, f64)> {
        match self.last_applied.load(Ordering::Relaxed) {
            0 => None,
            i => Some((
                self.names[i as usize - 1].clone(),
                f64::from_bits(self.last_bits.load(Ordering::Relaxed)),
            )),
        }
    }
}

/// Binds `addr` and starts a thread that posts every datagram into `mailbox`. Returns the
/// bound address (port 0 picks a free one).
pub fn spawn_udp_inputs(addr: &str, mailbox: Arc<Mailbox>) -> Result<SocketAddr, String> {
    let sock = UdpSocket::bind(addr).map_err(|e| format!("cannot bind UDP {addr}: {e}"))?;
    let local = sock.local_addr().map_err(|e| e.to_string())?;
    std::thread::Builder::new()
        .name("rtc-udp-inputs".into())
        .spawn(move || {
            let mut buf = [0u8; 65536];
            while let Ok((n, from)) = sock.recv_from(&mut buf) {
                let text = String::from_utf8_lossy(&buf[..n]);
                // The first refusal of each input (or kind of malformed item) is reported
                // as it comes; the rest are counted, and tabled at the end of the run.
                if let Err((_, firsts)) = mailbox.post_reporting(&text, &from.to_string()) {
                    for f in firsts {
                        eprintln!("rtc: warning: UDP input refused: {f} (further refusals of it are counted)");
                    }
                }
            }
        })
        .map_err(|e| e.to_string())?;
    Ok(local)
}

/// Where outputs go at the end of a frame.
pub trait OutputSink {
    /// Column names, once before the first frame.
    fn start(&mut self, names: &[&str]) -> std::io::Result<()>;
    /// The first frame from `frame` on that the sink records (the start and the last frame,
    /// numbered 0, are always recorded): the loop evaluates the outputs only for frames some
    /// sink records.
    fn next_row(&self, frame: u64) -> u64 {
        frame
    }
    /// One frame's outputs at simulated time `t`.
    fn write(&mut self, frame: u64, t: f64, values: &[f64]) -> std::io::Result<()>;
    /// The outputs just before or just after an event at `t` (between frames, when the run
    /// records events: [`crate::Config::event_rows`]); ignored unless the sink keeps them.
    fn write_event(&mut self, _t: f64, _values: &[f64]) -> std::io::Result<()> {
        Ok(())
    }
    fn finish(&mut self) -> std::io::Result<()>;
    /// Rows this sink could not deliver and dropped without ending the run (a datagram the
    /// network refused); a file's write error is an error instead.
    fn lost(&self) -> u64 {
        0
    }
}

/// A CSV log: `time,<names>`, a row every `every` frames (and the last one).
pub struct CsvSink {
    out: Box<dyn Write>,
    every: u64,
    line: String,
}

impl CsvSink {
    pub fn new(out: Box<dyn Write>, every: u64) -> CsvSink {
        CsvSink {
            out,
            every: every.max(1),
            line: String::with_capacity(4096),
        }
    }
}

impl OutputSink for CsvSink {
    fn start(&mut self, names: &[&str]) -> std::io::Result<()> {
        // One field per column: a model without outputs has the time column alone.
        let mut header = String::from("time");
        for n in names {
            header.push(',');
            header.push_str(&csv_field(n));
        }
        writeln!(self.out, "{header}")
    }

    fn next_row(&self, frame: u64) -> u64 {
        frame.div_ceil(self.every).saturating_mul(self.every)
    }

    fn write(&mut self, frame: u64, t: f64, values: &[f64]) -> std::io::Result<()> {
        if !frame.is_multiple_of(self.every) {
            return Ok(());
        }
        self.write_event(t, values)
    }

    /// Event rows are written whatever the interval: a row before and a row after each event,
    /// at its time, as a result file keeps them.
    fn write_event(&mut self, t: f64, values: &[f64]) -> std::io::Result<()> {
        self.line.clear();
        push_f64(&mut self.line, t);
        for &v in values {
            self.line.push(',');
            push_f64(&mut self.line, v);
        }
        self.line.push('\n');
        self.out.write_all(self.line.as_bytes())
    }

    fn finish(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// One datagram per frame to `target`: `time=<t> name=value ...`.
pub struct UdpSink {
    sock: UdpSocket,
    target: SocketAddr,
    names: Vec<String>,
    buf: String,
    pub errors: u64,
}

impl UdpSink {
    pub fn new(target: &str) -> Result<UdpSink, String> {
        use std::net::ToSocketAddrs;
        let target = target
            .to_socket_addrs()
            .map_err(|e| format!("UDP output {target}: {e}"))?
            .next()
            .ok_or_else(|| format!("UDP output {target}: no address"))?;
        let bind = if target.is_ipv4() {
            "0.0.0.0:0"
        } else {
            "[::]:0"
        };
        let sock = UdpSocket::bind(bind).map_err(|e| format!("UDP output: {e}"))?;
        sock.set_nonblocking(true).map_err(|e| e.to_string())?;
        Ok(UdpSink {
            sock,
            target,
            names: Vec::new(),
            buf: String::with_capacity(4096),
            errors: 0,
        })
    }
}

impl OutputSink for UdpSink {
    fn start(&mut self, names: &[&str]) -> std::io::Result<()> {
        self.names = names.iter().map(|s| s.to_string()).collect();
        Ok(())
    }

    fn write(&mut self, _frame: u64, t: f64, values: &[f64]) -> std::io::Result<()> {
        use std::fmt::Write as _;
        self.buf.clear();
        self.buf.push_str("time=");
        push_f64(&mut self.buf, t);
        for (n, &v) in self.names.iter().zip(values) {
            let _ = write!(self.buf, " {n}=");
            push_f64(&mut self.buf, v);
        }
        // A full socket buffer or an absent receiver must not stall the frame: count it.
        if self.sock.send_to(self.buf.as_bytes(), self.target).is_err() {
            self.errors += 1;
        }
        Ok(())
    }

    fn lost(&self) -> u64 {
        self.errors
    }

    fn finish(&mut self) -> std::io::Result<()> {
        if self.errors > 0 {
            eprintln!(
                "rtc: warning: {} output datagrams to {} could not be sent",
                self.errors, self.target
            );
        }
        Ok(())
    }
}

/// A CSV field as RFC 4180 writes it: quoted where it holds a comma or a quote (a matrix
/// element `m[1,2]`), its quotes doubled.
pub fn csv_field(name: &str) -> String {
    if name.contains([',', '"']) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}

/// The fields of a CSV line, quoted fields unquoted (the inverse of [`csv_field`]).
pub fn csv_fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut field).trim().to_string()),
            c => field.push(c),
        }
    }
    out.push(field.trim().to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots() -> Vec<Slot> {
        vec![
            Slot {
                name: "u".into(),
                slot: 3,
                offset: 0.0,
                admissible: Admissible::ANY,
            },
            Slot {
                name: "v".into(),
                slot: 5,
                offset: 0.0,
                admissible: Admissible {
                    min: 0.0,
                    max: 10.0,
                    kind: crate::door::ValueKind::Real,
                },
            },
        ]
    }

    fn text(x: f64) -> String {
        let mut s = String::new();
        push_f64(&mut s, x);
        s
    }

    #[test]
    fn numbers_are_shortest_and_read_back() {
        for (x, want) in [
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (0.1, "0.1"),
            (1500.0, "1500"),
            (123456.0, "123456"),
            (100.0, "100"),
            (1000.0, "1e3"),
            (1e6, "1e6"),
            (1.5e7, "1.5e7"),
            (1e250, "1e250"),
            (1e-200, "1e-200"),
            (2.5e-7, "2.5e-7"),
            (0.01, "0.01"),
            (0.001, "1e-3"),
            (0.125, "0.125"),
            (0.0001, "1e-4"),
            (-3.25e-5, "-3.25e-5"),
            (f64::MAX, "1.7976931348623157e308"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            (5e-324, "5e-324"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(text(x), want, "{x:e}");
        }
        assert_eq!(text(f64::NAN), "NaN");
        // Random bit patterns: every finite double reads back bitwise, and no text is longer
        // than either of Rust's two shortest forms.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = f64::from_bits(state);
            let t = text(x);
            if x.is_nan() {
                assert!(t.parse::<f64>().unwrap().is_nan());
                continue;
            }
            assert_eq!(t.parse::<f64>().unwrap().to_bits(), x.to_bits(), "{t}");
            assert!(t.len() <= format!("{x}").len().min(format!("{x:e}").len()));
        }
    }

    #[test]
    fn pairs() {
        assert_eq!(
            parse_pairs("u=1.5, v=-2\nw=3e2").unwrap(),
            vec![("u", 1.5), ("v", -2.0), ("w", 300.0)]
        );
        assert!(parse_pairs("u 1").is_err());
        assert!(parse_pairs("u=x").is_err());
    }

    #[test]
    fn csv_holds_values() {
        let mut c = CsvInputs::parse("f", "time,v\n0,1\n0.5,2\n1,3\n", &slots()).unwrap();
        let mut mem = [0.0; 6];
        for (t, want) in [(0.0, 1.0), (0.49, 1.0), (0.5, 2.0), (0.99, 2.0), (7.0, 3.0)] {
            c.apply(&mut mem, t, 0.0);
            assert_eq!(mem[5], want, "t = {t}");
        }
        assert_eq!(mem[3], 0.0);
        let e = CsvInputs::parse("f", "time,x\n0,1\n", &slots()).unwrap_err();
        assert_eq!(e, "f:1: the model has no input `x` (its inputs: u, v)");
        let e = CsvInputs::parse("f", "time,v\n0,1\n1,12\n", &slots()).unwrap_err();
        assert_eq!(e, "f:3: `v` = 12: the value is above its max = 10");
    }

    #[test]
    fn mailbox_keeps_the_latest() {
        let m = Mailbox::new(&slots());
        let mut mem = [0.0; 6];
        m.post("u=1", "test").unwrap();
        m.post("u=2 v=7", "test").unwrap();
        assert!(m.post("zz=1", "test").is_err());
        m.apply(&mut mem);
        assert_eq!((mem[3], mem[5]), (2.0, 7.0));
        mem[3] = 9.0;
        m.apply(&mut mem);
        assert_eq!(mem[3], 9.0, "nothing new: the slot keeps its value");
        assert_eq!(m.rejected.load(Ordering::Relaxed), 1);
    }

    /// A value the door rejects is never stored: the input keeps its last good value, the
    /// rejection is counted per input with its sender, and the other values of the datagram
    /// still arrive; `--bad-input stop` asks the run to stop.
    #[test]
    fn mailbox_rejects_bad_values() {
        let m = Mailbox::new(&slots());
        let mut mem = [0.0; 6];
        m.post("u=1 v=2", "10.0.0.1:7").unwrap();
        m.apply(&mut mem);
        let e = m.post("u=nan v=3", "10.0.0.1:7").unwrap_err();
        assert!(
            e.contains("`u` = NaN from 10.0.0.1:7: the value is not finite"),
            "{e}"
        );
        assert!(m.post("u=1e999", "x").is_err());
        assert!(m
            .post("v=11", "x")
            .unwrap_err()
            .contains("above its max = 10"));
        m.apply(&mut mem);
        assert_eq!((mem[3], mem[5]), (1.0, 3.0));
        assert_eq!(
            m.bad_values(),
            vec![("u".to_string(), 2), ("v".to_string(), 1)]
        );
        assert_eq!(m.stop_asked(), None);
        let s = Mailbox::with_policy(&slots(), BadInput::Stop);
        assert!(s.post("v=-1", "y").is_err());
        assert!(s.stop_asked().unwrap().contains("below its min = 0"));
    }
}
