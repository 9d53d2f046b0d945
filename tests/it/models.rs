//! Whole models against closed forms and independent references: alias sets that keep the
//! fixed start value (mass–spring–damper and its twins) and the function-heavy cruise control
//! example against scipy.

use crate::common;

use rtc::pipeline::Method;
use rtc::sim::{trajectory, RunSettings};

/// Largest deviation of `name` from `exact(t)` with `method` at step `h` over the model's
/// experiment (`../tests/models/<file>`); also checks that the default recording holds
/// exactly `states` (the step system's states, not the aliases of one).
fn closed_form_error(
    file: &str,
    method: Method,
    h: f64,
    stop: f64,
    name: &str,
    states: &[&str],
    exact: &dyn Fn(f64) -> f64,
) -> f64 {
    let plan = common::compile_example(&format!("../tests/models/{file}"), method, &[], 10);
    let selected = rtc::sim::select_outputs(&plan, &[]).expect("outputs");
    let recorded: Vec<&str> = selected
        .iter()
        .map(|&i| plan.outputs[i].name.as_str())
        .collect();
    assert_eq!(recorded, states, "{file}: recorded by default");
    run_deviation(&plan, h, stop, name, exact)
}

/// Largest deviation of `name` from `exact(t)` in a run of `plan` from 0 to `stop` at step
/// `h`, every step recorded; the run must reach `stop`.
fn run_deviation(
    plan: &rtc::plan::Plan,
    h: f64,
    stop: f64,
    name: &str,
    exact: &dyn Fn(f64) -> f64,
) -> f64 {
    let settings = RunSettings {
        start: 0.0,
        stop,
        step: h,
        every: 1,
        ..Default::default()
    };
    let (tr, failure) = trajectory(plan, &settings, &[name.to_string()]).expect("run");
    assert!(
        failure.is_none(),
        "{name}: {:?}",
        failure.map(|f| f.message)
    );
    let x = tr.column(name).expect("column");
    tr.times
        .iter()
        .zip(&x)
        .map(|(&t, &v)| (v - exact(t)).abs())
        .fold(0.0, f64::max)
}

/// Alias elimination keeps the start value of the member with `fixed = true` (before, the
/// first declared state of the set was kept and the mass started at 0). The damped
/// oscillators start at 0.1 (mechanics) and 1 V (electrics) and follow the closed form
/// x0·exp(−a t)·(cos ωd t ± a/ωd·sin ωd t), ω0 = 2, a = 0.25. The trapezoidal rule's phase
/// error is ωd³h²t/12 ≈ 3.3e-6 rad at h = 1e-3, t = 5 s: below 1e-6 on the 0.1 amplitude,
/// 1e-5 on the 1 V one, and a quarter of that at h/2 (second order).
#[test]
fn alias_sets_keep_the_fixed_start_value() {
    let (w0, a) = (2.0f64, 0.25f64);
    let wd = (w0 * w0 - a * a).sqrt();
    let mech = move |t: f64| 0.1 * (-a * t).exp() * ((wd * t).cos() + a / wd * (wd * t).sin());
    let elec = move |t: f64| (-a * t).exp() * ((wd * t).cos() - a / wd * (wd * t).sin());
    type Case<'a> = (&'a str, &'a str, &'a [&'a str], f64, &'a dyn Fn(f64) -> f64);
    let cases: [Case; 4] = [
        ("MassStart.mo", "mass.s", &["mass.s", "mass.v"], 1e-6, &mech),
        (
            "InertiaStart.mo",
            "inertia.phi",
            &["inertia.phi", "inertia.w"],
            1e-6,
            &mech,
        ),
        (
            "ParallelRLC.mo",
            "capacitor.v",
            &["inductor.i", "capacitor.v"],
            1e-5,
            &elec,
        ),
        // Through its alias: the flange of the damper is the mass.
        (
            "MassStart.mo",
            "damper.flange_b.s",
            &["mass.s", "mass.v"],
            1e-6,
            &mech,
        ),
    ];
    for (file, name, states, tol, exact) in cases {
        let e1 = closed_form_error(file, Method::Trapezoid, 1e-3, 5.0, name, states, exact);
        let e2 = closed_form_error(file, Method::Trapezoid, 5e-4, 5.0, name, states, exact);
        eprintln!(
            "{file} {name}: error {e1:.3e} at h = 1e-3, {e2:.3e} at 5e-4, ratio {:.2}",
            e1 / e2
        );
        assert!(e1 < tol, "{file}: {e1}");
        assert!((3.5..4.5).contains(&(e1 / e2)), "{file}: ratio {}", e1 / e2);
    }
    // y = −x with y fixed at 2: x starts at −2 (its own start value 5 is not fixed); y, the
    // member with the fixed start, is the state the step system keeps.
    let e = closed_form_error(
        "NegatedStart.mo",
        Method::BackwardEuler,
        1e-3,
        2.0,
        "x",
        &["y"],
        &|t| -2.0 * (-t).exp(),
    );
    // Backward Euler's global error on x' = −x is about h·t·e^(−t)·|x0|/2 ≤ 1e-3·0.37.
    assert!(e < 4e-4, "NegatedStart: {e}");
}

/// The function-heavy example (table interpolation in a bounded while-loop, a clamp, a
/// polynomial by Horner's scheme, all inlined) against scipy's Radau on an independent Python
/// implementation (tests/refdata/cruise.py). The clamp and the table have kinks that no event
/// marks (relations in functions are `noEvent`), so the trapezoid rule is second order between
/// kinks and loses order across them. Measured: 8.5e-5 m/s at h = 0.01, 1.6e-5 at h = 0.005
/// (ratio 5.2, about second order); asserted: below 2e-4 m/s at h = 0.01 and a ratio above 3.
#[test]
fn cruise_control_functions_match_reference() {
    let (_, rows) = common::read_csv(&common::refdata().join("cruise.csv"));
    let mut errs = Vec::new();
    for h in [0.01f64, 0.005] {
        let plan = common::compile_example("CruiseControl.mo", Method::Trapezoid, &[], 10);
        let every = (0.1 / h).round() as usize;
        let settings = RunSettings {
            start: 0.0,
            stop: 40.0,
            step: h,
            every,
            ..Default::default()
        };
        let names = vec!["v".to_string(), "xi".to_string()];
        let (tr, failure, _) =
            rtc::sim::trajectory_with_events(&plan, &settings, &names).expect("run");
        assert!(failure.is_none(), "{failure:?}");
        assert_eq!(tr.values.len(), rows.len());
        let worst = tr
            .values
            .iter()
            .zip(&rows)
            .map(|(got, want)| (got[0] - want[1]).abs())
            .fold(0.0f64, f64::max);
        errs.push(worst);
    }
    eprintln!(
        "cruise control, trapezoid: max |v - v_ref| {:.2e} at h = 0.01, {:.2e} at h = 0.005",
        errs[0], errs[1]
    );
    assert!(errs[0] < 2e-4, "{errs:?}");
    assert!(errs[1] < errs[0] / 3.0, "{errs:?}");
}

/// A rotation solved for the rotated vector (`tests/models/loops/Rotation.mo`): b = Rᵀ(φ)·a
/// with φ = t (forward Euler integrates der(φ) = 1 exactly up to rounding), through φ = 0,
/// π/2, π and 3π/2, for the explicit and an implicit method.
#[test]
fn rotation_is_solved_at_every_angle() {
    for method in [Method::ForwardEuler, Method::BackwardEuler] {
        let plan = common::compile_example("../tests/models/loops/Rotation.mo", method, &[], 10);
        let settings = RunSettings {
            start: 0.0,
            stop: 6.5,
            step: 0.01,
            every: 10,
            ..Default::default()
        };
        let names: Vec<String> = ["phi", "b[1]", "b[2]"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (tr, failure) = trajectory(&plan, &settings, &names).expect("run");
        assert!(failure.is_none(), "{:?}", failure.map(|f| f.message));
        for (t, v) in tr.times.iter().zip(&tr.values) {
            let (phi, a1, a2) = (v[0], (2.0 * t).cos(), 1.0);
            let b1 = phi.cos() * a1 + phi.sin() * a2;
            let b2 = -phi.sin() * a1 + phi.cos() * a2;
            assert!(
                (v[1] - b1).abs() < 1e-12 && (v[2] - b2).abs() < 1e-12,
                "t = {t}: {v:?}"
            );
        }
    }
}

/// A series resistance of zero (`i*Rs = vin - v` with `Rs = 0`) changes the structure: the
/// equation constrains the capacitor's voltage and no longer determines the current. The
/// term is left out before index reduction (the model's notes say so) and `Rs` is no longer
/// tunable; the current is then C·d(vin)/dt = 0.01·cos(10 t), exact up to rounding since
/// index reduction differentiates `vin = sin(10 t)` symbolically. With Rs = 0.5 the term
/// stays, the circuit is an RC one, and Rs is tunable. (Before, the zero term was kept and
/// the initial Jacobian was singular.)
#[test]
fn zero_series_resistance_is_evaluated_for_the_structure() {
    let file = "../tests/models/ZeroSeriesResistance.mo";
    let plan = common::compile_example(file, Method::BackwardEuler, &[], 10);
    assert!(
        plan.notes
            .iter()
            .any(|n| n.contains("`i*Rs` (`Rs` = 0) is zero") && n.contains("Rs now constant")),
        "{:?}",
        plan.notes
    );
    assert!(!plan
        .tunable_parameters()
        .iter()
        .any(|&s| plan.vars[s.index()].name == "Rs"));
    let worst = run_deviation(&plan, 1e-3, 1.0, "i", &|t| 0.01 * (10.0 * t).cos());
    assert!(worst < 1e-12, "largest deviation {worst:e}");

    let plan = common::compile_example(file, Method::BackwardEuler, &[("Rs", 0.5)], 10);
    assert!(!plan.notes.iter().any(|n| n.contains("is zero")));
    assert!(plan
        .tunable_parameters()
        .iter()
        .any(|&s| plan.vars[s.index()].name == "Rs"));
}

/// A zero resistance in front of a node in a circuit that needs index reduction anyway (a
/// capacitor between two supplies, as in a MOSFET's gate): the matching's deficiency is the
/// same with and without the term `ird*Rd`, but without it index reduction finds the node
/// constrained (`d = vs`) and one state fewer. The term is left out; the current is then
/// C·d(vs)/dt + G·vs = 0.01·cos(10 t) + 0.5·sin(10 t), exact up to rounding (index reduction
/// differentiates `vs = sin(10 t)` symbolically). Before, the term stayed and the run ended
/// without a word 0.01 off at t = 1 (3.6 % of the current).
#[test]
fn zero_drain_resistance_leaves_a_state_out() {
    let file = "../tests/models/ZeroDrainResistance.mo";
    let plan = common::compile_example(file, Method::BackwardEuler, &[], 10);
    assert!(
        plan.notes
            .iter()
            .any(|n| n.contains("`ird*Rd` (`Rd` = 0) is zero") && n.contains("Rd now constant")),
        "{:?}",
        plan.notes
    );
    let worst = run_deviation(&plan, 1e-3, 1.0, "ird", &|t| {
        0.01 * (10.0 * t).cos() + 0.5 * (10.0 * t).sin()
    });
    assert!(worst < 1e-12, "largest deviation {worst:e}");
}

/// A node capacitance computed by a function of the voltage, `cox` times a shape, with
/// `cox = 0` (a MOSFET whose card gives no oxide thickness, as in the MSL's Spice3 inverters):
/// the term `c*der(v)` is zero whatever `v`, so `v` is no state but the divider's voltage,
/// v = G·u/(G + Gl) = 0.5·sin(10 t), exact up to rounding. Before, `v` stayed a state whose
/// derivative was 0/0, and the run stopped at the start.
/// The same through a variable the capacitance reads (`c = Taur*exp(v) + cdep`, `cdep =
/// Cjc*(1 + v^2)`, both parameters zero: a transistor's junction, as in the MSL's heating NOR
/// gates); both parameters become constants.
#[test]
fn a_capacitance_zero_at_the_parameters_leaves_no_state() {
    for (file, frozen) in [
        ("../tests/models/ZeroCapacitanceFunction.mo", &["cox"][..]),
        (
            "../tests/models/ZeroJunctionCapacitance.mo",
            &["Taur", "Cjc"][..],
        ),
    ] {
        a_zero_capacitance(file, frozen);
    }
}

fn a_zero_capacitance(file: &str, frozen: &[&str]) {
    let plan = common::compile_example(file, Method::BackwardEuler, &[], 10);
    assert!(
        plan.notes.iter().any(|n| n.contains("(`c` = 0) is zero")
            && frozen.iter().all(|p| n.contains(p))
            && n.contains("now constant")),
        "{:?}",
        plan.notes
    );
    assert!(
        plan.notes
            .iter()
            .any(|n| n.contains("`v` no longer under `der`")),
        "{:?}",
        plan.notes
    );
    let worst = run_deviation(&plan, 1e-2, 1.0, "v", &|t| 0.5 * (10.0 * t).sin());
    assert!(worst < 1e-12, "largest deviation {worst:e}");
}

/// `tests/models/<file>` planned for backward Euler with the Newton settings `newton`.
fn be_plan(file: &str, newton: rtc::plan::Newton) -> rtc::plan::Plan {
    let path = format!("../tests/models/{file}");
    let text = std::fs::read_to_string(common::repo_root().join("tests/models").join(file))
        .expect("read model");
    let c = rtc::pipeline::check_source(&path, &text, &Default::default());
    let model = c.model.expect("checks");
    rtc::pipeline::plan(
        &model,
        &rtc::pipeline::Settings::of(&Method::BackwardEuler).newton(newton),
    )
    .unwrap()
    .plan
}

/// A junction behind a resistor whose supply switches from 0 to 1 V: Newton starts where the
/// exponential is flat, its first full step lands at 1 V (e^40 up the curve), and each later
/// step comes back by about one thermal voltage — 22 iterations to the solution, 0.61 V.
/// Past the limit of 10 the iteration goes on while the residual keeps falling; the voltage
/// is the root of the circuit's equation (found here by bisection) to Newton's tolerance.
/// Without the extension the step stops in Newton (the MSL's Spice3 `Inverter` and `Nand`
/// stopped so).
#[test]
fn newton_goes_on_while_a_junction_comes_down_its_exponential() {
    let plan_with = |newton| be_plan("JunctionSwitchOn.mo", newton);
    let settings = RunSettings {
        start: 0.0,
        stop: 1.0,
        step: 0.1,
        every: 1,
        ..Default::default()
    };
    let names = ["v".to_string()];
    let plan = plan_with(rtc::plan::Newton::default());
    let (tr, failure) = trajectory(&plan, &settings, &names).expect("run");
    assert!(failure.is_none(), "{:?}", failure.map(|f| f.message));
    // The root of (1 − v)/R = Is·(exp(v/Vt) − 1) + G·v, by bisection.
    let f = |v: f64| (1.0 - v) / 1e3 - 1e-14 * ((v / 0.025).exp() - 1.0) - 1e-12 * v;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let v = tr.column("v").unwrap();
    let last = *v.last().unwrap();
    assert!((last - lo).abs() < 1e-9, "{last} against {lo}");
    // Without the extension: stopped in Newton when the supply switched on.
    let plain = plan_with(rtc::plan::Newton {
        extended: 0,
        damped: 0,
        ..Default::default()
    });
    let (_, failure) = trajectory(&plain, &settings, &names).unwrap();
    let failure = failure.expect("stops without the extension");
    assert!(
        matches!(failure.status, rtc::plan::Status::NotConverged { .. }),
        "{failure:?}"
    );
    // A non-finite unknown of that loop at the start is named as a diverged Newton
    // iteration, with start values (not a shorter step) as the remedy; a variable of no loop
    // has no such cause without a history.
    let torn = plan
        .step
        .iter()
        .find_map(|s| match s {
            rtc::plan::Stmt::Block(b) => Some(b.tearing[0]),
            _ => None,
        })
        .expect("a torn loop");
    let cause =
        rtc::sim::RunModel::start_failure_cause(&plan, rtc::plan::Status::NonFinite { var: torn })
            .expect("a cause");
    assert!(
        cause.contains("solved by Newton's method: the iteration diverged (from the start values"),
        "{cause}"
    );
    assert_eq!(
        rtc::sim::RunModel::start_failure_cause(
            &plan,
            rtc::plan::Status::NonFinite { var: plan.time }
        ),
        None
    );
}

/// `tests/models/<file>` with backward Euler at h = 0.01 from 0 to `stop`, every step of
/// `names` recorded: its start must solve without the notes saying the model at the start
/// time did not, and the run must reach `stop`.
fn started_run(file: &str, stop: f64, names: &[&str]) -> rtc::sim::Trajectory {
    let plan = common::compile_example(
        &format!("../tests/models/{file}"),
        Method::BackwardEuler,
        &[],
        10,
    );
    assert!(
        !plan.notes.iter().any(|n| n.contains("did not solve")),
        "{file}: {:?}",
        plan.notes
    );
    let settings = RunSettings {
        start: 0.0,
        stop,
        step: 0.01,
        every: 1,
        ..Default::default()
    };
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let (tr, failure) = trajectory(&plan, &settings, &names).expect("run");
    assert!(
        failure.is_none(),
        "{file}: {:?}",
        failure.map(|f| f.message)
    );
    tr
}

/// Tearing leaves an equation to Newton rather than divide by one of its own loop's
/// unknowns. The heated resistor's loop (R_actual, i, Q, T) was torn on R_actual with
/// i = v/R_actual and a Jacobian that is zero while the current is (v = 0 at the start): the
/// start needed solving, damped, when compiling. Torn on i it solves from the start, and
/// T follows the closed form of (T − 300)·10·(1 + 0.01·(T − 300)) = v² to Newton's tolerance.
#[test]
fn heated_resistor_is_torn_without_dividing_by_its_loop() {
    let tr = started_run("HeatedResistor.mo", 1.0, &["T", "v"]);
    for row in &tr.values {
        let (t, v) = (row[0], row[1]);
        let d = (-10.0 + (100.0 + 0.4 * v * v).sqrt()) / 0.2;
        assert!((t - 300.0 - d).abs() < 1e-8, "T = {t}, v = {v}");
    }
}

/// Tearing leaves to Newton an equation whose coefficient is a sum of terms that each vanish
/// with the loop at rest: a transistor's loss power `Q = vbe*ibe/bf + ... + (ibe - ibc)*qbk*vce`
/// solved for `ibe` divides by `vbe/bf + qbk*vce`, zero while every source is (the gate of
/// `tests/models/HeatedGate.mo` at the start), and the start did not solve (a singular
/// Jacobian). The run: at rest until the supply ramps up (the sink stays at its start value,
/// the collectors follow the supply through the load), then transistor 1 driven high, where
/// the recorded solution must satisfy the model's own equations (transistor 1's Ebers–Moll
/// currents, its base resistor, its loss power carried away by the conductor) to Newton's
/// tolerance.
#[test]
fn heated_gate_is_torn_without_dividing_by_a_vanishing_sum() {
    let names = ["T", "t1.T", "t1.vb", "vout", "vs", "v1"];
    let tr = started_run("HeatedGate.mo", 10.0, &names);
    let (is, bf, br, vak, g_leak) = (1e-16, 50.0, 0.1, 0.02, 1e-15);
    let (g, rin) = (0.01, 1800.0);
    let mut driven = 0;
    for (&t, row) in tr.times.iter().zip(&tr.values) {
        let [sink, tj, vb, vout, vs, v1] = [row[0], row[1], row[2], row[3], row[4], row[5]];
        if t <= 5.0 {
            assert!((sink - 293.15).abs() < 1e-8, "t = {t}: T = {sink}");
            assert!(
                (vout - vs).abs() < 1e-6,
                "t = {t}: vout = {vout}, vs = {vs}"
            );
            continue;
        }
        if t < 6.0 {
            continue;
        }
        driven += 1;
        let vt = 8.617e-5 * tj;
        let ist = is * (tj / 300.0).powi(3);
        let (vbe, vbc) = (vb, vb - vout);
        let ibe = ist * ((vbe / vt).exp() - 1.0) + vbe * g_leak;
        let ibc = ist * ((vbc / vt).exp() - 1.0) + vbc * g_leak;
        let ib = ibe / bf + ibc / br;
        let qbk = 1.0 - vbc * vak;
        let q = vbc * ibc / br + vbe * ibe / bf + (ibe - ibc) * qbk * vout;
        let base = (v1 - vb) / rin;
        assert!(
            (ib - base).abs() <= 1e-6 * base.abs(),
            "t = {t}: ib {ib} vs {base}"
        );
        let carried = g * (tj - sink);
        assert!(
            (q - carried).abs() <= 1e-6 * q.abs(),
            "t = {t}: Q {q} vs {carried}"
        );
    }
    assert!(driven > 300, "{driven} driven rows");
}

/// Backward Euler for `tests/models/JunctionRamp.mo` and `ChargeRamp.mo` (the same circuit),
/// worked out here by bisection: v solves (C + Tf·g(v))·(v − pre)/h + i(v) = (12 − v)/R at
/// each step's end, the first step split at the supply's 2 ns time event (its end, 12 V).
fn junction_ramp_by_bisection(is: f64, vt: f64, times: &[f64]) -> Vec<f64> {
    let (g0, r, c, tf) = (1e-12, 1e3, 5e-9, 6e-10);
    let i = |v: f64| is * ((v / vt).exp() - 1.0) + g0 * v;
    let g = |v: f64| is / vt * (v / vt).exp() + g0;
    let mut out = vec![0.0];
    for w in times.windows(2) {
        let (pre, h) = (*out.last().unwrap(), w[1] - w[0]);
        let f = |v: f64| (c + tf * g(v)) * (v - pre) / h + i(v) - (12.0 - v) / r;
        let (mut lo, mut hi) = (pre, 12.0f64);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if f(mid) < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        out.push(lo);
    }
    out
}

/// A junction whose supply ramps to 12 V in 2 ns, stepped at 1 ms: the 2 ns part of the
/// first step leaves der(v) at 2.4e6 V/s, and the rest of that step (almost 1 ms) starts far
/// up the exponential. `JunctionRamp` (torn on v): its full steps overflow, and the damped
/// retry takes 14 evaluations, more than the 10 it had (the MSL's Spice3 `DifferentialPair`
/// stopped so). `ChargeRamp` (its capacitive currents apart, torn on der(v)): der(v) carried
/// over puts v at 2400 V, where the residual is infinite minus infinite; an infinite residual
/// was accepted against its infinite terms (the run then stopped on a non-finite current),
/// and the damped retry from there had no finite Jacobian: it starts at rest (der(v) = 0)
/// now. Both follow backward Euler worked out by bisection to Newton's tolerance
/// (|Δv| ≤ 1e-10·|v| per step, a contracting loop: 1e-8 V over the run).
#[test]
fn a_junction_crosses_its_supply_ramp_from_rest() {
    for (file, is, vt) in [
        ("JunctionRamp.mo", 1e-12, 0.025),
        ("ChargeRamp.mo", 1e-6, 1.0),
    ] {
        let plan_with = |newton| be_plan(file, newton);
        let settings = RunSettings {
            start: 0.0,
            stop: 0.01,
            step: 1e-3,
            every: 1,
            ..Default::default()
        };
        let names = ["v".to_string()];
        let plan = plan_with(rtc::plan::Newton::default());
        let (tr, failure) = trajectory(&plan, &settings, &names).expect("run");
        assert!(
            failure.is_none(),
            "{file}: {:?}",
            failure.map(|f| f.message)
        );
        let v = tr.column("v").unwrap();
        // The rows at the steps' ends; the first step's 2 ns part ends at the event.
        assert_eq!(tr.times.len(), 11, "{file}: {:?}", tr.times);
        let mut parts = vec![0.0, 2e-9];
        parts.extend(&tr.times[1..]);
        let mut want = junction_ramp_by_bisection(is, vt, &parts);
        want.remove(1);
        for ((t, got), want) in tr.times.iter().zip(&v).zip(&want) {
            assert!(
                (got - want).abs() < 1e-8,
                "{file} at {t}: {got} against {want}"
            );
        }
        if file == "JunctionRamp.mo" {
            // With the 10 damped evaluations it had: stopped at the first step.
            let ten = plan_with(rtc::plan::Newton {
                damped: 10,
                ..Default::default()
            });
            let (_, failure) = trajectory(&ten, &settings, &names).unwrap();
            let failure = failure.expect("stops with 10 damped evaluations");
            assert!(
                matches!(failure.status, rtc::plan::Status::NotConverged { .. }),
                "{failure:?}"
            );
        }
    }
}

/// A permeance defined as its reluctance's reciprocal (`R_m = 1/G_m`, as the MSL's FluxTubes
/// leakage, `QuadraticCoreAirgap`): solved symbolically, G_m = 1/R_m. It was left to Newton,
/// whose iteration from G_m = 0 has the residual R_m − ∞ and an infinite derivative; the
/// infinite residual was accepted against its infinite terms, and G_m stayed 0 without a word
/// (the flux then followed der(Phi) = 1 instead of 1 − Phi). Backward Euler at h = 0.1:
/// Phi_n = (Phi_{n−1} + h)/(1 + h), worked out here.
#[test]
fn a_reciprocal_is_solved_not_iterated() {
    let plan = common::compile_example(
        "../tests/models/Permeance.mo",
        Method::BackwardEuler,
        &[],
        10,
    );
    assert!(
        !plan
            .step
            .iter()
            .chain(&plan.init)
            .any(|s| matches!(s, rtc::plan::Stmt::Block(_))),
        "no loop left to Newton"
    );
    let settings = RunSettings {
        start: 0.0,
        stop: 1.0,
        step: 0.1,
        every: 1,
        ..Default::default()
    };
    let names = ["G_m".to_string(), "Phi".to_string()];
    let (tr, failure) = trajectory(&plan, &settings, &names).expect("run");
    assert!(failure.is_none(), "{:?}", failure.map(|f| f.message));
    let (g, phi) = (tr.column("G_m").unwrap(), tr.column("Phi").unwrap());
    let mut want = 0.0;
    for (k, t) in tr.times.iter().enumerate() {
        let r = 7e7 * (1.0 + t);
        assert!((g[k] * r - 1.0).abs() < 1e-15, "G_m at {t}: {}", g[k]);
        if k > 0 {
            want = (want + 0.1) / 1.1;
        }
        assert!(
            (phi[k] - want).abs() < 1e-15,
            "Phi at {t}: {} against {want}",
            phi[k]
        );
    }
}

/// A lag whose input a function limits on the lag's own value (the MSL's `OpAmpDetailed`
/// gain stage): a function's if generates no events, and backward Euler's step from below the
/// limit has no solution on either side of it — off, the lag's value (0 + 0.1·2000)/51.1 =
/// 3.9 is above the limit; on, (0 + 0.1·1)/1.1 = 0.09 is below it. The exact solution reaches
/// the limit at t = 1e-4 s (der(y) ≈ 1.5e4 from y = 0) and stays there: Filippov's sliding
/// solution, y = 1. The sliding retry holds y within the band, |y − 1| ≤ ½·1e-4·(|y| + 1);
/// from there each step's equation has its solution on the limit's side, y_n = (y_{n−1} +
/// 0.1)/1.1, which stays in [1, y_1]. Without the sliding retry the run stopped at its first
/// step. The same with a second state in the loop, torn to two variables (the Newton step cut
/// to the band's crossing, no bracket), and by Radau IIA, whose first stage slides.
#[test]
fn a_limited_lag_slides_along_its_limit() {
    for (file, method) in [
        ("SlidingLimiter.mo", Method::BackwardEuler),
        ("SlidingLimiterLoop.mo", Method::BackwardEuler),
        ("SlidingLimiter.mo", Method::Radau),
    ] {
        let plan =
            common::compile_example(&format!("../tests/models/{file}"), method.clone(), &[], 10);
        let blocks: Vec<&rtc::plan::TornBlock> = plan
            .step
            .iter()
            .filter_map(|s| match s {
                rtc::plan::Stmt::Block(b) => Some(&**b),
                _ => None,
            })
            .collect();
        assert_eq!(blocks.len(), 1, "{file}");
        assert!(
            blocks[0].slides(),
            "{file}: the block switches on its unknowns"
        );
        let mut it = rtc::plan::interp::Interp::new(&plan);
        let mut mem = it.memory();
        assert_eq!(it.init(&mut mem, 0.0), rtc::plan::Status::Ok);
        let y = plan.vars.iter().position(|v| v.name == "y").unwrap();
        let h = 0.01;
        let mut first = f64::NAN;
        for n in 0..10 {
            let st = it.step(&mut mem, n as f64 * h, h);
            assert_eq!(st, rtc::plan::Status::Ok, "{file} {method:?} at step {n}");
            if method == Method::BackwardEuler {
                if n == 0 {
                    first = mem[y];
                    let band = 0.5 * rtc::plan::slide::WIDTH * (first.abs() + 1.0);
                    assert!((first - 1.0).abs() <= band, "{file}: y = {first}");
                } else {
                    assert!(
                        mem[y] >= 1.0 - 1e-15 && mem[y] <= first,
                        "{file} at step {n}: y = {}",
                        mem[y]
                    );
                }
            }
        }
        let note = plan.slide_note(&mem).expect("the run slid");
        assert!(note.starts_with("1 solve of block"), "{note}");
        // Without the sliding retry: no solution at the first step.
        let mut off = plan.clone();
        for s in &mut off.step {
            if let rtc::plan::Stmt::Block(b) = s {
                b.switches.clear();
            }
        }
        let mut it = rtc::plan::interp::Interp::new(&off);
        let mut mem = it.memory();
        assert_eq!(it.init(&mut mem, 0.0), rtc::plan::Status::Ok);
        let st = it.step(&mut mem, 0.0, h);
        assert!(
            matches!(st, rtc::plan::Status::NotConverged { .. }),
            "{file} {method:?}: {st:?}"
        );
    }
}
