//! How `rtc run` chooses its method and step where the user gives neither (the book's
//! Methods chapter, "the default method"): the step from the run where the modes cannot judge
//! it, a default step that stops halved, backward Euler and radau taking over where the chosen
//! method's runs stop or are not confirmed, a damped retry outside a function's domain.

use crate::common;
use crate::common::last_value;

fn rtc(args: &[&str]) -> (i32, String, String) {
    common::rtc_in(&common::repo_root(), args)
}

#[test]
fn the_step_comes_from_the_run_when_the_modes_cannot_judge_it() {
    let model = "tests/models/switched_mean.mo";
    // No mode to judge (der(x) = u): the trapezoid (the highest order at the same cost), the
    // tolerance 1 % (Tolerance 1e-4 is capped there), and the step halved by the check until
    // the runs at h and h/2 agree; the result within 1 % of ∫ sin²(20 t) over 3 s.
    let (code, out, err) = rtc(&["run", model, "--vars", "x"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("method trapezoid, step 0.1") && err.contains("within 1 %"),
        "{err}"
    );
    assert!(err.contains("step halved 1 time to 0.05"), "{err}");
    let last = last_value(&out, 1);
    let exact = 1.5 - 120f64.sin() / 80.0;
    assert!((last - exact).abs() < 0.01 * 1.5, "{last} against {exact}");
    // The method and step the user gives are kept, with the check's warning and advice.
    let (code, _, err) = rtc(&[
        "run",
        model,
        "--method",
        "be",
        "--step",
        "0.1",
        "--out",
        "/dev/null",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("30 steps of 0.1 s with be"), "{err}");
    assert!(
        err.contains("the step-halving check estimates an error of")
            && err.contains("try --step 0.025 or --method radau"),
        "{err}"
    );
    // --no-check: neither; a finer --interval bounds the default step.
    let (code, _, err) = rtc(&[
        "run",
        model,
        "--no-check",
        "--interval",
        "0.01",
        "--out",
        "/dev/null",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !err.contains("step-halving") && !err.contains("step halved"),
        "{err}"
    );
    assert!(err.contains("method trapezoid, step 0.01:"), "{err}");
}

#[test]
fn a_default_step_at_which_the_run_stops_is_halved() {
    // Without the check, the run at the default step stops in Newton (exit 2).
    let model = "tests/models/BlowUp.mo";
    let (code, _, err) = rtc(&["run", model, "--no-check", "--out", "/dev/null"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("method radau, step 0.2425"), "{err}");
    // With it, the step is halved until a run gets through, then refined by the check: x at
    // 0.97 within 2 % of the signal's range (the check's tolerance is 1 %, and Richardson's
    // estimate is good to a factor of about two) of 1/(1 - 0.97).
    let (code, out, err) = rtc(&["run", model, "--vars", "x"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("the run at the default step 0.2425 stopped at t = 0.97")
            && err.contains("the step halved 1 time to 0.12125, where it runs"),
        "{err}"
    );
    let last = last_value(&out, 1);
    let exact = 1.0 / (1.0 - 0.97);
    assert!(
        (last - exact).abs() < 0.02 * (exact - 1.0),
        "{last} against {exact}"
    );
    // A step the user gives is kept: the run stops there.
    let (code, _, err) = rtc(&[
        "run",
        model,
        "--method",
        "radau",
        "--step",
        "0.2425",
        "--out",
        "/dev/null",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn backward_euler_takes_over_where_the_chosen_methods_runs_stop() {
    let model = "tests/models/RootSettle.mo";
    let (code, out, err) = rtc(&["run", model, "--vars", "x,y"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("radau stops: at the default step 0.25 the run stopped at t = 0.25")
            && err.contains("backward Euler (L-stable) at the default step instead"),
        "{err}"
    );
    // The modes' advice names radau; rtc says its runs stop.
    assert!(
        err.contains("(but radau's runs stop on this model: see above)"),
        "{err}"
    );
    assert!(err.contains("with be from 0 to 10"), "{err}");
    // x settles where sqrt(x) = 0.7 (backward Euler keeps the equilibrium exactly).
    let last = out.lines().last().unwrap();
    let x: f64 = last.split(',').nth(1).unwrap().parse().unwrap();
    assert!((x - 0.49).abs() < 1e-9, "{last}");
}

/// Where backward Euler stops at the default step and the check's four halvings, its step is
/// halved further (at most ten times) until a run gets through, and that run is taken only
/// where the step-halving check, refining within the same bound, confirms it: z = 1/(1 − t)
/// by backward Euler needs h ≤ 1/(4·z) near t = 0.95. At the default tolerance (1 %) the check
/// does not confirm it (3 % at ten halvings) and the run stops where it stopped before, at
/// t = 0.475, saying why; with `--tolerance 5%` it is taken at ten halvings, following
/// backward Euler's recursion z1 = (1 − sqrt(1 − 4·h·z0))/(2h) (the root next to z0), worked
/// out here.
#[test]
fn backward_euler_halves_its_stopping_step_further() {
    let model = "tests/models/BlowUpLate.mo";
    // At the default tolerance, backward Euler's run past the four halvings is not confirmed
    // (1.5 % at twelve); radau's search, past its own four halvings, is (seven), and its
    // result is held to the tolerance its check confirmed (1 % of z's scale, 19) against
    // z = 1/(1 - t).
    let (code, out, err) = rtc(&["run", model, "--vars", "x,z"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("is not taken: the step-halving check does not confirm it")
            && err.contains("radau (L-stable, order 3) from the default step 0.2375 instead")
            && err.contains("with radau from 0 to 0.95"),
        "{err}"
    );
    assert!((last_value(&out, 2) - 20.0).abs() < 0.01 * 19.0, "{out}");
    assert!((last_value(&out, 1) - 0.49).abs() < 1e-9, "{out}");
    // At 5 %, backward Euler's run is confirmed where the check refines it (eleven halvings)
    // and follows backward Euler's recursion at that step.
    let (code, out, err) = rtc(&["run", model, "--vars", "x,z", "--tolerance", "5%"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("step halved 11 times to 0.00023193359375"),
        "{err}"
    );
    let h = 0.475 / 2048.0;
    let mut z = 1.0f64;
    for _ in 0..4096 {
        z = (1.0 - (1.0 - 4.0 * h * z).sqrt()) / (2.0 * h);
    }
    let last = out.lines().last().unwrap();
    let cols: Vec<f64> = last.split(',').map(|c| c.parse().unwrap()).collect();
    assert!((cols[0] - 0.95).abs() < 1e-12, "{last}");
    assert!((cols[2] - z).abs() < 1e-9 * z, "{last} against {z}");
    assert!((cols[1] - 0.49).abs() < 1e-9, "{last}");
}

/// Where backward Euler, chosen by rtc, gets through only past the check's halvings and the
/// check does not confirm its run, radau gets the same search (tests/models/BlowUpRadau.mo:
/// z = 1/(1 - t), 5000 at the end; backward Euler's error at the rescue's floor is 1.05 %,
/// radau's, confirmed at the default step halved four times, 0.19 %). The result is held
/// to the tolerance the check confirmed (1 % of z's scale, 5000) against the closed form.
#[test]
fn radau_searches_where_backward_eulers_rescue_is_not_confirmed() {
    let (code, out, err) = rtc(&["run", "tests/models/BlowUpRadau.mo", "--vars", "z"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("is not taken: the step-halving check does not confirm it")
            && err.contains("radau (L-stable, order 3) from the default step 0.0009998 instead")
            && err.contains("with radau from 0 to 0.9998"),
        "{err}"
    );
    for line in out.lines().skip(1) {
        let cols: Vec<f64> = line.split(',').map(|c| c.parse().unwrap()).collect();
        let exact = 1.0 / (1.0 - cols[0]);
        assert!(
            (cols[1] - exact).abs() < 0.01 * 5000.0,
            "{line} against {exact}"
        );
    }
    assert!((last_value(&out, 0) - 0.9998).abs() < 1e-9, "{out}");
}

#[test]
fn an_iterate_outside_the_domain_is_retried_damped() {
    // Backward Euler's full Newton step from x = 4 lands below zero (sqrt undefined): the
    // damped retry from the step's start halves it until the residuals are finite and fall.
    // The generated code and the interpreter take the same path, to the bit.
    let model = "tests/models/RootSettle.mo";
    let mut outs = Vec::new();
    for engine in ["jit", "interp"] {
        let (code, out, err) = rtc(&[
            "run",
            model,
            "--method",
            "be",
            "--step",
            "0.5",
            "--no-check",
            "--engine",
            engine,
            "--vars",
            "x",
        ]);
        assert_eq!(code, 0, "{engine}: {err}");
        outs.push(out);
    }
    assert_eq!(outs[0], outs[1]);
    let x = last_value(&outs[0], 1);
    assert!((x - 0.49).abs() < 1e-9, "{x}");
}
