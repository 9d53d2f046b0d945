//! The `rtc` binary end to end: exit codes, CSV output, analysis text, diagnostics.

mod common;

use std::process::Command;

fn rtc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rtc"))
        .args(args)
        .current_dir(common::repo_root())
        .env_remove("MODELICAPATH")
        .output()
        .expect("run rtc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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
    ] {
        let (code, _, err) = rtc(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("error") || err.contains('×'),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
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
fn initial_problem_is_solved_or_rejected() {
    let (code, _, err) = rtc(&[
        "run",
        "tests/models/initial_equation.mo",
        "--short-diagnostics",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("initial_equation.mo:4:3") && err.contains("initial equations"),
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
