//! The verification harness: every example of a Modelica library that has reference results
//! is run by rtc with its experiment and compared with them.
//!
//!     cargo build --release -p rtc --bins --examples
//!     target/release/examples/msl_verify --lib MSL/Modelica --lib MSL/ModelicaServices \
//!         --refs REF --out verify Modelica.Blocks Modelica.Electrical.Analog …
//!
//! `REF` is a checkout of `modelica/MAP-LIB_ReferenceResults` at the tag of the library (one
//! folder per example, `REF/Modelica/Blocks/Examples/PID_Controller/` with `<Name>.csv`,
//! `comparisonSignals.txt` and `creation.txt`). Every non-partial model with an `experiment`
//! annotation below the given packages that has such a folder is run with
//! `rtc run CLASS --vars <its comparison signals> --out CSV` and the default settings (the
//! experiment's StopTime and Interval; options after `--` are passed to every run, e.g.
//! `-- --method radau`; `--step-divisor N` runs with the step the reference's Interval / N),
//! with a time limit (`--timeout`, default 60 s), `--jobs` at a time.
//!
//! **The criterion** (issue 27): a signal agrees when at every reference time point t the
//! smallest distance between the reference value and rtc's trajectory (linearly interpolated)
//! at the five times t + kΔ, k = −2…2, Δ the reference's output interval, or at any of rtc's
//! rows between t − 2Δ and t + 2Δ (an event's rows), is at most 1 % of the signal's scale — the larger of the reference's peak-to-peak range and 0.1 % of its
//! largest magnitude (floor 1e-9); an example agrees when all its signals do. The stricter
//! figure beside it is the same error with k = 0 only.
//!
//! Written to `--out DIR`: `report.md` (a table per package: examples, runs to StopTime,
//! agree, differ, stop, refused; then every example with its outcome: the worst signal and its
//! error, or the first reason; and whether rtc warned), `csv/<Name>.csv` (rtc's results) and
//! `plots/<Name>.svg` (the worst signal against the reference, for each that differs). Every
//! line of the report is also printed as its example finishes.

#[path = "msl_common/mod.rs"]
mod msl_common;

use plotters::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

struct Args {
    libs: Vec<PathBuf>,
    refs: PathBuf,
    out: PathBuf,
    packages: Vec<String>,
    rtc: PathBuf,
    timeout: f64,
    jobs: usize,
    /// Only the examples whose name contains one of these.
    only: Vec<String>,
    /// Passed to every `rtc run`.
    extra: Vec<String>,
    /// Run with `--step` the reference's Interval divided by this (to see what a finer step
    /// changes).
    divisor: Option<f64>,
}

fn args() -> Args {
    let mut a = Args {
        libs: Vec::new(),
        refs: PathBuf::new(),
        out: PathBuf::from("verify"),
        packages: Vec::new(),
        rtc: msl_common::default_rtc(),
        timeout: 60.0,
        jobs: 2,
        only: Vec::new(),
        extra: Vec::new(),
        divisor: None,
    };
    let v: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let value = |i: usize, what: &str| -> String {
        v.get(i + 1)
            .cloned()
            .unwrap_or_else(|| panic!("{} needs a value", what))
    };
    while i < v.len() {
        match v[i].as_str() {
            "--lib" => a.libs.push(PathBuf::from(value(i, "--lib"))),
            "--refs" => a.refs = PathBuf::from(value(i, "--refs")),
            "--out" => a.out = PathBuf::from(value(i, "--out")),
            "--rtc" => a.rtc = PathBuf::from(value(i, "--rtc")),
            "--only" => a.only.push(value(i, "--only")),
            "--timeout" => a.timeout = value(i, "--timeout").parse().expect("--timeout SECONDS"),
            "--step-divisor" => {
                a.divisor = Some(
                    value(i, "--step-divisor")
                        .parse()
                        .expect("--step-divisor N"),
                )
            }
            "--jobs" => a.jobs = value(i, "--jobs").parse().expect("--jobs N"),
            "--" => {
                a.extra = v[i + 1..].to_vec();
                break;
            }
            p => {
                a.packages.push(p.to_string());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    assert!(!a.libs.is_empty(), "--lib PATH/Modelica");
    assert!(a.refs.is_dir(), "--refs PATH (the reference results)");
    a
}

/// A reference result: its signals at its time points (rows repeat at events) and the
/// experiment it was made with.
struct Reference {
    time: Vec<f64>,
    signals: Vec<(String, Vec<f64>)>,
    interval: f64,
    stop: f64,
}

/// A value of `creation.txt` (`StopTime=4 // from model`).
fn creation_value(text: &str, key: &str) -> Option<f64> {
    text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix(key)?.trim_start().strip_prefix('=')?;
        rest.split("//").next()?.trim().parse().ok()
    })
}

/// The columns of a CSV file with a header row of (maybe quoted) names.
fn read_csv(path: &Path) -> Result<(Vec<String>, Vec<Vec<f64>>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .ok_or_else(|| format!("{}: empty", path.display()))?
        .split(',')
        .map(|s| s.trim().trim_matches('"').to_string())
        .collect();
    let mut cols = vec![Vec::new(); header.len()];
    for (n, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        for (k, field) in line.split(',').enumerate().take(header.len()) {
            let f = field.trim();
            let x = match f {
                "true" => 1.0,
                "false" => 0.0,
                _ => f.parse::<f64>().map_err(|_| {
                    format!("{}: row {}: `{f}` is not a number", path.display(), n + 2)
                })?,
            };
            cols[k].push(x);
        }
    }
    Ok((header, cols))
}

fn reference(dir: &Path, short: &str) -> Result<Reference, String> {
    let creation = std::fs::read_to_string(dir.join("creation.txt")).unwrap_or_default();
    let wanted: Vec<String> = std::fs::read_to_string(dir.join("comparisonSignals.txt"))
        .map_err(|e| format!("comparisonSignals.txt: {e}"))?
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty() && l != "time")
        .collect();
    let (header, mut cols) = read_csv(&dir.join(format!("{short}.csv")))?;
    let t = header
        .iter()
        .position(|h| h.eq_ignore_ascii_case("time"))
        .ok_or("reference without a time column")?;
    let time = std::mem::take(&mut cols[t]);
    let mut signals = Vec::new();
    for w in wanted {
        let k = header
            .iter()
            .position(|h| *h == w)
            .ok_or_else(|| format!("reference lacks comparison signal {w}"))?;
        signals.push((w, std::mem::take(&mut cols[k])));
    }
    let stop = creation_value(&creation, "StopTime").unwrap_or(*time.last().unwrap_or(&1.0));
    let start = creation_value(&creation, "StartTime").unwrap_or(time[0]);
    let interval = creation_value(&creation, "Interval").unwrap_or((stop - start) / 500.0);
    Ok(Reference {
        time,
        signals,
        interval,
        stop,
    })
}

/// rtc's trajectory of one signal: the values at `t`, linearly interpolated (both values where
/// `t` is a time rtc's output repeats, at an event), held outside the recorded range.
fn values_at(time: &[f64], v: &[f64], t: f64, delta: f64, out: &mut Vec<f64>) {
    out.clear();
    let n = time.len();
    if n == 0 {
        return;
    }
    // Rows this close to t are at t: rtc's clock (0.0016666666666666666, 0.03) and the
    // reference's (0.0016666666666666676, 0.030000000000000002) round differently, two event
    // locators agree to about 1e-9 of the time scale (a PWM edge at 0.026004000000005
    // against 0.026004000000100003), and some references' times are single precision
    // (0.024907906 for a PWM edge at 0.024907906416994148).
    let eps = (f64::from(f32::EPSILON) * t.abs()).max(1e-9 * delta);
    let i = time.partition_point(|&x| x < t - eps);
    if i == n {
        out.push(v[n - 1]);
        return;
    }
    if time[i] <= t + eps {
        let mut j = i;
        while j < n && time[j] <= t + eps {
            out.push(v[j]);
            j += 1;
        }
        return;
    }
    if i == 0 {
        out.push(v[0]);
        return;
    }
    let (t0, t1) = (time[i - 1], time[i]);
    let f = (t - t0) / (t1 - t0);
    out.push(v[i - 1] + f * (v[i] - v[i - 1]));
}

/// How far one signal is from its reference, in units of its scale.
struct SignalError {
    /// The criterion's error (the best of five times t + kΔ and of the run's rows between
    /// t − 2Δ and t + 2Δ).
    shifted: f64,
    /// At the reference time only (k = 0).
    exact: f64,
    /// The reference time where `shifted` is largest.
    at: f64,
}

fn signal_error(r: &Reference, rv: &[f64], time: &[f64], v: &[f64]) -> SignalError {
    let (mut lo, mut hi, mut mag) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
    for &x in rv {
        lo = lo.min(x);
        hi = hi.max(x);
        mag = mag.max(x.abs());
    }
    let scale = (hi - lo).max(1e-3 * mag).max(1e-9);
    let mut e = SignalError {
        shifted: 0.0,
        exact: 0.0,
        at: 0.0,
    };
    let mut buf = Vec::new();
    for (&t, &x) in r.time.iter().zip(rv) {
        let mut best = f64::INFINITY;
        for k in -2..=2 {
            values_at(time, v, t + k as f64 * r.interval, r.interval, &mut buf);
            for &y in &buf {
                let d = if y.is_nan() {
                    f64::INFINITY
                } else {
                    (y - x).abs()
                };
                best = best.min(d);
                if k == 0 {
                    e.exact = e.exact.max(d / scale);
                }
            }
        }
        // And every row of the run within the two intervals either side: an event's rows
        // (a Boolean that is true for an instant, at an event located a little apart from the
        // reference's) fall between the five times.
        let lo = time.partition_point(|&x| x < t - 2.0 * r.interval);
        let hi = time.partition_point(|&x| x <= t + 2.0 * r.interval);
        for &y in &v[lo..hi] {
            if !y.is_nan() {
                best = best.min((y - x).abs());
            }
        }
        if best / scale > e.shifted {
            e.shifted = best / scale;
            e.at = t;
        }
    }
    e
}

/// The criterion: 1 % of the signal's scale.
const AGREE: f64 = 0.01;

enum Outcome {
    /// No reference folder for the example.
    NoReference,
    /// A reference folder whose result file is absent (a large file the checkout lacks).
    ReferenceAbsent,
    /// rtc does not check or compile it: the first reason.
    Refused(String),
    /// Checks, and the run stops before StopTime: why.
    Stopped(String),
    TimeLimit,
    /// Ran to StopTime: every signal's error, and the warnings rtc printed.
    Ran {
        errors: Vec<(String, SignalError)>,
        warnings: Vec<String>,
    },
}

impl Outcome {
    fn worst(&self) -> Option<&(String, SignalError)> {
        match self {
            Outcome::Ran { errors, .. } => errors
                .iter()
                .max_by(|a, b| a.1.shifted.total_cmp(&b.1.shifted)),
            _ => None,
        }
    }
    fn agrees(&self) -> bool {
        matches!(self, Outcome::Ran { .. }) && self.worst().is_none_or(|w| w.1.shifted <= AGREE)
    }
    fn warned(&self) -> bool {
        matches!(self, Outcome::Ran { warnings, .. } if !warnings.is_empty())
    }
    fn line(&self, name: &str) -> String {
        match self {
            Outcome::NoReference => format!("{name}: no reference"),
            Outcome::ReferenceAbsent => {
                format!("{name}: reference result file absent (not counted)")
            }
            Outcome::Refused(e) => format!("{name}: refused: {e}"),
            Outcome::Stopped(e) => format!("{name}: stops: {e}"),
            Outcome::TimeLimit => format!("{name}: time limit"),
            Outcome::Ran { warnings, .. } => {
                let (s, shifted, exact, at) = self.worst().map_or(("-", 0.0, 0.0, 0.0), |w| {
                    (w.0.as_str(), w.1.shifted, w.1.exact, w.1.at)
                });
                let verdict = if self.agrees() { "agrees" } else { "differs" };
                let warn = match warnings.first() {
                    Some(w) => format!("; warned: {w}"),
                    None => String::new(),
                };
                format!(
                    "{name}: {verdict} (worst {s}: {:.3}% of scale at t = {at}, {:.3}% at the same time){warn}",
                    100.0 * shifted,
                    100.0 * exact
                )
            }
        }
    }
}

fn run_one(a: &Args, name: &str) -> Outcome {
    let short = name.rsplit('.').next().unwrap_or(name);
    let dir = name.split('.').fold(a.refs.clone(), |p, part| p.join(part));
    if !dir.join("comparisonSignals.txt").is_file() {
        return Outcome::NoReference;
    }
    if !dir.join(format!("{short}.csv")).is_file() {
        return Outcome::ReferenceAbsent;
    }
    let r = match reference(&dir, short) {
        Ok(r) => r,
        Err(e) => return Outcome::Refused(format!("(reference unreadable: {e})")),
    };
    let csv = a.out.join("csv").join(format!("{name}.csv"));
    let vars: Vec<&str> = r.signals.iter().map(|(n, _)| n.as_str()).collect();
    let mut cmd = vec![
        "run".to_string(),
        name.to_string(),
        "--vars".into(),
        vars.join(","),
        "--out".into(),
        csv.display().to_string(),
        "--short-diagnostics".into(),
    ];
    cmd.extend(msl_common::lib_args(&a.libs));
    cmd.extend(a.extra.iter().cloned());
    // Rows at the reference's output interval (creation.txt's, which may be finer than the
    // model's experiment annotation: AsymmetricalLoad's 5e-5 against 1e-4); the method and
    // step stay the default's, chosen from the model's experiment.
    cmd.extend(["--interval".to_string(), format!("{}", r.interval)]);
    if let Some(d) = a.divisor {
        cmd.extend(["--step".to_string(), format!("{}", r.interval / d)]);
    }
    let _ = std::fs::remove_file(&csv);
    let (code, err) = match msl_common::rtc(&a.rtc, &cmd, a.timeout) {
        None => return Outcome::TimeLimit,
        Some(x) => x,
    };
    let warnings: Vec<String> = err
        .lines()
        .filter_map(|l| l.strip_prefix("rtc: warning: ").map(str::to_string))
        .collect();
    if code != 0 {
        let e = msl_common::first_error(&err);
        return if e.starts_with("rtc: run stopped") {
            Outcome::Stopped(e)
        } else {
            Outcome::Refused(e)
        };
    }
    let (header, cols) = match read_csv(&csv) {
        Ok(x) => x,
        Err(e) => return Outcome::Stopped(format!("(result unreadable: {e})")),
    };
    let time = &cols[0];
    // A run ends at StopTime, or where a reference that ends before StopTime ends (the model
    // terminated: `terminate()`), within an output interval (rtc ends at the end of the step
    // that holds the event). Some references end early without that (made over a shorter
    // time): a run to StopTime is compared over the reference's times.
    let ref_end = r.time.last().copied().unwrap_or(r.stop).min(r.stop);
    let early = ref_end < r.stop - r.interval;
    let reached = |t: f64, end: f64| t >= end - 1e-9 * end.abs().max(1.0);
    match time.last() {
        Some(&t)
            if reached(t, r.stop)
                || (early && reached(t, ref_end) && t <= ref_end + r.interval) => {}
        last => {
            return Outcome::Stopped(if early {
                format!(
                    "(the result ends at t = {last:?}; the reference's run terminates at {ref_end} before StopTime {})",
                    r.stop
                )
            } else {
                format!(
                    "(the result ends at t = {last:?} before StopTime {})",
                    r.stop
                )
            });
        }
    }
    let mut errors = Vec::new();
    for (s, rv) in &r.signals {
        let Some(k) = header.iter().position(|h| h == s) else {
            return Outcome::Refused(format!("(signal {s} not in rtc's output)"));
        };
        errors.push((s.clone(), signal_error(&r, rv, time, &cols[k])));
    }
    let out = Outcome::Ran { errors, warnings };
    if !out.agrees() {
        if let Some((s, e)) = out.worst() {
            let k = header.iter().position(|h| h == s).unwrap_or(0);
            let rv = &r.signals.iter().find(|(n, _)| n == s).expect("signal").1;
            let svg = a.out.join("plots").join(format!("{name}.svg"));
            if let Err(err) = plot(&svg, name, s, (&r.time, rv), (time, &cols[k]), e.at) {
                eprintln!("{name}: plot: {err}");
            }
        }
    }
    out
}

/// The worst signal against its reference, with the worst time marked.
fn plot(
    path: &Path,
    name: &str,
    signal: &str,
    reference: (&[f64], &[f64]),
    rtc: (&[f64], &[f64]),
    at: f64,
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Debug| format!("{e:?}");
    let finite = |v: &[f64]| {
        v.iter()
            .copied()
            .filter(|x| x.is_finite())
            .collect::<Vec<_>>()
    };
    let (mut t0, mut t1) = (f64::INFINITY, f64::NEG_INFINITY);
    for &t in reference.0.iter().chain(rtc.0) {
        t0 = t0.min(t);
        t1 = t1.max(t);
    }
    let ys: Vec<f64> = finite(reference.1);
    let (mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY);
    for &y in &ys {
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    // rtc's values widen the range up to ten times the reference's span, so a far-off result
    // shows without flattening the reference.
    let span = (y1 - y0).max(1e-9 * y0.abs().max(1.0));
    for y in finite(rtc.1) {
        y0 = y0.min(y.max(y0 - 10.0 * span));
        y1 = y1.max(y.min(y1 + 10.0 * span));
    }
    let pad = 0.05 * (y1 - y0).max(1e-12);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 600)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{name}: {signal}"), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(t0..t1.max(t0 + 1e-12), (y0 - pad)..(y1 + pad))
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("time [s]")
            .draw()
            .map_err(|e| err(&e))?;
        chart
            .draw_series(LineSeries::new(
                [(at, y0 - pad), (at, y1 + pad)],
                RGBColor(200, 200, 200).stroke_width(1),
            ))
            .map_err(|e| err(&e))?
            .label("worst point")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RGBColor(200, 200, 200)));
        for (label, (t, v), color) in [
            ("reference", reference, RGBColor(0, 0, 0)),
            ("rtc", rtc, RGBColor(220, 40, 40)),
        ] {
            let pts: Vec<(f64, f64)> = t
                .iter()
                .zip(v)
                .filter(|(_, y)| y.is_finite())
                .map(|(&a, &b)| (a, b.clamp(y0 - pad, y1 + pad)))
                .collect();
            chart
                .draw_series(LineSeries::new(pts, color.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    std::fs::write(path, svg).map_err(|e| format!("{}: {e}", path.display()))
}

#[derive(Default)]
struct Tally {
    examples: usize,
    runs: usize,
    agree: usize,
    agree_warned: usize,
    differ: usize,
    differ_warned: usize,
    stop: usize,
    refused: usize,
}

impl Tally {
    fn add(&mut self, o: &Outcome) {
        self.examples += 1;
        match o {
            Outcome::NoReference | Outcome::ReferenceAbsent => self.examples -= 1,
            Outcome::Refused(_) => self.refused += 1,
            Outcome::Stopped(_) | Outcome::TimeLimit => self.stop += 1,
            Outcome::Ran { .. } => {
                self.runs += 1;
                if o.agrees() {
                    self.agree += 1;
                    self.agree_warned += o.warned() as usize;
                } else {
                    self.differ += 1;
                    self.differ_warned += o.warned() as usize;
                }
            }
        }
    }
    fn row(&self, name: &str) -> String {
        format!(
            "| {name} | {} | {} | {} ({} warned) | {} ({} warned) | {} | {} |",
            self.examples,
            self.runs,
            self.agree,
            self.agree_warned,
            self.differ,
            self.differ_warned,
            self.stop,
            self.refused
        )
    }
}

fn main() {
    let a = args();
    for d in ["csv", "plots"] {
        std::fs::create_dir_all(a.out.join(d)).expect("create --out");
    }
    let mut names: Vec<(usize, String)> = Vec::new();
    for (k, p) in a.packages.iter().enumerate() {
        for n in msl_common::examples_below(&a.libs, std::slice::from_ref(p)) {
            if a.only.is_empty() || a.only.iter().any(|o| n.contains(o.as_str())) {
                names.push((k, n));
            }
        }
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<BTreeMap<usize, Outcome>> = Mutex::new(BTreeMap::new());
    std::thread::scope(|s| {
        for _ in 0..a.jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((_, name)) = names.get(i) else { break };
                let o = run_one(&a, name);
                if !matches!(o, Outcome::NoReference) {
                    println!("{}", o.line(name));
                }
                results.lock().expect("results").insert(i, o);
            });
        }
    });
    let results = results.into_inner().expect("results");
    let mut report = String::new();
    let _ = writeln!(
        report,
        "rtc {} against the reference results in {}; settings: {}\n",
        a.rtc.display(),
        a.refs.display(),
        if a.extra.is_empty() {
            "the default".to_string()
        } else {
            a.extra.join(" ")
        }
    );
    let _ = writeln!(
        report,
        "| package | examples | run to StopTime | agree | differ | stop | refused |\n|---|---|---|---|---|---|---|"
    );
    let mut total = Tally::default();
    let mut lines = String::new();
    for (k, p) in a.packages.iter().enumerate() {
        let mut t = Tally::default();
        for (i, (pk, name)) in names.iter().enumerate() {
            if *pk == k {
                let o = &results[&i];
                t.add(o);
                total.add(o);
                if !matches!(o, Outcome::NoReference) {
                    let _ = writeln!(lines, "- {}", o.line(name));
                }
            }
        }
        let _ = writeln!(report, "{}", t.row(p));
    }
    let _ = writeln!(report, "{}", total.row("all"));
    let _ = writeln!(report, "\n{lines}");
    std::fs::write(a.out.join("report.md"), &report).expect("write report.md");
    println!("\n{report}");
}
