//! The property check of rtc's expression tables against the MSL's C tables (issue 29): random
//! tables, every smoothness and extrapolation, looked up by `rtc run` twice — with rtc's
//! expression tables (the default) and with `--c-tables` (the library's
//! `ModelicaStandardTables` compiled from the user's MSL) — and compared.
//!
//!     cargo build --release -p rtc --bin rtc --example table_crosscheck
//!     target/release/examples/table_crosscheck --rtc target/release/rtc \
//!         --lib MSL/Modelica --lib MSL/ModelicaServices [--seeds 5] [--tol 1e-12] [--keep]
//!
//! Each case is a model (written to a temporary folder) with a `CombiTable1Ds` on a random
//! table of 2 to 9 rows and two value columns queried along a ramp over and beyond the
//! abscissas (1001 points; inside them only for `NoExtrapolation`), a second one queried at
//! each abscissa exactly, the derivative of the first's output (through index reduction: the
//! expression differentiated, or the library's `getDerTable1DValue`), and a `CombiTimeTable`
//! on the same rows with a start time, a shift and its derivative. A signal agrees when every
//! point is within `--tol` (default 1e-12) of the C's, relative to the larger of 1 and the
//! signal's largest magnitude, except the time table's values at the instants of its
//! breakpoints (its start time, each abscissa's time), counted apart: there the C decides the
//! interval by its own event bookkeeping (`nextTimeEvent`, the instant scaled back with
//! `timeScale`), rtc's expression by the relation's value at the event rtc handles at that step,
//! and where the two instants differ by rounding they take different sides of the
//! breakpoint for that one sample. Constant segments are not differentiated (the MSL gives them no
//! derivative function: the C's would be central differences across the jumps, which rtc warns
//! of).
//! Prints one line per case and a summary per smoothness and extrapolation; exit code 1 where
//! any case differs or fails.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const SMOOTHNESS: [&str; 6] = [
    "LinearSegments",
    "ContinuousDerivative",
    "ConstantSegments",
    "MonotoneContinuousDerivative1",
    "MonotoneContinuousDerivative2",
    "ModifiedContinuousDerivative",
];
const EXTRAPOLATION: [&str; 4] = [
    "HoldLastPoint",
    "LastTwoPoints",
    "Periodic",
    "NoExtrapolation",
];

/// xorshift64*: the cases depend on the seed only.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

/// A value written so that Modelica reads back the same double.
fn num(x: f64) -> String {
    format!("{x:?}")
}

/// The model of one case: its text and the abscissas.
/// The model of one case, and the times of its time table's breakpoints (its start time, each
/// abscissa's time, over three periods).
fn model(smoothness: &str, extrapolation: &str, rng: &mut Rng) -> (String, Vec<f64>) {
    let n = 2 + (rng.next() % 8) as usize;
    let mut x = rng.uniform(-5.0, 5.0);
    let mut rows = Vec::new();
    let mut xs = Vec::new();
    for _ in 0..n {
        xs.push(x);
        rows.push(format!(
            "{}, {}, {}",
            num(x),
            num(rng.uniform(-10.0, 10.0)),
            num(rng.uniform(-10.0, 10.0))
        ));
        x += rng.uniform(0.1, 2.0);
    }
    let (x0, x1) = (xs[0], xs[n - 1]);
    let (u0, w) = if extrapolation == "NoExtrapolation" {
        (x0, x1 - x0)
    } else {
        (x0 - 1.5, x1 - x0 + 3.0)
    };
    // Time table (not for NoExtrapolation): the abscissas scaled into the times 0.1 to 0.7 of
    // the run from 0 to 1, starting at 0.05.
    let start = 0.05;
    let ts = 0.6 / (x1 - x0);
    let shift = 0.1 - x0 * ts;
    let table = rows.join("; ");
    let xs_list: Vec<String> = xs.iter().map(|&v| num(v)).collect();
    let mut s = String::new();
    let _ = writeln!(s, "model Cross");
    let _ = writeln!(
        s,
        "  Modelica.Blocks.Tables.CombiTable1Ds t(table = [{table}], columns = {{2, 3}}, smoothness = Modelica.Blocks.Types.Smoothness.{smoothness}, extrapolation = Modelica.Blocks.Types.Extrapolation.{extrapolation});"
    );
    let _ = writeln!(
        s,
        "  Modelica.Blocks.Tables.CombiTable1Ds k(table = [{table}], columns = {{2, 3}}, smoothness = Modelica.Blocks.Types.Smoothness.{smoothness}, extrapolation = Modelica.Blocks.Types.Extrapolation.{extrapolation});"
    );
    let time_table = extrapolation != "NoExtrapolation";
    if time_table {
        let _ = writeln!(
            s,
            "  Modelica.Blocks.Sources.CombiTimeTable tt(table = [{table}], columns = {{2, 3}}, smoothness = Modelica.Blocks.Types.Smoothness.{smoothness}, extrapolation = Modelica.Blocks.Types.Extrapolation.{extrapolation}, startTime = {}, shiftTime = {}, timeScale = {});",
            num(start),
            num(shift),
            num(ts)
        );
    }
    let _ = writeln!(s, "  parameter Real xs[{n}] = {{{}}};", xs_list.join(", "));
    let der = smoothness != "ConstantSegments";
    if der {
        let _ = writeln!(s, "  Real v \"der(t.y[1])\";");
    }
    if time_table && der {
        let _ = writeln!(s, "  Real vt \"der(tt.y[1])\";");
    }
    let _ = writeln!(s, "equation");
    // Inside the abscissas (the ramp's end rounded back onto the last one) for NoExtrapolation.
    if extrapolation == "NoExtrapolation" {
        let _ = writeln!(
            s,
            "  t.u = min({}, {} + {} * time);",
            num(x1),
            num(u0),
            num(w)
        );
    } else {
        let _ = writeln!(s, "  t.u = {} + {} * time;", num(u0), num(w));
    }
    let _ = writeln!(s, "  k.u = xs[min({n}, integer(time * {n}) + 1)];");
    if der {
        let _ = writeln!(s, "  v = der(t.y[1]);");
    }
    if time_table && der {
        let _ = writeln!(s, "  vt = der(tt.y[1]);");
    }
    let _ = writeln!(
        s,
        "  annotation(experiment(StopTime = 1, Interval = 0.001));\nend Cross;"
    );
    let mut breaks = vec![start];
    for j in -1..3 {
        breaks.extend(xs.iter().map(|&x| 0.1 + (x - x0) * ts + f64::from(j) * 0.6));
    }
    (s, breaks)
}

fn run(
    rtc: &Path,
    libs: &[PathBuf],
    file: &Path,
    vars: &str,
    c: bool,
) -> Result<Vec<Vec<f64>>, String> {
    let out = file.with_extension(if c { "c.csv" } else { "e.csv" });
    let mut cmd = Command::new(rtc);
    cmd.arg("run");
    for l in libs {
        cmd.arg("--lib").arg(l);
    }
    cmd.arg(file)
        .args([
            "--method",
            "be",
            "--step",
            "0.001",
            "--no-event-rows",
            "--no-check",
        ])
        .args(["--vars", vars])
        .arg("--out")
        .arg(&out);
    if c {
        cmd.arg("--c-tables");
    }
    let o = cmd.output().map_err(|e| e.to_string())?;
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        let first: Vec<&str> = err
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(4)
            .collect();
        return Err(first.join(" | "));
    }
    let text = std::fs::read_to_string(&out).map_err(|e| e.to_string())?;
    let rows: Vec<Vec<f64>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .collect();
    Ok(rows)
}

fn header(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file.with_extension("e.csv"))
        .unwrap_or_default()
        .lines()
        .next()
        .unwrap_or_default()
        .split(',')
        .map(|s| s.trim().to_string())
        .collect()
}

/// Per smoothness and extrapolation: cases, agreeing, the worst difference, and (worst,
/// cases) at the time table's breakpoints' instants.
type Summary = (String, usize, usize, f64, (f64, usize));

fn main() {
    let mut rtc = PathBuf::from("rtc");
    let mut libs = Vec::new();
    let mut seeds = 5u64;
    let mut tol = 1e-12;
    let mut keep = false;
    let mut only: Option<u64> = None;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--rtc" => rtc = it.next().expect("--rtc BIN").into(),
            "--lib" => libs.push(PathBuf::from(it.next().expect("--lib DIR"))),
            "--seeds" => seeds = it.next().and_then(|s| s.parse().ok()).expect("--seeds N"),
            "--tol" => tol = it.next().and_then(|s| s.parse().ok()).expect("--tol X"),
            "--keep" => keep = true,
            "--seed" => only = it.next().and_then(|s| s.parse().ok()),
            _ => {
                eprintln!("usage: table_crosscheck --rtc BIN --lib DIR… [--seeds N | --seed K] [--tol X] [--keep]");
                std::process::exit(2);
            }
        }
    }
    let dir = std::env::temp_dir().join(format!("rtc-table-crosscheck-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let mut bad = 0;
    let mut summary: Vec<Summary> = Vec::new();
    for s in SMOOTHNESS {
        for e in EXTRAPOLATION {
            let (mut agree, mut cases, mut worst_all) = (0, 0, 0.0f64);
            let mut breaks_all = (0.0f64, 0usize);
            let seeds = match only {
                Some(k) => k..=k,
                None => 1..=seeds,
            };
            for seed in seeds.clone() {
                let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (seed * 7919));
                let (text, breaks) = model(s, e, &mut rng);
                let file = dir.join(format!("{s}_{e}_{seed}.mo"));
                std::fs::write(&file, &text).expect("write the case");
                cases += 1;
                // Constant segments have no derivative function in the MSL: the C's is
                // central differences (warned), not compared.
                let der = s != "ConstantSegments";
                let mut vars = String::from("t.y[1],t.y[2],k.y[1],k.y[2]");
                if der {
                    vars.push_str(",v");
                }
                if e != "NoExtrapolation" {
                    vars.push_str(",tt.y[1],tt.y[2]");
                    if der {
                        vars.push_str(",vt");
                    }
                }
                let (ex, c) = (
                    run(&rtc, &libs, &file, &vars, false),
                    run(&rtc, &libs, &file, &vars, true),
                );
                let (ex, c) = match (ex, c) {
                    (Ok(a), Ok(b)) => (a, b),
                    (a, b) => {
                        bad += 1;
                        println!(
                            "{s} {e} seed {seed}: fails: expression tables {}; C tables {}",
                            a.err().unwrap_or_else(|| "ran".into()),
                            b.err().unwrap_or_else(|| "ran".into())
                        );
                        continue;
                    }
                };
                let names = header(&file);
                // The worst difference, and the worst of the time table's at its breakpoints'
                // instants (apart: see the module docs).
                let mut worst = (0.0f64, String::new(), 0.0);
                let mut at_breaks = (0.0f64, 0usize);
                if ex.len() != c.len() {
                    worst = (f64::INFINITY, "rows".into(), 0.0);
                }
                for (k, name) in names.iter().enumerate().skip(1) {
                    let scale = c
                        .iter()
                        .filter_map(|r| r.get(k))
                        .fold(1.0f64, |m, v| m.max(v.abs()));
                    let timed = name.starts_with("tt") || name == "vt";
                    for (ra, rb) in ex.iter().zip(&c) {
                        let (Some(a), Some(b)) = (ra.get(k), rb.get(k)) else {
                            continue;
                        };
                        let d = (a - b).abs() / scale;
                        let d = if d.is_nan() { f64::INFINITY } else { d };
                        if timed && breaks.iter().any(|&t| (t - ra[0]).abs() <= 1e-12) {
                            if d > tol {
                                at_breaks.1 += 1;
                            }
                            at_breaks.0 = at_breaks.0.max(d);
                        } else if d > worst.0 {
                            worst = (d, name.clone(), ra[0]);
                        }
                    }
                }
                worst_all = worst_all.max(worst.0);
                breaks_all.0 = breaks_all.0.max(at_breaks.0);
                breaks_all.1 += usize::from(at_breaks.1 > 0);
                if worst.0 <= tol {
                    agree += 1;
                } else {
                    bad += 1;
                }
                println!(
                    "{s} {e} seed {seed}: {} (worst {} {:.3e} at t = {}){}",
                    if worst.0 <= tol { "agrees" } else { "differs" },
                    worst.1,
                    worst.0,
                    worst.2,
                    if at_breaks.1 > 0 {
                        format!(
                            "; the time table differs at {} of its breakpoints' instants (worst {:.3e})",
                            at_breaks.1, at_breaks.0
                        )
                    } else {
                        String::new()
                    }
                );
            }
            summary.push((format!("{s} / {e}"), cases, agree, worst_all, breaks_all));
        }
    }
    println!("\n| smoothness / extrapolation | cases | agree (≤ {tol:e}) | worst | time table at a breakpoint's instant: cases, worst |");
    println!("|---|---|---|---|---|");
    for (n, c, a, w, b) in &summary {
        println!("| {n} | {c} | {a} | {w:.2e} | {}, {:.2e} |", b.1, b.0);
    }
    if keep {
        println!("\nthe cases and their results are in {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
    std::process::exit(i32::from(bad > 0));
}
