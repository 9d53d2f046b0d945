//! How many examples of a Modelica library rtc checks and runs, and the first refusal of
//! each that it does not:
//!
//!     cargo build --release -p rtc
//!     cargo run --release -p rtc --example msl_survey -- --lib PATH/Modelica \
//!         --lib PATH/ModelicaServices \
//!         Modelica.Blocks.Examples Modelica.Electrical.Analog.Examples …
//!
//! Every non-partial model with an `experiment` annotation below the given packages
//! (recursively) is checked with
//! `rtc check CLASS --lib PATH`; one that checks and has an experiment annotation is run to its
//! StopTime with the default method (`rtc run CLASS --lib PATH --out /dev/null`), each with a
//! time limit (`--timeout`, default 60 s). The `rtc` binary is the one beside this program
//! (`target/release/rtc`) unless `--rtc PATH` names another. The report lists every example
//! with its outcome, then the first diagnostics grouped by message.

#[path = "msl_common/mod.rs"]
mod msl_common;

use msl_common::{first_error, lib_args};
use std::collections::BTreeMap;
use std::path::PathBuf;

struct Args {
    libs: Vec<PathBuf>,
    packages: Vec<String>,
    rtc: PathBuf,
    timeout: f64,
    run: bool,
    /// Retry a run that fails numerically with other settings, and say which made it run.
    retry: bool,
}

fn args() -> Args {
    let mut a = Args {
        libs: Vec::new(),
        packages: Vec::new(),
        rtc: msl_common::default_rtc(),
        timeout: 60.0,
        run: true,
        retry: false,
    };
    let v: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < v.len() {
        match v[i].as_str() {
            "--lib" => {
                a.libs.push(PathBuf::from(&v[i + 1]));
                i += 1;
            }
            "--rtc" => {
                a.rtc = PathBuf::from(&v[i + 1]);
                i += 1;
            }
            "--retry" => a.retry = true,
            "--timeout" => {
                a.timeout = v[i + 1].parse().expect("--timeout SECONDS");
                i += 1;
            }
            "--check-only" => a.run = false,
            p => a.packages.push(p.to_string()),
        }
        i += 1;
    }
    assert!(!a.libs.is_empty(), "--lib PATH/Modelica");
    a
}

/// Runs `rtc` with the survey's time limit.
fn rtc(a: &Args, args: &[String]) -> Option<(i32, String)> {
    msl_common::rtc(&a.rtc, args, a.timeout)
}

/// Settings tried, in order, for a run that failed numerically: more Newton iterations, then
/// the trapezoidal rule, then Radau IIA (each with more iterations).
const RETRIES: [&[&str]; 3] = [
    &["--newton-iterations", "50"],
    &["--method", "trapezoid", "--newton-iterations", "50"],
    &["--method", "radau", "--newton-iterations", "50"],
];

/// The first settings of [`RETRIES`] with which `name` runs to its stop time.
fn retry(a: &Args, name: &str, with_libs: &dyn Fn(&[&str]) -> Vec<String>) -> Option<String> {
    RETRIES.iter().find_map(|extra| {
        let mut cmd = vec!["run", name, "--out", "/dev/null"];
        cmd.extend_from_slice(extra);
        matches!(rtc(a, &with_libs(&cmd)), Some((0, _))).then(|| extra.join(" "))
    })
}

fn main() {
    let a = args();
    let libs = lib_args(&a.libs);
    let all = msl_common::examples_below(&a.libs, &a.packages);
    let mut checked = 0;
    let mut ran = 0;
    let mut ran_otherwise = 0;
    let mut refusals: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for name in &all {
        let with_libs = |cmd: &[&str]| -> Vec<String> {
            let mut v: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
            v.extend(libs.iter().cloned());
            v
        };
        let check = rtc(&a, &with_libs(&["check", name, "--short-diagnostics"]));
        let outcome = match check {
            None => {
                refusals
                    .entry("check: time limit".into())
                    .or_default()
                    .push(name.clone());
                "check: time limit".to_string()
            }
            Some((0, _)) => {
                checked += 1;
                if !a.run {
                    "checks".to_string()
                } else {
                    match rtc(
                        &a,
                        &with_libs(&["run", name, "--out", "/dev/null", "--short-diagnostics"]),
                    ) {
                        None => {
                            refusals
                                .entry("run: time limit".into())
                                .or_default()
                                .push(name.clone());
                            "checks; run: time limit".into()
                        }
                        Some((0, _)) => {
                            ran += 1;
                            "checks and runs".into()
                        }
                        Some((_, err)) => {
                            let e = format!("run: {}", first_error(&err));
                            refusals.entry(e.clone()).or_default().push(name.clone());
                            match a.retry.then(|| retry(&a, name, &with_libs)).flatten() {
                                Some(how) => {
                                    ran_otherwise += 1;
                                    format!("checks; {e}; runs with {how}")
                                }
                                None => format!("checks; {e}"),
                            }
                        }
                    }
                }
            }
            Some((_, err)) => {
                let e = first_error(&err);
                refusals.entry(e.clone()).or_default().push(name.clone());
                e
            }
        };
        println!("{name}: {outcome}");
    }
    println!(
        "\n{} examples: {checked} check, {ran} run to their StopTime{}",
        all.len(),
        if a.run {
            ""
        } else {
            " (not run: --check-only)"
        }
    );
    if a.retry {
        println!(
            "of those that check but do not run, {ran_otherwise} run with other settings (see each line)"
        );
    }
    let mut groups: Vec<(&String, &Vec<String>)> = refusals.iter().collect();
    groups.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    println!("\nfirst refusals, grouped:");
    for (msg, names) in groups {
        println!("  {:3}  {msg}", names.len());
    }
}
