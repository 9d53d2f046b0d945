//! `rtc fmu`: the FMI 3.0 and 2.0 Co-Simulation FMUs, stepped by C masters
//! (`tests/fmu/master.c`, `master2.c`, dlopen) and by FMPy (`tests/fmu/fmpy_check.py`), must give what `rtc run` gives for the same
//! method and step, to the bit: the FMU's binary is the same step compiled by the same code
//! generator, and its events run through the C event stepper that matches `rtc run` bitwise.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::Command;

fn rtc(args: &[&str], dir: &Path) -> (i32, String, String) {
    common::rtc_in(dir, args)
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rtc-fmu-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The C master, compiled once per test into `dir`.
fn master(dir: &Path) -> PathBuf {
    master_for(dir, 3)
}

/// The C master for FMI `version` (3: master.c, 2: master2.c).
fn master_for(dir: &Path, version: u32) -> PathBuf {
    let (name, headers) = match version {
        2 => ("master2", "compiler/fmi/fmi2"),
        _ => ("master", "compiler/fmi/fmi3"),
    };
    let exe = dir.join(name);
    let root = common::repo_root();
    let out = Command::new("cc")
        .args(["-std=c99", "-O2", "-I"])
        .arg(root.join(headers))
        .arg(root.join(format!("tests/fmu/{name}.c")))
        .args(["-ldl", "-o"])
        .arg(&exe)
        .output()
        .expect("cc (the C compiler is needed to link FMUs)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// Variables of a model description: name → value reference; and the token.
fn description(dir: &Path) -> (Vec<(String, u32)>, String) {
    let xml = std::fs::read_to_string(dir.join("modelDescription.xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let root = doc.root_element();
    let token = root
        .attribute("instantiationToken")
        .or_else(|| root.attribute("guid"))
        .unwrap()
        .to_string();
    let vars = root
        .descendants()
        .filter(|n| n.has_tag_name("Float64") || n.has_tag_name("ScalarVariable"))
        .map(|n| {
            (
                n.attribute("name").unwrap().to_string(),
                n.attribute("valueReference").unwrap().parse().unwrap(),
            )
        })
        .collect();
    (vars, token)
}

fn parse_csv(text: &str) -> Vec<Vec<f64>> {
    text.lines()
        .filter(|l| !l.starts_with("time"))
        .map(|l| l.split(',').map(|x| x.parse::<f64>().unwrap()).collect())
        .collect()
}

/// Builds the FMU of `model` (unpacked in `dir/fmu`), runs the C master with `sets` (value by
/// name, before initialisation) up to `stop` at communication step `comm`, and `rtc run` with
/// `run_args`; their rows must be equal to the bit.
#[allow(clippy::too_many_arguments)]
fn same_as_run(
    name: &str,
    model: &str,
    fmu_args: &[&str],
    run_args: &[&str],
    sets: &[(&str, f64)],
    vars: &[&str],
    stop: f64,
    comm: f64,
) {
    for version in [3, 2] {
        same_as_run_fmi(
            name, version, model, fmu_args, run_args, sets, vars, stop, comm,
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn same_as_run_fmi(
    name: &str,
    version: u32,
    model: &str,
    fmu_args: &[&str],
    run_args: &[&str],
    sets: &[(&str, f64)],
    vars: &[&str],
    stop: f64,
    comm: f64,
) {
    let dir = scratch(&format!("{name}-fmi{version}"));
    let exe = master_for(&dir, version);
    let model = common::repo_root().join(model);
    let model = model.to_str().unwrap();
    let fmi = version.to_string();
    let mut args = vec!["fmu", model, "--fmi", &fmi, "-o", "fmu"];
    args.extend(fmu_args);
    let (code, _, err) = rtc(&args, &dir);
    assert_eq!(code, 0, "{err}");
    let (table, token) = description(&dir.join("fmu"));
    let vr = |n: &str| {
        table
            .iter()
            .find(|(x, _)| x == n)
            .unwrap_or_else(|| panic!("{n} not in the model description"))
            .1
    };
    let stem = Path::new(model).file_stem().unwrap().to_str().unwrap();
    let platform = if version == 2 {
        "linux64"
    } else {
        "x86_64-linux"
    };
    let so = dir.join(format!("fmu/binaries/{platform}/{stem}.so"));
    let mut cmd = Command::new(&exe);
    cmd.arg(&so)
        .arg(&token)
        .arg(stop.to_string())
        .arg(comm.to_string());
    for (n, x) in sets {
        cmd.arg(format!("set:{}={x}", vr(n)));
    }
    cmd.arg(format!(
        "out:{}",
        vars.iter()
            .map(|n| vr(n).to_string())
            .collect::<Vec<_>>()
            .join(",")
    ));
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "master: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fmu_rows = parse_csv(&String::from_utf8_lossy(&out.stdout));
    let csv = dir.join("run.csv");
    let mut args = vec![
        "run",
        model,
        "--no-event-rows",
        "--no-check",
        "--out",
        csv.to_str().unwrap(),
        "--vars",
    ];
    let joined = vars.join(",");
    args.push(&joined);
    args.extend(run_args);
    let (code, _, err) = rtc(&args, &dir);
    assert!(code == 0 || err.contains("terminated"), "{err}");
    let run_rows = parse_csv(&std::fs::read_to_string(&csv).unwrap());
    // rtc run records every step; the master every communication point.
    let every = (comm / fmu_step(&dir.join("fmu"))).round() as usize;
    let run_rows: Vec<&Vec<f64>> = run_rows
        .iter()
        .enumerate()
        .filter(|(i, _)| i % every == 0 || *i == run_rows.len() - 1)
        .map(|(_, r)| r)
        .collect();
    assert_eq!(fmu_rows.len(), run_rows.len(), "{name}: rows");
    for (a, b) in fmu_rows.iter().zip(&run_rows) {
        for (x, y) in a.iter().zip(b.iter()) {
            assert_eq!(
                x.to_bits(),
                y.to_bits(),
                "{name}: FMU {a:?} vs rtc run {b:?}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The FMU's step: FMI 3 `fixedInternalStepSize`, else the default experiment's.
fn fmu_step(dir: &Path) -> f64 {
    let xml = std::fs::read_to_string(dir.join("modelDescription.xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    doc.descendants()
        .find(|n| n.has_tag_name("CoSimulation"))
        .and_then(|n| n.attribute("fixedInternalStepSize"))
        .or_else(|| {
            doc.descendants()
                .find(|n| n.has_tag_name("DefaultExperiment"))
                .and_then(|n| n.attribute("stepSize"))
        })
        .unwrap()
        .parse()
        .unwrap()
}

/// An input and a parameter set before initialisation, the trapezoidal rule.
#[test]
fn dc_motor_fmu_steps_as_rtc_run() {
    same_as_run(
        "dcmotor",
        "examples/DCMotor.mo",
        &["--method", "trapezoid"],
        &[
            "--method",
            "trapezoid",
            "--input",
            "u=12",
            "--param",
            "R=2.4",
        ],
        &[("u", 12.0), ("R", 2.4)],
        &["w", "i"],
        2.0,
        0.01,
    );
}

/// An external object in an FMU (`tests/models/ExtObjectFmu.mo`, a polynomial the library
/// holds): made by its constructor when the FMU is instantiated (FMI 3.0 and 2.0), found by
/// the step's calls, every value as `rtc run`'s, to the bit. Before, `rtc fmu` refused it.
#[test]
fn fmu_makes_the_external_objects() {
    ext_kinds_same_as_run("extobject", "tests/models/ExtObjectFmu.mo", &["x", "y"]);
}

/// A model whose step calls C through rtc's shims (`tests/clib/ExtKinds`): the shims and the
/// library's source built into an archive and linked into the FMU's library (its symbols
/// kept local), stepped as `rtc run` steps, to the bit.
#[test]
fn fmu_links_the_external_c_code() {
    ext_kinds_same_as_run(
        "extkinds",
        "tests/models/ExtKindsFmu.mo",
        &["x", "w", "r", "o", "state[1]"],
    );
}

/// A model of `tests/clib/ExtKinds` as an FMU (trapezoid, h = 0.25) against `rtc run`, to
/// t = 1 in steps of 0.25, reading `vars`.
fn ext_kinds_same_as_run(tag: &str, model: &str, vars: &[&str]) {
    let lib = common::repo_root().join("tests/clib/ExtKinds");
    let lib = lib.to_str().unwrap();
    let fmu_args = ["--lib", lib, "--method", "trapezoid", "--step", "0.25"];
    let mut run_args = fmu_args.to_vec();
    run_args.extend(["--stop", "1"]);
    same_as_run(tag, model, &fmu_args, &run_args, &[], vars, 1.0, 0.25);
}

/// State events located inside fmi3DoStep (backward Euler).
#[test]
fn bouncing_ball_fmu_has_the_same_events() {
    same_as_run(
        "ball",
        "examples/BouncingBall.mo",
        &[],
        &["--stop", "3"],
        &[],
        &["h", "v"],
        3.0,
        0.001,
    );
}

/// when/elsewhen, edge, change, initial() and terminate(): the FMU ends the simulation where
/// `rtc run` ends the run.
#[test]
fn tank_pump_fmu_terminates_where_rtc_run_does() {
    same_as_run(
        "tankpump",
        "examples/TankPump.mo",
        &["--method", "trapezoid", "--step", "0.01"],
        &["--method", "trapezoid", "--step", "0.01"],
        &[],
        &["h", "starts"],
        2000.0,
        0.01,
    );
}

/// The model descriptions FMPy reads, FMI 3.0 and FMI 2.0, validated by FMPy, and FMPy's
/// simulations equal to `rtc run` (tests/fmu/fmpy_check.py): an input, state events, and
/// terminate() (fmi3 terminateSimulation, fmi2Discard with the fmi2Terminated status). FMPy comes from the Python package index
/// (`.ci/run` installs the pinned version); without it the test says so and passes, except
/// on CI, where it fails.
#[test]
fn fmpy_validates_and_simulates_the_fmus() {
    let python = std::env::var("RTC_FMPY_PYTHON").unwrap_or_else(|_| "python3".into());
    let has = Command::new(&python)
        .args(["-c", "import fmpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has {
        assert!(
            std::env::var("CI").is_err(),
            "FMPy is needed on CI (RTC_FMPY_PYTHON or python3 with fmpy)"
        );
        eprintln!("fmpy not found ({python}): skipping the FMPy check");
        return;
    }
    let dir = scratch("fmpy");
    let cases = [
        (
            "examples/DCMotor.mo",
            vec!["--method", "trapezoid"],
            vec!["--method", "trapezoid", "--input", "u=12"],
            "u=12",
        ),
        ("examples/BouncingBall.mo", vec![], vec!["--stop", "3"], ""),
        // Components and connections: calculated parameters (initial unknowns), aliases.
        ("examples/MassSpringDamper.mo", vec![], vec![], ""),
        (
            "examples/TankPump.mo",
            vec!["--method", "trapezoid", "--step", "0.01"],
            vec!["--method", "trapezoid", "--step", "0.01"],
            "",
        ),
    ];
    for (fmi, (model, fmu_args, run_args, starts)) in ["3", "2"]
        .into_iter()
        .flat_map(|v| cases.iter().map(move |c| (v, c)))
    {
        let path = common::repo_root().join(model);
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        let fmu = format!("{stem}-fmi{fmi}.fmu");
        let mut args = vec!["fmu", path.to_str().unwrap(), "--fmi", fmi, "-o", &fmu];
        args.extend(fmu_args);
        let (code, _, err) = rtc(&args, &dir);
        assert_eq!(code, 0, "{err}");
        let csv = format!("{stem}.csv");
        let mut args = vec![
            "run",
            path.to_str().unwrap(),
            "--no-event-rows",
            "--no-check",
            "--out",
            &csv,
        ];
        args.extend(run_args);
        let (code, _, err) = rtc(&args, &dir);
        assert!(code == 0 || err.contains("terminated"), "{err}");
        let out = Command::new(&python)
            .arg(common::repo_root().join("tests/fmu/fmpy_check.py"))
            .args([fmu.as_str(), csv.as_str(), starts])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{model}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        eprint!("{}", String::from_utf8_lossy(&out.stdout));
    }
    // A time-varying input: FMPy sets u(t_k) before the step from t_k; `rtc run` reads its
    // CSV input (sample and hold) at the end of each step, t_k + h, so its file holds u(t_k)
    // from the middle of that step (clear of rounding in t_k + h).
    let (h, n) = (1e-3, 2000);
    let u = |k: usize| 12.0 * (5.0 * (k as f64 * h)).sin();
    let mut fmpy_in = String::from("time,u\n");
    let mut run_in = format!("time,u\n0,{:?}\n", u(0));
    for k in 0..=n {
        fmpy_in.push_str(&format!("{:?},{:?}\n", k as f64 * h, u(k)));
        if k < n {
            run_in.push_str(&format!("{:?},{:?}\n", (k as f64 + 0.5) * h, u(k)));
        }
    }
    std::fs::write(dir.join("u_fmpy.csv"), fmpy_in).unwrap();
    std::fs::write(dir.join("u_run.csv"), run_in).unwrap();
    let path = common::repo_root().join("examples/DCMotor.mo");
    let model = path.to_str().unwrap();
    let (code, _, err) = rtc(
        &["fmu", model, "--method", "trapezoid", "-o", "dc-in.fmu"],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = rtc(
        &[
            "run",
            model,
            "--no-event-rows",
            "--no-check",
            "--method",
            "trapezoid",
            "--inputs",
            "u_run.csv",
            "--out",
            "dc-in.csv",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let out = Command::new(&python)
        .arg(common::repo_root().join("tests/fmu/fmpy_check.py"))
        .args(["dc-in.fmu", "dc-in.csv", "", "u_fmpy.csv"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "input signal: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprint!("{}", String::from_utf8_lossy(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A communication step that is not a whole number of the FMU's step is an error with a
/// message, not a silently different step.
#[test]
fn communication_step_must_be_a_multiple_of_the_step() {
    let dir = scratch("comm");
    let exe = master(&dir);
    let model = common::repo_root().join("examples/DCMotor.mo");
    let (code, _, err) = rtc(&["fmu", model.to_str().unwrap(), "-o", "fmu"], &dir);
    assert_eq!(code, 0, "{err}");
    let (_, token) = description(&dir.join("fmu"));
    let out = Command::new(&exe)
        .arg(dir.join("fmu/binaries/x86_64-linux/DCMotor.so"))
        .args([token.as_str(), "0.01", "0.0015", "out:1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a whole number"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The FMI 3 aarch64-linux binary, stepped by the C master cross-compiled for AArch64 under
/// qemu-user, equals `rtc run` on this machine to the bit (BouncingBall: state events). Needs
/// `aarch64-linux-gnu-gcc` and `qemu-aarch64` (Debian's cross compiler and qemu-user; `.ci/run`
/// installs them): without them the test says so and passes, except on CI.
#[test]
fn aarch64_fmu_runs_under_qemu() {
    let tools = ["aarch64-linux-gnu-gcc", "qemu-aarch64"];
    if let Some(t) = tools.iter().find(|t| {
        Command::new(t)
            .arg("--version")
            .output()
            .map_or(true, |o| !o.status.success())
    }) {
        assert!(std::env::var("CI").is_err(), "{t} is needed on CI");
        eprintln!("{t} not found: skipping the aarch64 FMU");
        return;
    }
    let dir = scratch("aarch64");
    let root = common::repo_root();
    let model = root.join("examples/BouncingBall.mo");
    let model = model.to_str().unwrap();
    let (code, _, err) = rtc(
        &[
            "fmu",
            model,
            "--target",
            "aarch64-unknown-linux-gnu",
            "-o",
            "fmu",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let so = dir.join("fmu/binaries/aarch64-linux/BouncingBall.so");
    assert!(so.exists(), "binaries/aarch64-linux/BouncingBall.so");
    let exe = dir.join("master-aarch64");
    let out = Command::new("aarch64-linux-gnu-gcc")
        .args(["-std=c99", "-O2", "-I"])
        .arg(root.join("compiler/fmi/fmi3"))
        .arg(root.join("tests/fmu/master.c"))
        .args(["-ldl", "-o"])
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (table, token) = description(&dir.join("fmu"));
    let vr = |n: &str| table.iter().find(|(x, _)| x == n).unwrap().1;
    let out = Command::new("qemu-aarch64")
        .args(["-L", "/usr/aarch64-linux-gnu"])
        .arg(&exe)
        .arg(&so)
        .args([token.as_str(), "3", "0.001"])
        .arg(format!("out:{},{}", vr("h"), vr("v")))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fmu_rows = parse_csv(&String::from_utf8_lossy(&out.stdout));
    let csv = dir.join("run.csv");
    let (code, _, err) = rtc(
        &[
            "run",
            model,
            "--no-event-rows",
            "--no-check",
            "--stop",
            "3",
            "--vars",
            "h,v",
            "--out",
            csv.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let run_rows = parse_csv(&std::fs::read_to_string(&csv).unwrap());
    assert_eq!(fmu_rows.len(), run_rows.len());
    for (a, b) in fmu_rows.iter().zip(&run_rows) {
        for (x, y) in a.iter().zip(b) {
            assert_eq!(
                x.to_bits(),
                y.to_bits(),
                "aarch64 FMU {a:?} vs rtc run {b:?}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The FMU of `model` (repository path) exported by `rtc fmu --method METHOD --step STEP`
/// into `dir/fmu`: its variables (name → value reference), its token, and the host library
/// (named after the model, the one file in the platform's folder).
fn exported(
    dir: &Path,
    model: &str,
    method: &str,
    step: &str,
) -> (Vec<(String, u32)>, String, PathBuf) {
    let path = common::repo_root().join(model);
    let (code, _, err) = rtc(
        &[
            "fmu",
            path.to_str().unwrap(),
            "--method",
            method,
            "--step",
            step,
            "-o",
            "fmu",
        ],
        dir,
    );
    assert_eq!(code, 0, "{err}");
    let (table, token) = description(&dir.join("fmu"));
    let so = std::fs::read_dir(dir.join("fmu/binaries/x86_64-linux"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    (table, token, so)
}

/// The FMU of `model` (forward Euler at `step`) stepped by the C master to `stop` with one
/// communication step per model step, reading variable `var`: the master's exit code and
/// log (stderr).
fn master_run(tag: &str, model: &str, step: &str, stop: &str, var: &str) -> (Option<i32>, String) {
    let dir = scratch(tag);
    let exe = master(&dir);
    let (table, token, so) = exported(&dir, model, "fe", step);
    let vr = table.iter().find(|(n, _)| n == var).expect("variable").1;
    let out = Command::new(&exe)
        .arg(so)
        .args([token.as_str(), stop, step])
        .arg(format!("out:{vr}"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A setter given a value its door rejects — NaN or a value above its max into the input, a
/// value below a tunable parameter's min — returns fmi3Error with a logged message and sets
/// nothing (FMI 3.0 allows an error from a setter that leaves the state as it was): the run
/// goes on, its outputs bitwise those of the run without the calls. Before, NaN into the
/// input returned fmi3OK and the next fmi3DoStep failed with "`w` became non-finite".
#[test]
fn a_rejected_value_is_a_setter_error_that_changes_nothing() {
    let dir = scratch("doors");
    let exe = master(&dir);
    let (table, token, so) = exported(&dir, "tests/models/BoundedMotor.mo", "trapezoid", "0.01");
    // The model description declares the doors the setters check.
    let xml = std::fs::read_to_string(dir.join("fmu/modelDescription.xml")).unwrap();
    let element = |name: &str| {
        let at = xml.find(&format!("name=\"{name}\"")).expect(name);
        xml[at..at + xml[at..].find("/>").unwrap()].to_string()
    };
    for (name, bounds) in [
        ("u", &["min=\"-10\"", "max=\"10\""][..]),
        ("R", &["min=\"0\""][..]),
        ("poles", &["min=\"2\"", "max=\"12\""][..]),
    ] {
        let e = element(name);
        assert!(bounds.iter().all(|b| e.contains(b)), "{e}");
    }
    assert!(!element("k").contains("min="), "{}", element("k"));
    let vr = |name: &str| table.iter().find(|(n, _)| n == name).expect(name).1;
    let run = |bad: &[String]| {
        Command::new(&exe)
            .arg(&so)
            .args([token.as_str(), "1", "0.01"])
            .arg(format!("out:{},{}", vr("w"), vr("i")))
            .args(bad)
            .output()
            .unwrap()
    };
    let plain = run(&[]);
    assert!(
        plain.status.success(),
        "{}",
        String::from_utf8_lossy(&plain.stderr)
    );
    let bad = run(&[
        format!("bad:{}=nan", vr("u")),
        format!("bad:{}=11", vr("u")),
        format!("bad:{}=-1", vr("R")),
    ]);
    let log = String::from_utf8_lossy(&bad.stderr);
    assert!(bad.status.success(), "{log}");
    assert_eq!(
        plain.stdout, bad.stdout,
        "the refused calls changed the run"
    );
    for want in [
        "`u` = nan: the value is not finite",
        "`u` = 11: the value is above its max",
        "`R` = -1: the value is below its min",
    ] {
        assert!(log.contains(want), "{want}: {log}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Random FMI 3.0 call sequences (`tests/fmu/fuzz.c`, a fixed seed): 20 000 calls among the
/// setters and getters with NaN, infinities, huge, denormal and out-of-range values, the mode
/// changes in any order, DoStep at right and wrong times, the FMU-state functions, Reset and
/// instantiating again. No call crashes, every status is an FMI status, and after every
/// fmi3DoStep that returns fmi3OK every variable reads finite.
#[test]
fn random_fmi_call_sequences_never_crash_or_let_bad_values_in() {
    let dir = scratch("fuzz");
    let root = common::repo_root();
    let exe = dir.join("fuzz");
    let out = Command::new("cc")
        .args(["-std=c99", "-O2", "-I"])
        .arg(root.join("compiler/fmi/fmi3"))
        .arg(root.join("tests/fmu/fuzz.c"))
        .args(["-ldl", "-lm", "-o"])
        .arg(&exe)
        .output()
        .expect("cc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (table, token, so) = exported(&dir, "tests/models/BoundedMotor.mo", "trapezoid", "0.01");
    let run = Command::new(&exe)
        .arg(&so)
        .args([
            token.as_str(),
            &table.len().to_string(),
            "20261126",
            "20000",
            "0.01",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let count = |what: &str| -> u64 {
        let words: Vec<&str> = text.split_whitespace().collect();
        let i = words.iter().position(|w| *w == what).expect(what);
        words[i + 1].parse().unwrap()
    };
    eprintln!("fmi fuzz: {}", text.trim());
    assert!(count("steps") > 50, "{text}");
    assert!(count("refused") > 100, "{text}");
    assert!(count("error") > 1000 && count("ok") > 1000, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A step that diverges returns fmi3Error with a log message naming the variable and the
/// time (the transmission line with forward Euler beyond its stability limit, as the run test
/// `diverging_run_exits_2_and_names_the_variable`), never fmi3OK with garbage.
#[test]
fn a_diverging_fmu_step_is_an_error_naming_the_variable() {
    let (code, err) = master_run("diverge", "examples/VdPLine.mo", "1e-3", "0.2", "u_l");
    assert_eq!(code, Some(2), "{err}");
    // fmi3Error is 3; the message names the variable and the time.
    assert!(
        err.contains("fmu [3]") && err.contains("became non-finite") && err.contains("t = 0.03"),
        "{err}"
    );
}

/// A failing assertion of the model is an error of the step it fails in, logged with the
/// assertion's message and the time `rtc run` stops at.
#[test]
fn a_failing_assertion_is_an_fmu_error_with_its_message() {
    let (code, err) = master_run("assert", "tests/models/AssertDrain.mo", "0.01", "5", "h");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("fmu [3]")
            && err
                .contains("t = 2.77: assertion failed: the tank ran below a quarter of its height"),
        "{err}"
    );
}

/// An assert of level warning that fails is logged once with fmi3Warning and its message, and
/// the FMU steps on to the stop time (as `rtc run`; specification 8.3.7).
#[test]
fn a_warning_level_assertion_is_logged_and_the_fmu_steps_on() {
    let (code, err) = master_run(
        "warning",
        "tests/language/predefined_enumerations.mo",
        "0.25",
        "1",
        "x",
    );
    assert_eq!(code, Some(0), "{err}");
    // fmi3Warning is 1.
    assert_eq!(err.matches("fmu [1] logStatusWarning").count(), 1, "{err}");
    assert!(
        err.contains("t = 0: warning (an assert of level warning): x above 2"),
        "{err}"
    );
}

/// A tunable parameter changed between steps (halfway) takes effect from the next step, with
/// what depends on it recomputed: the FMU equals the plan interpreter (which the native code
/// matches bitwise) given the same change, to the bit.
#[test]
fn parameter_changed_while_running_takes_effect_next_step() {
    use rtc::plan::interp::Interp;
    use rtc::plan::Status;
    let dir = scratch("midparam");
    let exe = master(&dir);
    let path = common::repo_root().join("examples/DCMotor.mo");
    let model = path.to_str().unwrap();
    let (code, _, err) = rtc(&["fmu", model, "--method", "be", "-o", "fmu"], &dir);
    assert_eq!(code, 0, "{err}");
    let (table, token) = description(&dir.join("fmu"));
    let vr = |n: &str| table.iter().find(|(x, _)| x == n).unwrap().1;
    let (stop, h) = (2.0, 0.001);
    let out = Command::new(&exe)
        .arg(dir.join("fmu/binaries/x86_64-linux/DCMotor.so"))
        .args([token.as_str(), "2", "0.001"])
        .arg(format!("set:{}=12", vr("u")))
        .arg(format!("mid:{}=0.6", vr("R")))
        .arg(format!("out:{},{}", vr("w"), vr("i")))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fmu_rows = parse_csv(&String::from_utf8_lossy(&out.stdout));
    // The same on the interpreter.
    let text = std::fs::read_to_string(&path).unwrap();
    let c = rtc::pipeline::check_source("DCMotor.mo", &text, &Default::default());
    let flat = c.model.expect("model");
    let plan = rtc::pipeline::plan(
        &flat,
        &rtc::pipeline::Settings::of(&rtc::pipeline::Method::BackwardEuler),
    )
    .unwrap()
    .plan;
    let slot = |n: &str| plan.vars.iter().position(|v| v.name == n).unwrap();
    let expr = |n: &str| plan.outputs.iter().find(|o| o.name == n).unwrap().expr;
    let n = (stop / h) as usize;
    let run = |change: bool| {
        let mut it = Interp::new(&plan);
        let mut mem = it.memory();
        // The input as the master sets it: before initialisation, held since.
        mem[slot("u")] = 12.0;
        assert_eq!(it.init(&mut mem, 0.0), Status::Ok);
        let mut rows = vec![vec![
            0.0,
            it.eval(&mem, expr("w")),
            it.eval(&mem, expr("i")),
        ]];
        for k in 0..n {
            if change && k == n / 2 {
                mem[slot("R")] = 0.6;
                it.parameters_changed(&mut mem);
            }
            assert_eq!(it.step(&mut mem, k as f64 * h, h), Status::Ok);
            rows.push(vec![
                (k + 1) as f64 * h,
                it.eval(&mem, expr("w")),
                it.eval(&mem, expr("i")),
            ]);
        }
        rows
    };
    let rows = run(true);
    assert_eq!(fmu_rows.len(), rows.len());
    for (a, b) in fmu_rows.iter().zip(&rows) {
        for (x, y) in a.iter().zip(b).skip(1) {
            assert_eq!(x.to_bits(), y.to_bits(), "FMU {a:?} vs interpreter {b:?}");
        }
    }
    // The change did something: without it the current differs after the middle.
    let unchanged = run(false);
    assert!((unchanged[n][2] - rows[n][2]).abs() > 1e-3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without a C compiler the command says so (exit 1) and leaves the parts to link by hand:
/// the object, the wrapper sources, the FMI headers and the model description.
#[test]
fn without_a_c_compiler_the_parts_are_written() {
    let dir = scratch("nocc");
    let model = common::repo_root().join("examples/DCMotor.mo");
    let out = Command::new(env!("CARGO_BIN_EXE_rtc"))
        .args(["fmu", model.to_str().unwrap(), "-o", "DCMotor.fmu"])
        .current_dir(&dir)
        .env("CC", "/nonexistent/cc")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot link") && err.contains("cc -shared"),
        "{err}"
    );
    for f in [
        "DCMotor.o",
        "DCMotor.h",
        "fmi3.c",
        "rtc_fmu_core.c",
        "rtc_events.c",
        "rtc_fmu.h",
        "fmi3Functions.h",
        "modelDescription.xml",
    ] {
        assert!(dir.join("DCMotor").join(f).exists(), "{f} not written");
    }
    assert!(!dir.join("DCMotor.fmu").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `when terminal()` in an FMU: fmi3Terminate makes the instant at which terminal() is true
/// at the FMU's time and checks the assertions (`tests/models/TerminalAssert.mo`). Needing 3
/// of its 4 samples the master's run ends well; needing 5, fmi3Terminate returns fmi3Error
/// and logs the assertion's message. Before, `rtc fmu` refused `when terminal()`.
#[test]
fn fmi_terminate_makes_the_terminal_instant() {
    let text = std::fs::read_to_string(common::repo_root().join("tests/models/TerminalAssert.mo"))
        .unwrap();
    for need in [3, 5] {
        let dir = scratch(&format!("terminal{need}"));
        let model = dir.join("TerminalAssert.mo");
        std::fs::write(&model, text.replace("need = 3", &format!("need = {need}"))).unwrap();
        let exe = master(&dir);
        let (table, token, so) = exported(&dir, model.to_str().unwrap(), "fe", "0.25");
        let vr = table.iter().find(|(n, _)| n == "n").expect("n").1;
        let out = Command::new(&exe)
            .arg(so)
            .args([token.as_str(), "1", "0.25"])
            .arg(format!("out:{vr}"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        if need == 3 {
            assert!(out.status.success(), "{err}");
        } else {
            assert_eq!(out.status.code(), Some(2), "{err}");
            assert!(
                err.contains("fmi3Terminate failed") && err.contains("not enough samples"),
                "{err}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A data file an external object's constructor reads travels in the FMU
/// (`tests/clib/ExtKinds` `FileSum`: the sum of the numbers of a file, 6.5, times time): `rtc
/// fmu` copies it into `resources/`, and the FMU's constructor reads it from the resources
/// folder the master gives at instantiation (FMI 3.0 a path, FMI 2.0 a file URI), so the FMU
/// runs after the original file is gone: y = 6.5 t at every communication point.
#[test]
fn fmu_carries_the_data_files_of_its_objects() {
    let lib = common::repo_root().join("tests/clib/ExtKinds");
    for version in [3u32, 2] {
        let dir = scratch(&format!("resources{version}"));
        let data = dir.join("numbers.txt");
        std::fs::write(&data, "1 2\n3.5\n").unwrap();
        let model = dir.join("FileObject.mo");
        std::fs::write(
            &model,
            format!(
                "model FileObject\n  parameter ExtKinds.FileSum f = ExtKinds.FileSum(\"{}\");\n  Real y = ExtKinds.fileScale(f, time);\n  annotation(experiment(StopTime = 1, Interval = 0.25));\nend FileObject;\n",
                data.display()
            ),
        )
        .unwrap();
        let fmi = version.to_string();
        let (code, _, err) = rtc(
            &[
                "fmu",
                "--lib",
                lib.to_str().unwrap(),
                model.to_str().unwrap(),
                "--fmi",
                &fmi,
                "--method",
                "fe",
                "--step",
                "0.25",
                "-o",
                "fmu",
            ],
            &dir,
        );
        assert_eq!(code, 0, "{err}");
        assert!(dir.join("fmu/resources/numbers.txt").is_file());
        std::fs::remove_file(&data).unwrap();
        let (table, token) = description(&dir.join("fmu"));
        let vr = table.iter().find(|(n, _)| n == "y").expect("y").1;
        let platform = if version == 3 {
            "x86_64-linux"
        } else {
            "linux64"
        };
        let so = std::fs::read_dir(dir.join("fmu/binaries").join(platform))
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let exe = master_for(&dir, version);
        let out = Command::new(&exe)
            .arg(&so)
            .args([token.as_str(), "1", "0.25"])
            .arg(format!("out:{vr}"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "FMI {version}: {err}");
        let rows = parse_csv(&String::from_utf8_lossy(&out.stdout));
        assert_eq!(rows.len(), 5, "{rows:?}");
        for r in &rows {
            assert_eq!(r[1], 6.5 * r[0], "FMI {version}: {rows:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
