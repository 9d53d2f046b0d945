//! Functions compiled out of line (specification 12; `compiler/src/flatten/outofline.rs`):
//! they give the results of inlining, their derivatives (symbolic forward mode, or the
//! `derivative` annotation's function) agree with finite differences, the annotations
//! decide what is inlined, the work of a call is within the printed bound, and index
//! reduction differentiates through a call.

use crate::common;
use rtc::flatten::Options;
use rtc::pipeline::{check_source, Method};
use rtc::plan::interp::Interp;
use rtc::plan::Status;
use rtc::sim::{trajectory, RunSettings};
use rtc::symbolic::function::DerArg;

fn load(file: &str, inline_all: bool) -> rtc::flat::FlatModel {
    let path = common::repo_root()
        .join("tests/models/functions")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("read model");
    let opts = Options {
        inline_all,
        ..Default::default()
    };
    let c = check_source(file, &text, &opts);
    assert!(!c.has_errors(), "{file}: {:?}", c.short_diagnostics());
    c.model.expect("model")
}

fn names(m: &rtc::flat::FlatModel) -> Vec<String> {
    m.arena.functions().iter().map(|f| f.name.clone()).collect()
}

const VARS: [&str; 10] = ["x", "w", "y", "z", "s", "p", "q", "r", "e1", "e2"];

fn run(m: &rtc::flat::FlatModel, method: &Method, h: f64) -> Vec<Vec<f64>> {
    let plan = rtc::pipeline::plan(m, &rtc::pipeline::Settings::of(method))
        .expect("plan")
        .plan;
    let settings = RunSettings {
        start: 0.0,
        stop: 2.0,
        step: h,
        every: 10,
        ..Default::default()
    };
    let names: Vec<String> = VARS.iter().map(|s| s.to_string()).collect();
    let (tr, failure) = trajectory(&plan, &settings, &names).expect("run");
    assert!(failure.is_none(), "{:?}", failure.map(|f| f.message));
    tr.values
}

/// The same model with every call inlined (`--inline-functions`) runs to the same values:
/// the calls compute what the inlined expressions compute; only Newton's iterates may take
/// another path to the same solution (tolerance 1e-10 relative, the iteration's).
#[test]
fn compiled_functions_give_what_inlining_gives() {
    let out = load("OutOfLine.mo", false);
    let inl = load("OutOfLine.mo", true);
    let compiled = names(&out);
    for f in [
        "OutOfLine.polyval",
        "OutOfLine.sumProd",
        "OutOfLine.cube",
        "OutOfLine.shifted",
    ] {
        assert!(
            compiled.iter().any(|n| n == f),
            "{f} not compiled: {compiled:?}"
        );
    }
    // Inline = true wins over the loop; the derivative function is compiled with its
    // function (it is not called from the model).
    assert!(
        !compiled.iter().any(|n| n == "OutOfLine.smallLoop"),
        "{compiled:?}"
    );
    assert!(names(&inl).is_empty(), "{:?}", names(&inl));
    for (method, h) in [
        (Method::BackwardEuler, 0.01),
        (Method::Trapezoid, 0.01),
        (Method::ForwardEuler, 0.01),
        (Method::Radau, 0.05),
    ] {
        let (a, b) = (run(&out, &method, h), run(&inl, &method, h));
        assert_eq!(a.len(), b.len());
        let mut worst = 0.0f64;
        for (ra, rb) in a.iter().zip(&b) {
            for (x, y) in ra.iter().zip(rb) {
                worst = worst.max((x - y).abs() / y.abs().max(1.0));
            }
        }
        eprintln!("{}: largest relative difference {worst:e}", method.name());
        assert!(worst < 1e-10, "{}: {worst}", method.name());
    }
}

/// Every compiled function's derivative — the directional derivative of its body, and the
/// `derivative` annotation's function where there is one — against central differences of
/// the function itself at points in [0.5, 2]: agreement to 1e-7 relative (the difference
/// step 1e-6 leaves a truncation error of order 1e-12·f''' and a rounding error of order
/// 1e-10·|f|).
#[test]
fn function_derivatives_match_finite_differences() {
    let m = load("OutOfLine.mo", false);
    let mut checked = 0;
    let mut annotated = 0;
    for f in m.arena.functions() {
        let n = f.arity;
        let dot = f.dot();
        for trial in 0..5 {
            let x: Vec<f64> = (0..n)
                .map(|i| 0.5 + 1.5 * (((i * 7 + trial * 3) % 11) as f64) / 10.0)
                .collect();
            for i in 0..n {
                let s = 1e-6 * x[i].abs().max(1.0);
                let (mut xp, mut xm) = (x.clone(), x.clone());
                xp[i] += s;
                xm[i] -= s;
                let (fp, fm) = (f.eval(&xp), f.eval(&xm));
                let mut args = x.clone();
                args.extend((0..n).map(|j| if j == i { 1.0 } else { 0.0 }));
                let d = dot.eval(&args);
                // The annotation's function, for the arguments it takes a derivative of.
                let user = f.derivative.as_ref().map(|u| {
                    let mut a = x.clone();
                    a.extend(
                        u.args
                            .iter()
                            .enumerate()
                            .filter(|(_, m)| **m == DerArg::Der)
                            .map(|(j, _)| if j == i { 1.0 } else { 0.0 }),
                    );
                    (u.f.eval(&a), u.args[i] == DerArg::Der)
                });
                for k in 0..f.outs.len() {
                    let fd = (fp[k] - fm[k]) / (2.0 * s);
                    let tol = 1e-7 * fd.abs().max(1.0);
                    assert!(
                        (d[k] - fd).abs() <= tol,
                        "{} output {k}, d/darg {i} at {x:?}: symbolic {}, difference {fd}",
                        f.name,
                        d[k]
                    );
                    if let Some((u, true)) = &user {
                        assert!(
                            (u[k] - fd).abs() <= tol,
                            "{}'s derivative annotation, output {k}, d/darg {i}: {} vs {fd}",
                            f.name,
                            u[k]
                        );
                        annotated += 1;
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked > 50 && annotated > 0,
        "{checked} checked, {annotated} annotated"
    );
}

/// The derivative annotation's function is what the Jacobian calls (not the body's
/// derivative); a `LateInline` function is a call in the flat model and written out in the
/// step; `polyval` is differentiated symbolically.
#[test]
fn annotations_decide_calls_and_derivatives() {
    let m = load("OutOfLine.mo", false);
    let flat = m.print();
    assert!(flat.contains("OutOfLine.shifted("), "{flat}");
    let plan = rtc::pipeline::plan(&m, &rtc::pipeline::Settings::of(&Method::BackwardEuler))
        .expect("plan")
        .plan;
    let text = plan.print();
    assert!(text.contains("OutOfLine.cubeDer(z, gain, 1)"), "{text}");
    assert!(!text.contains("OutOfLine.cube_der"), "{text}");
    assert!(text.contains("OutOfLine.polyval_der("), "{text}");
    // zeroDerivative = k: with a parameter k the annotation applies; where k = e2 + 1
    // moves with the unknown e2 it does not, and the body is differentiated.
    assert!(text.contains("OutOfLine.scaledDer(e1, gain, 1)"), "{text}");
    assert!(
        text.contains("OutOfLine.scaled_der(e2, e2 + 1, 1, 1)"),
        "{text}"
    );
    assert!(!text.contains("OutOfLine.shifted"), "{text}");
    assert!(
        text.contains("OutOfLine.polyval(c[1], c[2], c[3], w) + 1"),
        "{text}"
    );
}

/// The interpreter's executed work per step stays within the plan's printed bound, which
/// counts each call's whole body once per distinct arguments.
#[test]
fn calls_are_within_the_work_bound() {
    let m = load("OutOfLine.mo", false);
    for method in [Method::BackwardEuler, Method::Trapezoid] {
        let plan = rtc::pipeline::plan(&m, &rtc::pipeline::Settings::of(&method))
            .expect("plan")
            .plan;
        let bound = plan.work_bound();
        let mut it = Interp::new(&plan);
        let mut mem = it.memory();
        assert_eq!(it.init(&mut mem, 0.0), Status::Ok);
        let mut worst = 0;
        for k in 0..200 {
            it.executed = Default::default();
            assert_eq!(it.step(&mut mem, k as f64 * 0.01, 0.01), Status::Ok);
            assert!(
                it.executed.flops <= bound.flops,
                "{}: executed {:?} > bound {bound:?}",
                method.name(),
                it.executed
            );
            worst = worst.max(it.executed.flops);
        }
        // The bound is reached when Newton takes its iterations; a plain step is well within.
        assert!(worst > 0 && worst <= bound.flops);
    }
}

/// Index reduction differentiates the constraint y = g(x) through the call of g: der(y) is
/// the call of g's derivative, and y, z follow the closed form (y from the constraint to
/// rounding, z = g'(x)·der(x) to the method's error in x).
#[test]
fn index_reduction_differentiates_through_a_call() {
    let m = load("Constrained.mo", false);
    assert_eq!(names(&m)[0], "Constrained.g");
    let g = |x: f64| x + x * x / 2.0 + x * x * x / 3.0;
    for (method, h, tol) in [
        (Method::BackwardEuler, 1e-3, 1e-3),
        (Method::Trapezoid, 1e-3, 1e-6),
    ] {
        let plan = rtc::pipeline::plan(&m, &rtc::pipeline::Settings::of(&method))
            .expect("plan")
            .plan;
        assert!(
            plan.print().contains("Constrained.g_der("),
            "{}",
            plan.print()
        );
        let settings = RunSettings {
            start: 0.0,
            stop: 1.0,
            step: h,
            every: 100,
            ..Default::default()
        };
        let names: Vec<String> = ["x", "y", "z"].iter().map(|s| s.to_string()).collect();
        let (tr, failure) = trajectory(&plan, &settings, &names).expect("run");
        assert!(failure.is_none());
        for (t, v) in tr.times.iter().zip(&tr.values) {
            let x = 1.0 - 0.5 * (-t).exp();
            assert!(
                (v[0] - x).abs() < tol,
                "{} t = {t}: x {} vs {x}",
                method.name(),
                v[0]
            );
            assert!(
                (v[1] - g(v[0])).abs() < 1e-12,
                "y off the constraint at t = {t}"
            );
            let z = (1.0 + v[0] + v[0] * v[0]) * (1.0 - v[0]);
            assert!(
                (v[2] - z).abs() < 1e-9,
                "{} t = {t}: z {} vs {z}",
                method.name(),
                v[2]
            );
        }
    }
}

/// An assertion in `when terminal()` on what a call assigned (`(info, total) := stats(buf);
/// assert(info == 0, …)`, as the MSL's RealFFT does after its FFT) reads the assigned
/// variable: the call is made once, in the terminal event's actions, and not again in every
/// step's assertion check (`tests/models/functions/TerminalCallAssert.mo`). The assertion
/// still fails where the event's call says so, once, at the end (before the terminal event
/// the variable holds its start, 0, and every step passes).
#[test]
fn terminal_assertions_read_what_the_call_assigned() {
    let m = load("TerminalCallAssert.mo", false);
    assert!(
        names(&m).iter().any(|n| n.contains("stats")),
        "{:?}",
        names(&m)
    );
    let a = m
        .assertions
        .iter()
        .find(|a| a.message.contains("reports an error"))
        .expect("the assertion");
    let calls = m
        .arena
        .post_order(a.condition, |_| false)
        .into_iter()
        .filter(|&id| matches!(m.arena.node(id), rtc::symbolic::Node::Call(_)))
        .count();
    assert_eq!(calls, 0, "the assertion makes the call again");
    // The run: the terminal event's actions make the call once, after the last step.
    let dir = common::repo_root().join("tests/models/functions");
    let (code, out, err) = common::rtc_in(
        &dir,
        &[
            "run",
            "TerminalCallAssert.mo",
            "--method",
            "be",
            "--step",
            "0.01",
            "--stop",
            "1",
            "--no-check",
            "--no-event-rows",
            "--vars",
            "x",
        ],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("stats reports an error"), "{err}");
    // Every step up to the stop time ran (the check is the terminal event's, not a step's).
    assert_eq!(common::last_value(&out, 0), 1.0, "{out}");
}
