//! The step-halving check of a run: the same run at half the step, compared with it.
//!
//! The characteristic-root errors ([`crate::analysis::accuracy`], Howe §1.3) judge the method on the
//! model's modes at the initial point. They do not see what the modes do not carry: the modes
//! of a switched circuit after its first events (a thyristor's inductive load conducts only
//! after it fires), the error of integrating what drives a mode (a mean value's integrator of
//! a switched voltage, der(x) = u, has no mode to judge), an event's location. The run itself
//! does: with a method of order p, the global error of a run at step h is about
//! 2^p / (2^p − 1) times the difference between the runs at h and h/2 (Richardson's
//! extrapolation; Cellier & Kofman ch. 3's step-size control in hindsight, for the whole run).
//!
//! **The measure** is the verification harness's ([`crate`]'s `msl_verify` example): per
//! recorded signal, at every row of the finer run (its output grid and its event rows), the
//! smallest distance to the coarser run's trajectory (linear between rows) at the times
//! t + kΔ, k = −2…2, Δ the output interval (an event a fraction of a step away moves a jump by
//! that much, not the answer), over the signal's scale: the larger of its peak-to-peak range and
//! 0.1 % of its largest magnitude. The run's estimate is the largest over its signals, times
//! 2^p / (2^p − 1).
//!
//! **What rtc does with it.** Outside real time (where a run is not repeated), `rtc run`
//! makes the check before it writes its result, unless `--no-check`. When the user chose
//! neither the method nor the step, rtc halves the step until the estimate is within half the
//! tolerance ([`MARGIN`]) ([`MAX_HALVINGS`] times at most, and never below the output interval /
//! [`crate::analysis::accuracy::MAX_REFINEMENT`] × 2); a run whose estimate stays above the tolerance,
//! or whose method and step the user chose, gets a warning naming the signal, the estimate,
//! where, and the advice. A default step at which the run stops (Newton, a singular Jacobian,
//! a chattering event) is halved within the same bounds until a run gets through, and the
//! check goes on from there; where none does and rtc chose the trapezoid or radau, backward
//! Euler takes the default step over (L-stable and one equation per loop: the method whose
//! step equations have a solution most often), with its own check. Where backward Euler may
//! not take over (its own runs, or a method the user named), the stopping step is halved
//! further ([`MAX_RESCUE_HALVINGS`] times, never below the output interval /
//! [`RESCUE_FLOOR`]), and the run that gets through is taken only where the check, refining
//! within the same bound, confirms it. Where backward Euler's run is not confirmed and rtc
//! chose the method, radau (order 3 where backward Euler has 1: at the same step its error is
//! smaller by far where the solution is smooth between switches) gets the same search from the
//! default step, its run taken only where the check confirms it; otherwise the run stops at the
//! default step as it would have, with a note on why the smaller step's run was not taken.

use crate::pipeline::MAX_REFINEMENT;

/// A default step is halved until the estimate is within this fraction of the tolerance:
/// Richardson's estimate is asymptotic, and across events and switches it is good to a factor
/// of about two (the MSL's LCOscillator: estimated 0.9 %, 1.05 % from the reference).
pub const MARGIN: f64 = 0.5;

/// The most times the default step is halved for the check.
pub const MAX_HALVINGS: u32 = 4;

/// The most times a default step at which the run stops is halved to get it through: the
/// MSL's Spice3 `Oscillator`, whose regenerative switches backward Euler's Newton follows
/// only at steps near 1e-8 s (its output interval 5e-6 s halved ten times where the check
/// refines it), stopped at the four halvings of the check; the MSL's `PreLoad` (elasto-gap
/// contacts of 1e6 N/m on 10 g plates, closing within the first millisecond), whose runs radau's
/// check confirms at its output interval 0.1 s halved twelve times (2.4e-5 s).
pub const MAX_RESCUE_HALVINGS: u32 = 12;

/// A rescued step is no shorter than the output interval over this.
pub const RESCUE_FLOOR: f64 = 4096.0;

/// A run's recorded signals: times (repeated at events) and one row of values per time.
#[derive(Default)]
pub(super) struct Trajectory {
    pub names: Vec<String>,
    pub time: Vec<f64>,
    pub rows: Vec<Vec<f64>>,
}

/// The largest difference between two runs, in units of the signal's scale.
#[derive(Clone, Debug)]
pub(super) struct Difference {
    pub signal: String,
    pub relative: f64,
    pub at: f64,
}

/// The values of column `c` of `tr` at `t`: every row within 1e-9 of max(|t|, `delta`) of
/// `t` (both sides of an event: two runs' clocks round differently, their event locations
/// agree to about that), else linear between the rows around it, held outside the recorded span.
fn values_at(tr: &Trajectory, c: usize, t: f64, delta: f64, out: &mut Vec<f64>) {
    out.clear();
    let n = tr.time.len();
    if n == 0 {
        return;
    }
    let eps = 1e-9 * t.abs().max(delta);
    let i = tr.time.partition_point(|&x| x < t - eps);
    if i == n {
        out.push(tr.rows[n - 1][c]);
        return;
    }
    if tr.time[i] <= t + eps {
        let mut j = i;
        while j < n && tr.time[j] <= t + eps {
            out.push(tr.rows[j][c]);
            j += 1;
        }
        return;
    }
    if i == 0 {
        out.push(tr.rows[0][c]);
        return;
    }
    let (t0, t1) = (tr.time[i - 1], tr.time[i]);
    let f = (t - t0) / (t1 - t0);
    out.push(tr.rows[i - 1][c] + f * (tr.rows[i][c] - tr.rows[i - 1][c]));
}

/// How far `coarse` is from `fine` (the measure of the module documentation), per the worst
/// signal; `None` without signals or rows.
pub(super) fn difference(fine: &Trajectory, coarse: &Trajectory, delta: f64) -> Option<Difference> {
    let mut worst: Option<Difference> = None;
    let mut buf = Vec::new();
    for (c, name) in fine.names.iter().enumerate() {
        let (mut lo, mut hi, mut mag) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
        for r in &fine.rows {
            let x = r[c];
            if x.is_finite() {
                lo = lo.min(x);
                hi = hi.max(x);
                mag = mag.max(x.abs());
            }
        }
        if lo > hi {
            continue;
        }
        let scale = (hi - lo).max(1e-3 * mag).max(1e-9);
        let (mut err, mut at) = (0.0f64, 0.0);
        for (r, &t) in fine.rows.iter().zip(&fine.time) {
            let x = r[c];
            let mut best = f64::INFINITY;
            for k in -2..=2 {
                values_at(coarse, c, t + k as f64 * delta, delta, &mut buf);
                for &y in &buf {
                    let d = (y - x).abs();
                    if d.is_finite() {
                        best = best.min(d);
                    }
                }
            }
            if best / scale > err {
                err = best / scale;
                at = t;
            }
        }
        if worst.as_ref().is_none_or(|w| err > w.relative) {
            worst = Some(Difference {
                signal: name.clone(),
                relative: err,
                at,
            });
        }
    }
    worst
}

/// Richardson's factor 2^p / (2^p − 1) from the difference of the runs at h and h/2 to the
/// error of the run at h, for a method of order `p`.
pub(super) fn richardson(p: u32) -> f64 {
    let q = f64::from(1u32 << p.min(16));
    q / (q - 1.0)
}

/// Whether the default step may be halved once more: at most [`MAX_HALVINGS`] times, and the
/// halved step no shorter than the output interval / (2 × MAX_REFINEMENT).
pub(super) fn may_halve(halvings: u32, h: f64, interval: f64) -> bool {
    halvings < MAX_HALVINGS && h / 2.0 >= interval / (2 * MAX_REFINEMENT) as f64 * (1.0 - 1e-9)
}

/// Whether a default step at which the run stops may be halved once more to get it through:
/// at most [`MAX_RESCUE_HALVINGS`] times, the halved step no shorter than the output
/// interval / [`RESCUE_FLOOR`].
pub(super) fn may_rescue(halvings: u32, h: f64, interval: f64) -> bool {
    halvings < MAX_RESCUE_HALVINGS && h / 2.0 >= interval / RESCUE_FLOOR * (1.0 - 1e-9)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tr(time: &[f64], v: &[f64]) -> Trajectory {
        Trajectory {
            names: vec!["x".into()],
            time: time.to_vec(),
            rows: v.iter().map(|&x| vec![x]).collect(),
        }
    }

    #[test]
    fn a_shifted_jump_is_not_a_difference_but_an_offset_is() {
        // A step from 0 to 1 at t = 0.5 in the fine run, at 0.51 in the coarse one: within
        // two output intervals (0.01), so no difference.
        let t: Vec<f64> = (0..=100).map(|k| k as f64 * 0.01).collect();
        let fine = tr(
            &t,
            &t.iter().map(|&x| f64::from(x >= 0.5)).collect::<Vec<_>>(),
        );
        let coarse = tr(
            &t,
            &t.iter().map(|&x| f64::from(x >= 0.51)).collect::<Vec<_>>(),
        );
        let d = difference(&fine, &coarse, 0.01).unwrap();
        assert!(d.relative < 1e-12, "{d:?}");
        // An offset of 2 % of a ramp's range: the shifts find a closer point of the ramp
        // inside the span, not at its start (held before it): 2 % there.
        let off = tr(&t, &t.iter().map(|&x| x + 0.02).collect::<Vec<_>>());
        let base = tr(&t, &t);
        let d = difference(&base, &off, 0.01).unwrap();
        assert!((d.relative - 0.02).abs() < 1e-12 && d.at == 0.0, "{d:?}");
        let flat_fine = tr(&t, &t.iter().map(|&x| (x * 6.0).sin()).collect::<Vec<_>>());
        let flat_coarse = tr(
            &t,
            &t.iter()
                .map(|&x| 1.05 * (x * 6.0).sin())
                .collect::<Vec<_>>(),
        );
        let d = difference(&flat_fine, &flat_coarse, 0.01).unwrap();
        assert!(d.relative > 0.01 && d.relative < 0.03, "{d:?}");
    }

    #[test]
    fn richardson_factors() {
        assert_eq!(richardson(1), 2.0);
        assert!((richardson(2) - 4.0 / 3.0).abs() < 1e-15);
    }
}
