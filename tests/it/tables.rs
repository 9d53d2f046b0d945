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
    let (plan, _, _) =
        rtc::pipeline::plan(&model, &Method::BackwardEuler, Default::default()).unwrap();
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
