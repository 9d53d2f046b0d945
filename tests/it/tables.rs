//! Spline tables (`compiler/src/flatten/tables.rs`): Akima's spline (`ContinuousDerivative`)
//! and the modified Akima spline against scipy's `Akima1DInterpolator` (`tests/refdata/akima.py`,
//! `akima.csv`), inside the table and extrapolated past both ends (`LastTwoPoints`: the end
//! point's slope; `HoldLastPoint`: the end value). The tolerance, 1e-13 relative, is rounding:
//! both compute the same cubic Hermite polynomials in a different order.

use crate::common;
use rtc::pipeline::{check_source, Method};
use rtc::sim::{trajectory, RunSettings};

#[test]
fn akima_splines_match_scipy() {
    let path = common::repo_root().join("tests/models/tables/SplineTables.mo");
    let text = std::fs::read_to_string(&path).unwrap();
    let c = check_source("SplineTables.mo", &text, &Default::default());
    assert!(!c.has_errors(), "{:?}", c.short_diagnostics());
    let model = c.model.unwrap();
    let plan = rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(&Method::BackwardEuler))
        .unwrap()
        .plan;
    // u = time - 1 from -1 to 7, every 0.25.
    let settings = RunSettings {
        start: 0.0,
        stop: 8.0,
        step: 0.25,
        every: 1,
        ..Default::default()
    };
    let names: Vec<String> = ["u", "a", "m", "h"].iter().map(|s| s.to_string()).collect();
    let (tr, failure) = trajectory(&plan, &settings, &names).unwrap();
    assert!(failure.is_none());
    let (_, rows) = common::read_csv(&common::refdata().join("akima.csv"));
    // The reference rows (u, akima, makima) and the end slopes (NaN in the u column).
    let inside: Vec<&Vec<f64>> = rows.iter().filter(|r| r[0].is_finite()).collect();
    let slopes: Vec<&Vec<f64>> = rows.iter().filter(|r| !r[0].is_finite()).collect();
    let (left, right) = (slopes[0], slopes[1]);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-13 * b.abs().max(1.0);
    let mut checked = 0;
    for v in &tr.values {
        let (u, a, m, h) = (v[0], v[1], v[2], v[3]);
        let (ea, em, eh) = if u < 0.0 {
            (left[1] * u, left[2] * u, 0.0)
        } else if u > 6.0 {
            (2.0 + right[1] * (u - 6.0), 2.0 + right[2] * (u - 6.0), 2.0)
        } else {
            let r = inside
                .iter()
                .find(|r| (r[0] - u).abs() < 1e-9)
                .unwrap_or_else(|| panic!("no reference at u = {u}"));
            (r[1], r[2], r[1])
        };
        assert!(close(a, ea), "akima at u = {u}: {a} vs {ea}");
        assert!(close(m, em), "modified akima at u = {u}: {m} vs {em}");
        assert!(close(h, eh), "held akima at u = {u}: {h} vs {eh}");
        checked += 1;
    }
    assert_eq!(checked, 33);
}

/// The plan of a table test model, and its trajectory from 0 to `stop` with backward Euler.
fn run_tables(file: &str, stop: f64, step: f64, names: &[&str]) -> rtc::sim::Trajectory {
    let path = common::repo_root().join("tests/models/tables").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let c = check_source(file, &text, &Default::default());
    assert!(!c.has_errors(), "{:?}", c.short_diagnostics());
    let model = c.model.unwrap();
    let plan = rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(&Method::BackwardEuler))
        .unwrap()
        .plan;
    let settings = RunSettings {
        start: 0.0,
        stop,
        step,
        every: 1,
        ..Default::default()
    };
    let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let (tr, failure) = trajectory(&plan, &settings, &names).unwrap();
    assert!(failure.is_none(), "{file}: {failure:?}");
    tr
}

/// Fritsch–Butland's and Steffen's monotone splines (`MonotoneContinuousDerivative1/2`)
/// against `tests/refdata/monotone.py` (the same slope formulas written in Python, the cubic
/// evaluated by scipy); outside the table the lines with the end secants. Rounding only.
#[test]
fn monotone_splines_match_their_formulas() {
    let tr = run_tables("MonotoneTables.mo", 8.0, 0.25, &["u", "f", "s"]);
    let (_, rows) = common::read_csv(&common::refdata().join("monotone.csv"));
    let inside: Vec<&Vec<f64>> = rows.iter().filter(|r| r[0].is_finite()).collect();
    let slopes: Vec<&Vec<f64>> = rows.iter().filter(|r| !r[0].is_finite()).collect();
    let (left, right) = (slopes[0], slopes[1]);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-13 * b.abs().max(1.0);
    let mut checked = 0;
    for v in &tr.values {
        let (u, f, s) = (v[0], v[1], v[2]);
        let (ef, es) = if u < 0.0 {
            (left[1] * u, left[2] * u)
        } else if u > 6.0 {
            (2.0 + right[1] * (u - 6.0), 2.0 + right[2] * (u - 6.0))
        } else {
            let r = inside
                .iter()
                .find(|r| (r[0] - u).abs() < 1e-9)
                .unwrap_or_else(|| panic!("no reference at u = {u}"));
            (r[1], r[2])
        };
        assert!(close(f, ef), "Fritsch-Butland at u = {u}: {f} vs {ef}");
        assert!(close(s, es), "Steffen at u = {u}: {s} vs {es}");
        checked += 1;
    }
    assert_eq!(checked, 33);
}

/// Time tables as the MSL's C tables define them (`tests/models/tables/TimeTables.mo` states
/// each column's closed form): a jump at a repeated abscissa is right-continuous, HoldLastPoint
/// holds the first row's value before the table (the MSL's BooleanTable is false before its
/// first time), LastTwoPoints extrapolates constant segments linearly, `startTime` gives 0
/// before it, `shiftTime` shifts, periodic tables wrap. Then the breakpoints as time events:
/// backward Euler with steps of 0.3 integrates the piecewise-constant column exactly.
#[test]
fn time_tables_follow_the_c_tables() {
    let tr = run_tables("TimeTables.mo", 8.0, 0.125, &["h", "j", "c", "l", "p"]);
    let mut checked = 0;
    for (&t, v) in tr.times.iter().zip(&tr.values) {
        let held = if t < 2.0 || (4.0..6.0).contains(&t) {
            0.0
        } else {
            1.0
        };
        let jump = if t < 3.0 {
            0.5 * (t - 1.0)
        } else {
            4.0 + (t - 3.0)
        };
        let u = t - 2.0;
        let stairs = if u < 0.0 {
            1.0 + u
        } else if u < 1.0 {
            1.0
        } else if u < 3.0 {
            2.0
        } else {
            2.0 + 1.5 * (u - 1.0)
        };
        let late = if t < 0.5 {
            0.0
        } else if t < 2.0 {
            0.5 * t
        } else if t < 3.0 {
            4.0 + (t - 2.0)
        } else {
            5.0
        };
        let periodic = if t % 2.0 < 1.0 { 1.0 } else { 2.0 };
        for (name, got, want) in [
            ("held", v[0], held),
            ("jump", v[1], jump),
            ("stairs", v[2], stairs),
            ("late", v[3], late),
            ("periodic", v[4], periodic),
        ] {
            assert!(
                (got - want).abs() <= 1e-12 * want.abs().max(1.0),
                "{name} at t = {t}: {got}, expected {want}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 65);
    // 27 steps of 0.3 to 8.1: h is 1 on [2, 4) and from 6 on.
    let tr = run_tables("TimeTables.mo", 8.1, 0.3, &["H"]);
    let last = tr.values.last().unwrap()[0];
    assert!((last - 4.1).abs() < 1e-12, "integral of h at 8.1: {last}");
}

/// The ends of 1-D tables as the C library computes them (`tests/models/tables/TableEnds.mo`,
/// found by `compiler/examples/table_crosscheck.rs`): a periodic table wraps only from outside
/// its abscissas and from above onto its last one (u = 2 and u = 4 give the last row), and at
/// the last abscissa a held table's derivative is the last interval's slope.
#[test]
fn table_ends_follow_the_c_tables() {
    let tr = run_tables("TableEnds.mo", 4.0, 0.125, &["p", "s", "v"]);
    let line = |u: f64| {
        if u < 1.0 {
            1.0 + 2.0 * u
        } else {
            3.0 - (u - 1.0)
        }
    };
    let mut checked = 0;
    for (&t, r) in tr.times.iter().zip(&tr.values) {
        let mut u = 2.0 * t - 4.0;
        while u < 0.0 {
            u += 2.0;
        }
        while u > 2.0 {
            u -= 2.0;
        }
        let w = 2.0 * t;
        let (s, v) = if w <= 2.0 {
            (line(w), 2.0 * if w < 1.0 { 2.0 } else { -1.0 })
        } else {
            (2.0, 0.0)
        };
        for (name, got, want) in [("p", r[0], line(u)), ("s", r[1], s), ("v", r[2], v)] {
            assert!(
                (got - want).abs() <= 1e-12 * want.abs().max(1.0),
                "{name} at t = {t}: {got}, expected {want}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 33);
}
