//! The `rtc` binary end to end: exit codes, CSV output, analysis text, diagnostics.

use crate::common;

fn rtc(args: &[&str]) -> (i32, String, String) {
    common::rtc_in(&common::repo_root(), args)
}

/// The trapezoid chosen by rtc chatters at the half-wave rectifier's switch (its stiff modes
/// ring, z = -1): the run says so and takes backward Euler at the same step, whose result agrees
/// with backward Euler at a tenth of the step within 1 % of the load voltage's peak (first
/// order: the difference, 0.4 %, is about 0.9 of the coarse run's error). A user who gives the
/// trapezoid and the step gets exactly those: the run stops on the chattering event.
#[test]
fn chattering_trapezoid_chosen_by_rtc_gives_way_to_backward_euler() {
    let model = "tests/models/HalfWave.mo";
    let (code, out, err) = rtc(&["run", model, "--vars", "vc", "--no-event-rows"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("the trapezoid's check run chatters at t = ")
            && err.contains("backward Euler (L-stable) at the same step instead")
            && err.contains("with be from 0 to 0.04"),
        "{err}"
    );
    let (code, fine, err2) = rtc(&[
        "run",
        model,
        "--vars",
        "vc",
        "--no-event-rows",
        "--method",
        "be",
        "--step",
        "5e-7",
        "--interval",
        "5e-6",
    ]);
    assert_eq!(code, 0, "{err2}");
    let rows = |csv: &str| -> Vec<f64> {
        csv.lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
            .collect()
    };
    let (a, b) = (rows(&out), rows(&fine));
    assert_eq!(a.len(), b.len());
    let peak = b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let worst = a
        .iter()
        .zip(&b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
    assert!(peak > 50.0 && worst <= 0.01 * peak, "{worst} of {peak}");
    let (code, _, err) = rtc(&["run", model, "--method", "trapezoid", "--step", "5e-6"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("chatters"), "{err}");
}

#[test]
fn run_writes_csv_of_states() {
    let (code, out, err) = rtc(&[
        "run",
        "examples/Pendulum.mo",
        "--method",
        "trapezoid",
        "--stop",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("time,x1,x2"));
    assert_eq!(lines.next(), Some("0,0.5,0.5"));
    assert_eq!(out.lines().count(), 1 + 3, "rows at 0, 0.5, 1");
}

#[test]
fn diverging_run_exits_2_and_names_the_variable() {
    let (code, _, err) = rtc(&[
        "run",
        "examples/VdPLine.mo",
        "--method",
        "fe",
        "--step",
        "1e-3",
        "--stop",
        "0.2",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("non-finite") && err.contains("t = 0.03"),
        "{err}"
    );
}

#[test]
fn analyze_reports_tearing() {
    let (code, out, err) = rtc(&[
        "analyze",
        "examples/VdPLine.mo",
        "--method",
        "be",
        "--step",
        "1e-3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("6 tearing variables"), "{out}");
    assert!(out.contains("work bound per step"), "{out}");
}

#[test]
fn user_mistakes_exit_1_with_a_diagnostic() {
    for args in [
        vec!["run", "examples/VdPLine.mo", "--method", "rk99"],
        vec![
            "run",
            "examples/VdPLine.mo",
            "--method",
            "mixed",
            "--implicit",
            "u_x",
        ],
        vec!["run", "examples/VdPLine.mo", "--vars", "nosuch"],
        vec!["run", "examples/VdPLine.mo", "--step", "-1"],
        vec!["check", "tests/diagnostics/unknown_variable.mo"],
        vec!["run", "no/such/file.mo"],
        // The structural check comes before run, analyze and compile.
        vec![
            "run",
            "tests/diagnostics/unbalanced_too_few.mo",
            "--step",
            "0.1",
            "--duration",
            "1",
        ],
        vec![
            "analyze",
            "tests/diagnostics/unbalanced_too_many.mo",
            "--step",
            "0.1",
        ],
        // rtc fmu's own options.
        vec![
            "fmu",
            "examples/DCMotor.mo",
            "--fmi",
            "5",
            "-o",
            "/tmp/x.fmu",
        ],
        vec![
            "fmu",
            "examples/DCMotor.mo",
            "--target",
            "riscv64gc-unknown-linux-gnu",
            "-o",
            "/tmp/x.fmu",
        ],
        vec![
            "fmu",
            "examples/DCMotor.mo",
            "--fmi",
            "2",
            "--target",
            "aarch64-unknown-linux-gnu",
            "-o",
            "/tmp/x.fmu",
        ],
        vec!["fmu", "examples/DCMotor.mo", "-o", "/nonexistent/dir/x.fmu"],
        // The real-time runtime's options.
        vec![
            "run",
            "examples/VdPLine.mo",
            "--step",
            "1e-4",
            "--frame",
            "1.5e-4",
        ],
        vec!["run", "examples/VdPLine.mo", "--overrun", "sometimes"],
        vec!["run", "examples/VdPLine.mo", "--overrun", "stop-after:0"],
        vec!["run", "examples/VdPLine.mo", "--inputs", "udp:notaport"],
        vec!["run", "examples/VdPLine.mo", "--control", "tcp:5000"],
        vec!["run", "examples/VdPLine.mo", "--outputs", "file.csv"],
        vec!["run", "examples/DCMotor.mo", "--input", "volts=3"],
        vec!["run", "examples/DCMotor.mo", "--input", "u=three"],
        vec![
            "run",
            "examples/VdPLine.mo",
            "--stop",
            "1",
            "--duration",
            "1",
        ],
        // Methods.
        vec![
            "run",
            "examples/VdPLine.mo",
            "--method",
            "multirate",
            "--fast",
            "nosuch",
            "--ratio",
            "10",
        ],
        vec![
            "run",
            "examples/Pendulum.mo",
            "--method",
            "multirate",
            "--step",
            "0.5",
        ],
        vec![
            "run",
            "examples/VdPLine.mo",
            "--method",
            "be",
            "--fast",
            "iL",
        ],
        vec![
            "run",
            "examples/VdPLine.mo",
            "--method",
            "mixed",
            "--implicit-as",
            "rk4",
        ],
        vec![
            "run",
            "examples/VdPLine.mo",
            "--method",
            "fe",
            "--implicit-as",
            "libe",
        ],
        vec![
            "run",
            "examples/VdPLine.mo",
            "--method",
            "multirate",
            "--extrapolation",
            "cubic",
        ],
        // rtc compile.
        vec![
            "compile",
            "examples/VdPLine.mo",
            "--target",
            "sparc-sun-solaris",
        ],
        vec!["compile", "examples/VdPLine.mo", "--name", "1-model"],
        vec!["compile", "examples/VdPLine.mo", "--target-cpu", "nonsense"],
    ] {
        let (code, _, err) = rtc(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("error") || err.contains('×'),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("bug in rtc"), "{args:?}: {err}");
    }
}

#[test]
fn analyze_prints_the_settings_a_run_would_take() {
    // Given: the method and step as given.
    let (code, out, err) = rtc(&[
        "analyze",
        "examples/VdPLine.mo",
        "--method",
        "be",
        "--step",
        "1e-4",
    ]);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap_or("");
    assert!(
        first.starts_with("settings: method be (given), step 0.0001 s (given), tolerance 1 %, Newton at most 10 iterations"),
        "{out}"
    );
    // Nothing given: what rtc chooses, as `rtc run` would (the run's own note names the same).
    let (code, out, err) = rtc(&["analyze", "examples/DCMotor.mo"]);
    assert_eq!(code, 0, "{err}");
    let (_, _, run_err) = rtc(&[
        "run",
        "examples/DCMotor.mo",
        "--no-check",
        "--out",
        "/dev/null",
    ]);
    let first = out.lines().next().unwrap_or("");
    assert!(
        first.contains("(chosen by rtc), step 0.001 s (chosen by rtc)"),
        "{out}"
    );
    let method = first
        .strip_prefix("settings: method ")
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or("?");
    assert!(
        run_err.contains(&format!("method {method}, step 0.001")),
        "analyze says {method}; the run: {run_err}"
    );
}

#[test]
fn analyze_emits_layout_and_clif() {
    let (code, out, err) = rtc(&[
        "analyze",
        "examples/Pendulum.mo",
        "--method",
        "be",
        "--emit",
        "layout",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("       0  stepstart    t"), "{out}");
    assert!(out.contains("state        x1"), "{out}");
    assert!(out.contains("scratch"), "{out}");
    let (code, out, err) = rtc(&[
        "analyze",
        "examples/Pendulum.mo",
        "--method",
        "be",
        "--emit",
        "clif",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("function") && out.contains("call"), "{out}");
}

#[test]
fn result_times_never_go_back() {
    // Event rows carry the model's clock (sums of steps), frame rows start + k·h: an event
    // row is never later than the frame row after it, nor earlier than the one before. A
    // sample clock on the step grid (0.08 against 0.08000000000000002) and state events.
    for (model, extra) in [
        (
            "tests/models/sampled_counter.mo",
            ["--step", "0.0002", "--method", "trapezoid"],
        ),
        (
            "examples/BouncingBall.mo",
            ["--step", "0.001", "--stop", "3"],
        ),
    ] {
        let mut args = vec!["run", model];
        args.extend(extra);
        let (code, out, err) = rtc(&args);
        assert_eq!(code, 0, "{err}");
        let times: Vec<f64> = out
            .lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap().parse().unwrap())
            .collect();
        assert!(times.len() > 500, "{model}: {}", times.len());
        for w in times.windows(2) {
            assert!(w[1] >= w[0], "{model}: {} after {}", w[1], w[0]);
        }
    }
}

#[test]
fn a_start_at_an_unstable_equilibrium_is_a_warning() {
    // der(x) = x from x = 0: at rest, λ = 1 /s over 3 s.
    let (code, _, err) = rtc(&["run", "tests/models/unstable_rest.mo", "--out", "/dev/null"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("unstable equilibrium") && err.contains("λ = 1.0000e0"),
        "{err}"
    );
    // Stable (k = 0: der(x) = −x), or a run too short for the mode to grow by e (0.5 s): no
    // such warning.
    for extra in [["--param", "k=0"], ["--stop", "0.5"]] {
        let mut a = vec!["run", "tests/models/unstable_rest.mo", "--out", "/dev/null"];
        a.extend(extra);
        let (code, _, err) = rtc(&a);
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains("unstable equilibrium"), "{extra:?}: {err}");
    }
}

#[test]
fn initial_problem_is_solved_or_rejected() {
    // A steady state: solved before the run (x = 1 and stays), and reported.
    let (code, out, err) = rtc(&["run", "tests/models/initial_equation.mo"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("initial system: 1 initial equation solved for `x`"),
        "{err}"
    );
    for line in out.lines().skip(1) {
        let x: f64 = line.split(',').nth(1).unwrap().parse().unwrap();
        assert!((x - 1.0).abs() < 1e-9, "{line}");
    }
    // Every state fixed already: an over-determined initial system, located.
    let (code, _, err) = rtc(&[
        "run",
        "tests/models/initial_overdetermined.mo",
        "--short-diagnostics",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("initial_overdetermined.mo:4:3") && err.contains("over-determined"),
        "{err}"
    );
    let (code, out, err) = rtc(&["run", "tests/models/loop_at_start.mo", "--vars", "x,z"]);
    assert_eq!(code, 0, "{err}");
    // z + 0.1 z^3 = 1 at t = 0: z = 0.9222…
    let first = out.lines().nth(1).expect("row at t = 0");
    let z: f64 = first
        .split(',')
        .nth(2)
        .and_then(|s| s.parse().ok())
        .expect("z");
    assert!((z + 0.1 * z * z * z - 1.0).abs() < 1e-12, "{first}");
}

#[test]
fn inputs_are_read_where_the_step_uses_them() {
    let (code, out, err) = rtc(&[
        "run",
        "examples/DCMotor.mo",
        "--method",
        "trapezoid",
        "--stop",
        "0.102",
        "--inputs",
        "examples/DCMotor_inputs.csv",
        "--vars",
        "u,i",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<f64>> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|c| c.parse().unwrap()).collect())
        .collect();
    let at = |t: f64| rows.iter().find(|r| (r[0] - t).abs() < 1e-9).unwrap();
    // 0 V until 0.1 s, 12 V from 0.1 s (held between samples). A step's model equations hold
    // at its end, so the step from 0.099 to 0.1 is the first whose end sees 12 V.
    assert_eq!(at(0.099)[1], 0.0);
    assert_eq!(at(0.099)[2], 0.0, "the current before the step to 0.1");
    assert_eq!(at(0.1)[1], 12.0);
    // Trapezoid from rest: the derivatives at the start of the step were computed with 0 V
    // (zero); the end uses 12 V. i1 = h/2 · (12 − R i1 − k w1)/L, w1 = h/2 · (k i1 − b w1)/J,
    // so w1 = a i1 with a = h k / (2J + h b) and i1 = 6 h / (L + h R/2 + h k a/2).
    let (h, r, l, k, j, b) = (1e-3, 1.2, 0.05, 0.1, 0.01, 0.001);
    let a = h * k / (2.0 * j + h * b);
    let i1 = 6.0 * h / (l + h * r / 2.0 + h * k * a / 2.0);
    assert!(
        (at(0.1)[2] - i1).abs() < 1e-9 * i1,
        "{} vs {i1}",
        at(0.1)[2]
    );
}

/// Values given on the command line and in files pass the doors of their variables
/// (tests/models/BoundedMotor.mo declares min/max): a parameter outside its declaration's
/// bounds is a diagnostic at that declaration, before anything runs (it was accepted
/// silently); `--param R=nan` and an `--input` or CSV value out of bounds are command-line
/// errors (the first ran into "became non-finite" at the start), found before the method's
/// check runs (they were taken for runs the method failed, halving the step). Exit code 1
/// for each.
#[test]
fn values_outside_their_declarations_are_refused() {
    let dir = std::env::temp_dir().join(format!("rtc-doors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("u.csv");
    std::fs::write(&csv, "time,u\n0,1\n0.5,10.5\n").unwrap();
    let m = "tests/models/BoundedMotor.mo";
    for (args, want) in [
        (
            vec!["run", m, "--param", "R=-1"],
            "BoundedMotor.mo:2:18: error[parameter]: parameter `R` = -1: the value is below its min = 0",
        ),
        (
            vec!["run", m, "--param", "R=0"],
            "",
        ),
        (
            vec!["run", "examples/DCMotor.mo", "--param", "R=nan"],
            "--param `R=nan`: the value is not finite",
        ),
        (
            vec!["run", m, "--input", "u=-11"],
            "--input `u=-11`: the value is below its min = -10",
        ),
        (
            vec!["run", m, "--inputs", csv.to_str().unwrap()],
            "u.csv:3: `u` = 10.5: the value is above its max = 10",
        ),
    ] {
        let mut all = args.clone();
        all.extend(["--short-diagnostics", "--out", "/dev/null"]);
        let (code, _, err) = rtc(&all);
        if want.is_empty() {
            // At its bound: admitted.
            assert_eq!(code, 0, "{args:?}: {err}");
            continue;
        }
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        // Refused before the method's check runs, which it is not a failure of.
        assert!(!err.contains("halved") && !err.contains("stops:"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A variable that becomes non-finite: the message says which of three causes it was, as
/// the run saw it. A square root of a state that crosses zero (bounded states, non-finite
/// within one step); an unstable mode under forward Euler (the states grew without bound);
/// a Newton iteration thrown out of the logarithm's domain by a large step.
#[test]
fn a_non_finite_value_names_its_cause() {
    let dir = std::env::temp_dir().join(format!("rtc-cause-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (model, args, want) in [
        (
            "model Dom\n  Real x(start = 1, fixed = true);\n  Real y;\nequation\n  der(x) = -1;\n  y = sqrt(x);\nend Dom;\n",
            vec!["--stop", "2", "--step", "0.01"],
            "the states were bounded up to the failing step (the largest, |`x`| = ",
        ),
        (
            "model Grow\n  Real x(start = 1, fixed = true);\nequation\n  der(x) = 50*x;\nend Grow;\n",
            vec!["--stop", "20", "--step", "0.01", "--method", "fe"],
            "the solution grew without bound before it: the largest state, `x`, went from |x| = ",
        ),
        (
            "model Newt\n  Real s(start = 0, fixed = true);\n  Real z(start = 1);\nequation\n  der(s) = -100;\n  log(z) + 1e-3*z = s;\nend Newt;\n",
            vec!["--stop", "1", "--step", "0.1", "--method", "be", "--newton-damped", "0"],
            "`z` is an unknown of block 0, solved by Newton's method: the iteration diverged",
        ),
    ] {
        let name = &model[6..model.find('\n').unwrap()];
        let path = dir.join(format!("{name}.mo"));
        std::fs::write(&path, model).unwrap();
        let mut all = vec!["run", path.to_str().unwrap(), "--out", "/dev/null"];
        all.extend(args);
        let (code, _, err) = rtc(&all);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains("became non-finite"), "{name}: {err}");
        assert!(err.contains(want), "{name}: {err}");
    }
    // With the damped retry (the default), an iterate outside the equations' domain is
    // retried from the step's start with halved steps; where its evaluations run out at such
    // an iterate, rtc says so rather than quoting a residual (10 evaluations: with the
    // default 20 the retry ends at a finite iterate and quotes its residual).
    let path = dir.join("Newt.mo");
    let (code, _, err) = rtc(&[
        "run",
        path.to_str().unwrap(),
        "--out",
        "/dev/null",
        "--stop",
        "1",
        "--step",
        "0.1",
        "--method",
        "be",
        "--newton-damped",
        "10",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("its residuals not finite at the last iterate: the iteration left the region where the block's equations are defined"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_inputs_file_is_a_located_diagnostic() {
    let dir = std::env::temp_dir().join(format!("rtc-inputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.csv");
    for (text, want) in [
        (
            "time,v\n0,1\n",
            "bad.csv:1: the model has no input `v` (its inputs: u)",
        ),
        (
            "time,u\n0,1\n0.5,x\n",
            "bad.csv:3: `x` is not a finite number",
        ),
        ("time,u\n0,1\n-1,2\n", "bad.csv:3: times must not decrease"),
        (
            "u,time\n0,1\n",
            "bad.csv:1: the first column must be `time`",
        ),
    ] {
        std::fs::write(&f, text).unwrap();
        let (code, _, err) = rtc(&[
            "run",
            "examples/DCMotor.mo",
            "--inputs",
            f.to_str().unwrap(),
            "--short-diagnostics",
        ]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(want), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mixed_without_implicit_states_partitions_automatically() {
    // The component form has no implicit annotation: the load capacitor is found.
    let (code, _, err) = rtc(&[
        "run",
        "examples/VdPLineComponents.mo",
        "--method",
        "mixed",
        "--step",
        "1e-4",
        "--stop",
        "0.01",
        "--out",
        "/dev/null",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("automatic partition at h = 0.0001: implicit capLoad.v"),
        "{err}"
    );
    let (code, out, err) = rtc(&[
        "analyze",
        "examples/VdPLine.mo",
        "--method",
        "mixed",
        "--step",
        "1e-4",
        "--eigenvalues",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("partition for mixed mode: implicit u_l"),
        "{out}"
    );
    assert!(
        out.contains("forward Euler   largest |R(hλ)| = 99.0001  UNSTABLE"),
        "{out}"
    );
    assert!(out.contains("unstable mode of the model"), "{out}");
}

#[test]
fn events_are_logged() {
    let log = std::env::temp_dir().join(format!("rtc-events-{}.csv", std::process::id()));
    let (code, _, err) = rtc(&[
        "run",
        "examples/BouncingBall.mo",
        "--method",
        "trapezoid",
        "--stop",
        "2",
        "--out",
        "/dev/null",
        "--event-log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("events: 3 handled, 0 deferred"), "{err}");
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("time,event,condition,handled"));
    let first = lines.next().unwrap();
    assert!(first.starts_with("0.4515"), "{first}");
    assert!(first.ends_with(",0,\"h <= 0\",handled"), "{first}");
    let _ = std::fs::remove_file(log);
    // Objects carry the event functions and tables (examples/embedded/rtc_events.c steps
    // them; tests/embedded.rs runs them on three instruction sets).
    let dir = std::env::temp_dir().join(format!("rtc-events-obj-{}", std::process::id()));
    let (code, _, err) = rtc(&[
        "compile",
        "examples/BouncingBall.mo",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let header = std::fs::read_to_string(dir.join("BouncingBall.h")).unwrap();
    assert!(
        header.contains("#define BouncingBall_EVENT_COUNT 1"),
        "{header}"
    );
    assert!(header.contains("int32_t BouncingBall_event0(double *mem); /* h <= 0 */"));
    let _ = std::fs::remove_dir_all(dir);
}

/// The chattering rule near rest: by default the run stops with status 4 (exit code 2)
/// naming the event; `--zeno hold` holds the ball on the floor and says so.
#[test]
fn chattering_ball_stops_or_is_held() {
    let args = |zeno: &'static str| {
        vec![
            "run",
            "examples/BouncingBall.mo",
            "--method",
            "trapezoid",
            "--stop",
            "5",
            "--out",
            "/dev/null",
            "--zeno",
            zeno,
        ]
    };
    let (code, _, err) = rtc(&args("stop"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("event 0 (`h <= 0`) chatters"), "{err}");
    assert!(err.contains("(status 4)"), "{err}");
    let (code, _, err) = rtc(&args("hold"));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("held from there to the end of the run: h, v"),
        "{err}"
    );
}

/// `terminate` ends the run successfully and says why (its text a literal or a String
/// parameter); a cycle among a when-equation's assignments is a located diagnostic.
#[test]
fn terminate_and_when_cycle() {
    let (code, _, err) = rtc(&["run", "examples/TankPump.mo", "--out", "/dev/null"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("(`starts > maxStarts`): the pump started more than maxStarts times; the run ends at t = 852.8"),
        "{err}"
    );
    // A String parameter as the text (tests/models/TerminateText.mo).
    let (code, _, err) = rtc(&[
        "run",
        "tests/models/TerminateText.mo",
        "--step",
        "0.1",
        "--stop",
        "1",
        "--out",
        "/dev/null",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("(`x > 0.5`): x reached 0.5; the run ends at t = 0.6"),
        "{err}"
    );
    let (code, _, err) = rtc(&[
        "run",
        "tests/models/WhenCycle.mo",
        "--step",
        "0.01",
        "--stop",
        "1",
        "--out",
        "/dev/null",
        "--short-diagnostics",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("WhenCycle.mo:7:3: error[when]: the assignments in this when-equation depend on each other in a cycle"),
        "{err}"
    );
}

/// A loop reordered into a band: each printed residual is still shown with its own source
/// location (backward Euler's residual `x = pre(x) + h*der(x)` points at x's declaration).
#[test]
fn banded_loop_residuals_keep_their_locations() {
    let (code, out, err) = rtc(&[
        "analyze",
        "examples/VdPLine.mo",
        "--param",
        "n=20",
        "--method",
        "be",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Jacobian ordered into a band"), "{out}");
    let source = std::fs::read_to_string(common::repo_root().join("examples/VdPLine.mo")).unwrap();
    let mut checked = 0;
    for line in out
        .lines()
        .filter(|l| l.trim_start().starts_with("residual "))
    {
        let text = line.split(": ").nth(1).unwrap();
        let var = text.split(" = pre(").next().unwrap();
        let base = var.split('[').next().unwrap();
        let at: usize = line
            .rsplit("VdPLine.mo:")
            .next()
            .and_then(|l| l.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no location in {line}"));
        let decl = source.lines().nth(at - 1).unwrap();
        assert!(
            decl.contains(&format!("Real {base}(")) || decl.contains(&format!("Real {base}[")),
            "{line}\n  points at: {decl}"
        );
        checked += 1;
    }
    assert_eq!(checked, 23);
}

/// The CSV holds every value in its shortest round-trip form: read back, it equals the
/// trajectory computed in process bitwise, from 1e250 down to 1e-200 (Rust's `Display` wrote
/// 1e250 as 251 digits).
#[test]
fn csv_values_read_back_bitwise() {
    let (code, out, err) = rtc(&[
        "run",
        "tests/models/WideRange.mo",
        "--engine",
        "interp",
        "--method",
        "trapezoid",
        "--step",
        "0.01",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("time,big,tiny,third"));
    let text = std::fs::read_to_string(common::repo_root().join("tests/models/WideRange.mo"))
        .expect("read model");
    let c = rtc::pipeline::check_source("WideRange.mo", &text, &Default::default());
    let model = c.model.expect("model checks");
    let method = rtc::pipeline::Method::Trapezoid;
    let plan = rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(&method))
        .expect("plan")
        .plan;
    let selected = rtc::sim::select_outputs(&plan, &[]).expect("outputs");
    let settings = rtc::sim::RunSettings {
        start: 0.0,
        stop: 1.0,
        step: 0.01,
        every: 1,
        inputs: None,
    };
    let mut rows: Vec<Vec<f64>> = Vec::new();
    rtc::sim::simulate(&plan, &settings, &selected, &mut |t, v| {
        let mut r = vec![t];
        r.extend_from_slice(v);
        rows.push(r);
    })
    .expect("simulate");
    let csv: Vec<&str> = lines.collect();
    assert_eq!(csv.len(), rows.len());
    for (line, row) in csv.iter().zip(&rows) {
        assert!(line.len() < 100, "a row in the shortest form: {line}");
        let cells: Vec<f64> = line
            .split(',')
            .map(|c| c.parse().expect("number"))
            .collect();
        assert_eq!(cells.len(), row.len());
        for (a, b) in cells.iter().zip(row) {
            assert_eq!(a.to_bits(), b.to_bits(), "{line}");
        }
    }
    assert!(
        csv[0].contains("1e250") && csv[0].contains("1e-200"),
        "{}",
        csv[0]
    );
}

/// `--param` sets Boolean parameters with true/false and refuses a fraction for an Integer.
#[test]
fn param_overrides_keep_types() {
    let (code, _, err) = rtc(&[
        "check",
        "tests/golden/flatten/strings.mo",
        "--param",
        "fast=false",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = rtc(&[
        "check",
        "examples/VdPLine.mo",
        "--param",
        "n=2.5",
        "--short-diagnostics",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("error[type]"), "{err}");
}

/// A qualified class name where the file would be: the class comes from the libraries.
#[test]
fn class_name_instead_of_a_file() {
    let (code, out, err) = rtc(&["check", "Rtc.Electrical.Resistor", "--short-diagnostics"]);
    // A component on its own is singular (its pins are free), but it was found and flattened.
    assert!(
        code == 1 && err.contains("error[singular]"),
        "{code} {out} {err}"
    );
    let (code, _, err) = rtc(&["check", "Rtc.NoSuchClass", "--short-diagnostics"]);
    assert_eq!(code, 1);
    assert!(err.contains("no class named `Rtc.NoSuchClass`"), "{err}");
}

/// A model's assertions are checked after every step: a false one stops the run (exit 2) with
/// its message, here the bound of a while-loop whose condition changes (maxIterations = 3).
#[test]
fn failed_assertion_stops_the_run() {
    let (code, out, err) = rtc(&["run", "tests/models/AssertWhileBound.mo", "--vars", "x,k"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("assertion failed") && err.contains("bound of 3 iterations"),
        "{err}"
    );
    assert!(err.contains("t = 0.75"), "{err}");
    // Up to x = 8 three halvings suffice.
    assert!(out.contains("0.7000000000000001,8,3"), "{out}");
}

/// Assertions of level warning that fail are reported with the time of their first failure
/// and how many checks failed, and the run goes on to its stop time (exit 0); `rtc analyze`
/// counts them.
#[test]
fn warning_level_assertions_are_reported_and_the_run_goes_on() {
    let args = [
        "run",
        "tests/models/AssertWarning.mo",
        "--method",
        "fe",
        "--step",
        "0.25",
        "--stop",
        "2",
    ];
    for engine in ["jit", "interp"] {
        let mut a = args.to_vec();
        a.extend(["--engine", engine]);
        let (code, out, err) = rtc(&a);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("warning: t = 1.25: x above 1 (an assert of level warning: the run went on; it failed at 4 checks"),
            "{engine}: {err}"
        );
        assert!(
            err.contains("warning: t = 1.5: u reached 1.5 (an assert of level warning: the run went on; it failed at 3 checks"),
            "{engine}: {err}"
        );
        assert!(out.trim_end().ends_with("\n2,2"), "{engine}: {out}");
    }
    let (code, out, err) = rtc(&[
        "analyze",
        "tests/models/AssertWarning.mo",
        "--method",
        "fe",
        "--step",
        "0.25",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 of them of level warning"), "{out}");
}

/// A delay shorter than the step is refused at the delay (it would read the step's own end
/// value), and a model with a delay has no eigenvalues to report: located errors, exit 1.
#[test]
fn delay_refusals_are_located() {
    let model = "tests/language/delay.mo";
    let (code, _, err) = rtc(&[
        "run", model, "--method", "be", "--step", "0.5", "--stop", "1",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the delay time 0.25 is shorter than the step 0.5")
            && err.contains("delay.mo:14:"),
        "{err}"
    );
    let (code, _, err) = rtc(&["analyze", model, "--eigenvalues", "--step", "0.1"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no linearisation of finite order"), "{err}");
}

/// `rtc check` of a model with a delay and redundant initial equations solves the model at
/// the start time without being given a step (the experiment's serves), and the run keeps y = x.
#[test]
fn delay_with_initial_equations_checks_and_runs() {
    let (code, out, err) = rtc(&["check", "tests/models/DelayInitial.mo"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("DelayInitial: 1 state"), "{out}");
    let (code, out, err) = rtc(&["run", "tests/models/DelayInitial.mo", "--vars", "x,y"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.trim_end().ends_with("\n1,2,2"), "{out}");
}

/// An `assert` of `when initial()` that fails stops the run after initialisation with its
/// message (exit 2), as an assertion of the equations does after a step.
#[test]
fn failing_initial_assertion_stops_the_run() {
    let (code, _, err) = rtc(&[
        "run",
        "tests/models/AssertInitialFails.mo",
        "--method",
        "be",
        "--step",
        "0.5",
        "--stop",
        "2",
        "--out",
        "/dev/null",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("initialisation failed: assertion failed: x must start at 0.5 or above"),
        "{err}"
    );
}

/// `rtc analyze` prints the initial system loop by loop with its tearing variables, and the
/// note of a start solved when compiling.
#[test]
fn analyze_prints_the_initial_system() {
    let (code, out, err) = rtc(&[
        "analyze",
        "tests/models/index/HardStart.mo",
        "--method",
        "fe",
        "--step",
        "0.01",
        "--newton-extended",
        "0",
        "--newton-damped",
        "10",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("initial system (the model at the start time")
            && out
                .contains("initial loop 0: 1 equations, 1 tearing variable (nonlinear, Newton): y")
            && out.contains("solved when compiling by damped Newton"),
        "{out}"
    );
}

/// A result file has a row just before and a row just after each event, at its time, between
/// the rows of the output grid (a jump is a jump, not a ramp between two grid rows); with
/// `--no-event-rows` only the grid. TimeSteps' step at 0.1005 falls inside a step of 0.01.
#[test]
fn results_have_rows_at_events() {
    let args = [
        "run",
        "tests/models/TimeSteps.mo",
        "--method",
        "be",
        "--step",
        "0.01",
        "--stop",
        "0.2",
        "--vars",
        "s.y",
    ];
    let (code, out, err) = rtc(&args);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().collect();
    let at: Vec<&&str> = rows.iter().filter(|r| r.starts_with("0.1005,")).collect();
    assert_eq!(at, [&"0.1005,0", &"0.1005,1"], "{out}");
    let i = rows.iter().position(|r| r.starts_with("0.1005,")).unwrap();
    assert!(
        rows[i - 1].starts_with("0.1,") && rows[i + 2].starts_with("0.11,"),
        "{out}"
    );
    let mut grid = args.to_vec();
    grid.push("--no-event-rows");
    let (code, out, err) = rtc(&grid);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("0.1005,"), "{out}");
    assert_eq!(out.lines().count(), 1 + 21, "{out}");
}

/// `rtc compile --target-cpu`: a CPU preset changes the code (x86-64-v3: VEX encodings) and the
/// header says what the object assumes; what the target does not have, and `native` for
/// another machine's target, are located errors (exit code 1).
#[test]
fn target_cpu_names_what_the_object_assumes() {
    let dir = std::env::temp_dir().join(format!("rtc-target-cpu-{}", std::process::id()));
    let compile = |sub: &str, cpu: &str| {
        let out = dir.join(sub);
        let (code, _, err) = rtc(&[
            "compile",
            "examples/VdPLine.mo",
            "--method",
            "fe",
            "--step",
            "1e-5",
            "--target",
            "x86_64-unknown-linux-gnu",
            "--target-cpu",
            cpu,
            "--name",
            "m",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{cpu}: {err}");
        (
            std::fs::read(out.join("m.o")).unwrap(),
            std::fs::read_to_string(out.join("m.h")).unwrap(),
        )
    };
    let (base, base_h) = compile("base", "baseline");
    let (v3, v3_h) = compile("v3", "x86-64-v3");
    assert!(base_h.contains("CPU: the target's baseline."), "{base_h}");
    assert!(v3_h.contains("CPU: x86-64-v3."), "{v3_h}");
    assert_ne!(base, v3, "AVX encodings change the code");
    let _ = std::fs::remove_dir_all(&dir);

    let (code, _, err) = rtc(&[
        "compile",
        "examples/VdPLine.mo",
        "--target",
        "aarch64-unknown-linux-gnu",
        "--target-cpu",
        "x86-64-v3",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("aarch64-unknown-linux-gnu has no CPU or feature `x86-64-v3`"),
        "{err}"
    );
    assert!(!err.contains("bug in rtc"), "{err}");
    if !cfg!(target_arch = "riscv64") {
        let (code, _, err) = rtc(&[
            "compile",
            "examples/VdPLine.mo",
            "--target",
            "riscv64gc-unknown-linux-gnu",
            "--target-cpu",
            "native",
        ]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("which is not the target"), "{err}");
    }
}

/// A model whose step is the step function alone runs, compiled, in the JIT's own loop (no
/// call through the engine's interface per step): its CSV equals the interpreter's bitwise,
/// and a step that fails in that loop is reported as the interpreter reports it (the same time,
/// the variable, the growth before it).
#[test]
fn direct_loop_runs_as_the_interpreter() {
    let run = |engine: &str, step: &str, stop: &str| {
        rtc(&[
            "run",
            "examples/VdPLine.mo",
            "--param",
            "n=5",
            "--method",
            "fe",
            "--step",
            step,
            "--stop",
            stop,
            "--interval",
            "0.001",
            "--no-check",
            "--engine",
            engine,
        ])
    };
    let (code, jit, err) = run("jit", "5e-7", "0.02");
    assert_eq!(code, 0, "{err}");
    let (code, interp, err) = run("interp", "5e-7", "0.02");
    assert_eq!(code, 0, "{err}");
    assert_eq!(jit.lines().count(), 22, "{jit}");
    assert_eq!(jit, interp);
    let stopped = |err: &str| -> Vec<String> {
        err.lines()
            .filter(|l| l.contains("run stopped") || l.contains("grew without bound"))
            .map(str::to_string)
            .collect()
    };
    let (code, _, jit) = run("jit", "1e-5", "1");
    assert_eq!(code, 2, "{jit}");
    let (code, _, interp) = run("interp", "1e-5", "1");
    assert_eq!(code, 2, "{interp}");
    let lines = stopped(&jit);
    assert_eq!(lines.len(), 2, "{jit}");
    assert!(
        lines[0].contains("t = 0.0008700000000000001: `der(uC)` became non-finite"),
        "{jit}"
    );
    assert_eq!(lines, stopped(&interp));
}

/// The plan keeps the greedy tearing where its Newton iteration costs clearly less than the
/// lookahead's: on the line by backward Euler at n = 50 the lookahead's 51 tearing variables
/// couple in a full upper Hessenberg Jacobian, the greedy 53 lie in a band of 1 and 3 (the
/// work bound falls from 502321 to 145621 flops); at n = 5 the two cost within 2 % and the
/// lookahead's six stay.
#[test]
fn tearing_kept_for_the_cheaper_iteration() {
    let analyze = |n: &str| {
        let (code, out, err) = rtc(&[
            "analyze",
            "examples/VdPLine.mo",
            "--param",
            &format!("n={n}"),
            "--method",
            "be",
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let out = analyze("50");
    assert!(
        out.contains("loop 0: 206 equations, 53 tearing variables"),
        "{out}"
    );
    assert!(out.contains("1 sub- and 3 super-diagonals"), "{out}");
    assert!(out.contains("work bound per step: 169891 flops"), "{out}");
    let out = analyze("5");
    assert!(
        out.contains("loop 0: 26 equations, 6 tearing variables"),
        "{out}"
    );
}

/// A run that stops on a singular Jacobian says why at the iterate where it failed: the
/// tearing variable no residual depends on there (SingularLoop with c = 1: the loop's 1×1
/// Jacobian p − 1 is zero, and the equations contradict each other from t > 0).
#[test]
fn singular_jacobian_names_the_variable_that_drops_out() {
    let (code, _, err) = rtc(&[
        "run",
        "tests/models/SingularLoop.mo",
        "--method",
        "be",
        "--step",
        "0.01",
        "--param",
        "c=1",
        "--stop",
        "0.2",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("run stopped at t = 0.01: the Jacobian of block 1 is singular (status 3)\nrtc:   at the iterate where it failed no residual of the loop depends on `b` (a zero column of its Jacobian)"),
        "{err}"
    );
}

/// The exceptional cases of `a ^ b` (10.6.7) are judged element by element; an empty operand
/// has no element to judge and reaches the size check as before (it panicked once, indexing
/// the empty side): `zeros(0) .^ 2` checks, `2 .^ zeros(0)` bound to a `Real x[2]` is a located
/// size error, `{1, 0} .^ {2, -1}` is the power error at the second element.
#[test]
fn powers_of_empty_and_exceptional_arrays() {
    let dir = std::env::temp_dir().join(format!("rtc-pow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("Real x[0] = zeros(0) .^ 2;", 0, ""),
        ("Real x[2] = 2 .^ zeros(0);", 1, "error[size]"),
        ("Real x[2] = {1, 0} .^ {2, -1};", 1, "error[power]"),
    ];
    for (k, (decl, code, what)) in cases.iter().enumerate() {
        let f = dir.join(format!("P{k}.mo"));
        std::fs::write(&f, format!("model P\n  {decl}\nend P;\n")).unwrap();
        let (c, _, err) =
            common::rtc_in(&dir, &["check", f.to_str().unwrap(), "--short-diagnostics"]);
        assert_eq!(c, *code, "{decl}: {err}");
        assert!(
            err.contains(what) && !err.contains("internal error"),
            "{decl}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An assert in `when terminal()` is checked after the terminal event only
/// (`tests/models/TerminalAssert.mo`: four samples in the run; it needs 3 and passes, where
/// it was checked from the start and stopped the run there; it needs 5 and the run ends
/// with the assertion's failure at its stop time).
#[test]
fn assertions_of_when_terminal_are_checked_at_the_end() {
    let m = "tests/models/TerminalAssert.mo";
    let (code, _, err) = rtc(&["run", m, "--out", "/dev/null"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = rtc(&["run", m, "--param", "need=5", "--out", "/dev/null"]);
    assert_ne!(code, 0, "{err}");
    assert!(
        err.contains("not enough samples") && err.contains("t = 1"),
        "{err}"
    );
}

/// `--vars` splits at the commas outside brackets, so a matrix element can be recorded
/// (`m[1,2]`); the CSV quotes that name in its header (RFC 4180) and `rtc plot` reads it back.
#[test]
fn matrix_elements_can_be_recorded_and_plotted() {
    let dir = std::env::temp_dir().join(format!("rtc-matrix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let m = dir.join("M.mo");
    std::fs::write(
        &m,
        "model M\n  Real x(start = 1, fixed = true);\n  Real m[2, 2] = [x, 2*x; 3*x, 4*x];\nequation\n  der(x) = -x;\nend M;\n",
    )
    .unwrap();
    let csv = dir.join("m.csv");
    let (code, _, err) = rtc(&[
        "run",
        m.to_str().unwrap(),
        "--stop",
        "1",
        "--step",
        "0.5",
        "--vars",
        "m[1,2],x",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("time,\"m[1,2]\",x"), "{text}");
    for row in lines {
        let v: Vec<f64> = row.split(',').map(|x| x.parse().unwrap()).collect();
        assert_eq!(v[1], 2.0 * v[2], "{row}");
    }
    let svg = dir.join("m.svg");
    let (code, _, err) = rtc(&[
        "plot",
        csv.to_str().unwrap(),
        "--vars",
        "m[1,2]",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A library given with `--lib` that does not parse: its syntax error, located, comes before
/// the class it would have held is missed (before, only "no class named `Bad.M`" with an
/// empty list of classes was said).
#[test]
fn a_library_that_does_not_parse_says_where() {
    let dir = std::env::temp_dir().join(format!("rtc-badlib-{}", std::process::id()));
    let pkg = dir.join("Bad");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(
        pkg.join("package.mo"),
        "package Bad\n  model M\n    Real inner;\n  end M;\nend Bad;\n",
    )
    .unwrap();
    let (code, _, err) = rtc(&[
        "check",
        "--lib",
        pkg.to_str().unwrap(),
        "Bad.M",
        "--short-diagnostics",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 1, "{err}");
    let syntax = err.find("package.mo:3:10: error[syntax]");
    let missing = err.find("no class named `Bad.M`");
    assert!(
        syntax.is_some() && missing.is_some() && syntax < missing,
        "{err}"
    );
}

/// An assert in a when-statement is checked at its events only (11.2.7,
/// `tests/models/WhenAssert.mo`): x = sin(2πt) sampled every 0.25 s fails the assertion at
/// the sample at t = 0.75, not at t ≈ 0.59 where x passes −0.5 between samples. To 0.7 the
/// run passes; to 1 it stops at the end of the step that holds the sample at 0.75.
#[test]
fn assertions_of_when_statements_hold_at_their_events() {
    let m = "tests/models/WhenAssert.mo";
    let (code, _, err) = rtc(&[
        "run",
        m,
        "--method",
        "fe",
        "--step",
        "0.01",
        "--stop",
        "0.7",
        "--out",
        "/dev/null",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = rtc(&[
        "run",
        m,
        "--method",
        "fe",
        "--step",
        "0.01",
        "--out",
        "/dev/null",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("x below -0.5 at a sample") && err.contains("t = 0.75"),
        "{err}"
    );
}

/// A parameter with `fixed = false` whose initial equation reads a solution that depends on it
/// (tests/models/ParameterUnsettled.mo: up = false gives x = 0, which gives up = true, which
/// gives x = 4, …): the run is refused with a located error, not run with one of the rounds.
#[test]
fn a_parameter_computed_from_a_solution_that_depends_on_it_is_refused() {
    let (code, _, err) = rtc(&[
        "run",
        "tests/models/ParameterUnsettled.mo",
        "--step",
        "0.1",
        "--stop",
        "1",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("do not settle in 5 rounds"), "{err}");
    assert!(err.contains("ParameterUnsettled.mo:11:3"), "{err}");
}

/// A parameter with `fixed = false` that the initial system determines through the model
/// (tests/models/ParameterImplicit.mo: der(x) = −k·x + 3 = 0 at x = 2, so k = 1.5): the
/// report gives it, and the run holds x at its steady state.
#[test]
fn a_parameter_the_initial_system_determines_is_solved_for() {
    let (code, out, err) = rtc(&[
        "run",
        "tests/models/ParameterImplicit.mo",
        "--method",
        "be",
        "--step",
        "0.125",
        "--stop",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let k: f64 = err
        .lines()
        .find_map(|l| {
            l.trim_start_matches("rtc:")
                .trim()
                .strip_prefix("parameter k = ")
        })
        .and_then(|r| r.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no `parameter k = …` in {err}"));
    assert!((k - 1.5).abs() < 1e-9, "k = {k}");
    let last = out.lines().last().expect("rows");
    let x: f64 = last.split(',').nth(1).unwrap().parse().unwrap();
    assert!((x - 2.0).abs() < 1e-9, "{last}");
}
