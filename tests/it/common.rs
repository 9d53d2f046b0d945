//! Shared helpers for the end-to-end tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Files with extension `ext` in `dir`, sorted.
pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}

/// Compares `actual` with the file at `expected_path`; with `UPDATE_GOLDEN=1` rewrites it.
/// Returns a description of the difference, if any.
pub fn golden(expected_path: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(expected_path, actual).expect("write golden file");
        return None;
    }
    let expected = std::fs::read_to_string(expected_path).unwrap_or_default();
    if expected == actual {
        return None;
    }
    let mut diff = format!("--- {} (expected)\n+++ actual\n", expected_path.display());
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    for i in 0..e.len().max(a.len()) {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if x == y => {}
            (x, y) => {
                if let Some(x) = x {
                    diff.push_str(&format!("-{i:4}: {x}\n"));
                }
                if let Some(y) = y {
                    diff.push_str(&format!("+{i:4}: {y}\n"));
                }
            }
        }
    }
    diff.push_str("(run with UPDATE_GOLDEN=1 to accept)\n");
    Some(diff)
}

/// The seed reference data, kept in the repository (`tests/refdata`; its README names the
/// generators and how to run them again).
pub fn refdata() -> PathBuf {
    repo_root().join("tests/refdata")
}

/// A CSV file as (header, rows).
pub fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .expect("header")
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let rows = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split(',')
                .map(|x| x.trim().parse::<f64>().unwrap_or(f64::NAN))
                .collect()
        })
        .collect();
    (header, rows)
}

/// Reference CSV column name → rtc variable name (`i1` → `i[1]`, `x3` → `x[3]`).
pub fn rtc_name(csv_name: &str) -> String {
    let split = csv_name.find(|c: char| c.is_ascii_digit());
    match split {
        Some(k) if k > 0 && csv_name[k..].chars().all(|c| c.is_ascii_digit()) => {
            format!("{}[{}]", &csv_name[..k], &csv_name[k..])
        }
        _ => csv_name.to_string(),
    }
}

/// Flattens an example and compiles it for `method`.
pub fn compile_example(
    file: &str,
    method: rtc::pipeline::Method,
    params: &[(&str, f64)],
    newton_iterations: u32,
) -> rtc::plan::Plan {
    let path = repo_root().join("examples").join(file);
    let text = std::fs::read_to_string(&path).expect("read example");
    let opts = rtc::flatten::Options {
        params: params.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        ..Default::default()
    };
    let c = rtc::pipeline::check_source(file, &text, &opts);
    let diags = c.short_diagnostics();
    let model = c.model.unwrap_or_else(|| panic!("{file}: {diags:?}"));
    let newton = rtc::plan::Newton {
        max_iterations: newton_iterations,
        ..Default::default()
    };
    match rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(&method).newton(newton)) {
        Ok(p) => p.plan,
        Err(d) => panic!("{file}: {}", d.message),
    }
}

/// Upward zero crossings (linear interpolation) of `x(t)` within [t0, t1].
pub fn upward_crossings(t: &[f64], x: &[f64], t0: f64, t1: f64) -> Vec<f64> {
    let mut out = Vec::new();
    for k in 1..t.len() {
        if t[k] < t0 || t[k] > t1 {
            continue;
        }
        if x[k - 1] < 0.0 && x[k] >= 0.0 {
            out.push(t[k - 1] + (t[k] - t[k - 1]) * (-x[k - 1]) / (x[k] - x[k - 1]));
        }
    }
    out
}

/// Mean period (from upward zero crossings) and maximum of `x` over [t0, t1].
pub fn period_and_amplitude(t: &[f64], x: &[f64], t0: f64, t1: f64) -> (f64, f64) {
    let c = upward_crossings(t, x, t0, t1);
    assert!(c.len() >= 3, "too few oscillations: {}", c.len());
    let period = (c[c.len() - 1] - c[0]) / (c.len() - 1) as f64;
    let amp = t
        .iter()
        .zip(x)
        .filter(|(tt, _)| **tt >= t0 && **tt <= t1)
        .map(|(_, v)| *v)
        .fold(f64::MIN, f64::max);
    (period, amp)
}

/// Runs the `rtc` binary in `dir` (without MODELICAPATH): exit code, stdout, stderr.
pub fn rtc_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rtc"))
        .args(args)
        .current_dir(dir)
        .env_remove("MODELICAPATH")
        .output()
        .expect("run rtc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Column `col` of the last row of a CSV result.
pub fn last_value(csv: &str, col: usize) -> f64 {
    csv.lines()
        .last()
        .and_then(|l| l.split(',').nth(col))
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("no value in column {col} of the last row: {csv}"))
}
