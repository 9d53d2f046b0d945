//! `rtc compile` end to end: every example compiled to an object for each Linux target,
//! linked with the C harness (`examples/embedded/`) by the host gcc or the Debian cross
//! compiler, run natively or under qemu-user, and compared with the JIT run of `rtc run`.
//!
//! Bound: the object runs the code the JIT runs (same generator, same operation order, no
//! fused multiply-add: Cranelift fuses only when asked), so on the host the results are
//! bitwise equal. Across instruction sets only the C math library may differ (glibc's sin,
//! exp, pow, … are within an ulp or so but not identical on every architecture), and a
//! difference of one ulp in a state grows at most by the model's own sensitivity over the
//! short runs here. We assert a relative difference ≤ 1e-9 (of max(|x|, 1e-3 · column max))
//! and print the largest seen; the measured figure is 0 for every model and target so far.
//!
//! Cross tools missing: the target is skipped with the reason, unless `CI` is set (`.ci/run`
//! installs them), where a skip is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

const RTC: &str = env!("CARGO_BIN_EXE_rtc");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

struct Case {
    file: &'static str,
    flags: &'static [&'static str],
    stop: &'static str,
    inputs: Option<&'static str>,
}

impl Case {
    /// The model's name: its file's stem (a case may live in tests/models).
    fn name(&self) -> &'static str {
        let file = self.file.rsplit('/').next().unwrap_or(self.file);
        file.trim_end_matches(".mo")
    }
}

const CASES: &[Case] = &[
    Case {
        file: "VdPLine.mo",
        flags: &["--method", "mixed", "--implicit", "u_l", "--step", "1e-4"],
        stop: "0.05",
        inputs: None,
    },
    Case {
        file: "VdPLineNoLoad.mo",
        flags: &["--method", "be", "--step", "1e-3"],
        stop: "0.2",
        inputs: None,
    },
    Case {
        file: "VdPLineComponents.mo",
        flags: &["--method", "trapezoid", "--step", "1e-4"],
        stop: "0.02",
        inputs: None,
    },
    Case {
        file: "Pendulum.mo",
        flags: &["--method", "trapezoid", "--step", "0.5"],
        stop: "100",
        inputs: None,
    },
    Case {
        file: "HydraulicMotor.mo",
        flags: &["--method", "mixed", "--step", "1e-4"],
        stop: "0.1",
        inputs: None,
    },
    Case {
        file: "Helicopter.mo",
        flags: &["--method", "be", "--step", "0.01"],
        stop: "5",
        inputs: None,
    },
    Case {
        file: "SecondOrder.mo",
        flags: &["--method", "fe", "--step", "1e-3"],
        stop: "1",
        inputs: None,
    },
    Case {
        file: "MassSpringDamper.mo",
        flags: &["--method", "be", "--step", "1e-3"],
        stop: "1",
        inputs: None,
    },
    Case {
        file: "RCCircuit.mo",
        flags: &["--method", "trapezoid", "--step", "1e-3"],
        stop: "1",
        inputs: None,
    },
    Case {
        file: "DCMotor.mo",
        flags: &["--method", "trapezoid", "--step", "1e-3"],
        stop: "2",
        inputs: Some("DCMotor_inputs.csv"),
    },
    // Inputs at stage times (Bernstein's stages at t + k·h/5): the header's input offsets.
    Case {
        file: "DCMotor.mo",
        flags: &["--method", "rtrk4", "--step", "1e-3"],
        stop: "2",
        inputs: Some("DCMotor_inputs.csv"),
    },
    // Events through rtc_events.c: state events with reinit, time events, hysteresis,
    // switching relations, the event iteration and terminate.
    Case {
        file: "BouncingBall.mo",
        flags: &["--method", "trapezoid", "--step", "1e-3"],
        stop: "4",
        inputs: None,
    },
    Case {
        file: "SampledPI.mo",
        flags: &["--method", "trapezoid", "--step", "1e-3"],
        stop: "2",
        inputs: None,
    },
    Case {
        file: "Thermostat.mo",
        flags: &["--method", "trapezoid", "--step", "1"],
        stop: "20000",
        inputs: None,
    },
    Case {
        file: "Rectifier.mo",
        flags: &["--method", "be", "--step", "1e-5"],
        stop: "0.05",
        inputs: None,
    },
    Case {
        file: "TankPump.mo",
        flags: &["--method", "trapezoid", "--step", "0.01"],
        stop: "2000",
        inputs: None,
    },
    // Friction's stuck phase: frozen relations searched at each stick.
    Case {
        file: "StickSlip.mo",
        flags: &["--method", "trapezoid", "--step", "0.01"],
        stop: "10",
        inputs: None,
    },
    // A located crossing refined (regula falsi, Illinois) before the block sticks.
    // Runs of repeated assignments generated as loops (scalar on riscv64, f64x2 lanes on
    // x86-64 and AArch64).
    Case {
        file: "../tests/models/RolledArrays.mo",
        flags: &["--method", "rk4", "--step", "1e-2"],
        stop: "0.5",
        inputs: None,
    },
    // Square roots, min/max, comparisons and selections in f64x2 lanes (bit selects).
    Case {
        file: "../tests/models/PairedLanes.mo",
        flags: &["--method", "fe", "--step", "1e-2"],
        stop: "1",
        inputs: None,
    },
    Case {
        file: "../tests/models/BlockSticks.mo",
        flags: &["--method", "be", "--step", "0.01"],
        stop: "4",
        inputs: None,
    },
    // A switch back at a fold: the relations' groups searched (the other limit).
    Case {
        file: "../tests/models/SchmittTrigger.mo",
        flags: &["--method", "trapezoid", "--step", "1e-3"],
        stop: "0.25",
        inputs: None,
    },
    // A relation held at its threshold (v = Vend): rounding does not switch it.
    Case {
        file: "../tests/models/Charger.mo",
        flags: &["--method", "trapezoid", "--step", "0.01"],
        stop: "1",
        inputs: None,
    },
    // Located by the inverse cubic Hermite (methods of order 3 and more).
    Case {
        file: "BouncingBall.mo",
        flags: &["--method", "radau", "--step", "1e-3"],
        stop: "4",
        inputs: None,
    },
    Case {
        file: "Thermostat.mo",
        flags: &["--method", "rk4", "--step", "1"],
        stop: "20000",
        inputs: None,
    },
    // Functions inlined: a table lookup with a bounded while-loop, a clamp, a polynomial.
    Case {
        file: "CruiseControl.mo",
        flags: &["--method", "trapezoid", "--step", "0.01"],
        stop: "40",
        inputs: None,
    },
    // A transport delay: its buffer of 120 samples lives in the step's memory.
    Case {
        file: "ShowerDelay.mo",
        flags: &["--method", "trapezoid", "--step", "0.01"],
        stop: "40",
        inputs: None,
    },
];

struct Platform {
    triple: &'static str,
    cc: &'static str,
    /// Emulator and its arguments, empty for the host.
    exec: &'static [&'static str],
}

const PLATFORMS: &[Platform] = &[
    Platform {
        triple: "x86_64-unknown-linux-gnu",
        cc: "gcc",
        exec: &[],
    },
    Platform {
        triple: "aarch64-unknown-linux-gnu",
        cc: "aarch64-linux-gnu-gcc",
        exec: &["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"],
    },
    Platform {
        triple: "riscv64gc-unknown-linux-gnu",
        cc: "riscv64-linux-gnu-gcc",
        exec: &["qemu-riscv64", "-L", "/usr/riscv64-linux-gnu"],
    },
];

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn parse_csv(text: &str) -> (Vec<String>, Vec<Vec<f64>>) {
    let mut lines = text.lines();
    let head = lines
        .next()
        .unwrap_or("")
        .split(',')
        .map(String::from)
        .collect();
    let rows = lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.split(',')
                .map(|c| c.parse::<f64>().unwrap_or(f64::NAN))
                .collect()
        })
        .collect();
    (head, rows)
}

/// Largest relative difference between two runs, over all rows and columns.
fn compare(what: &str, a: &str, b: &str) -> f64 {
    let (ha, ra) = parse_csv(a);
    let (hb, rb) = parse_csv(b);
    assert_eq!(ha, hb, "{what}: columns differ");
    assert_eq!(ra.len(), rb.len(), "{what}: row counts differ");
    let cols = ha.len();
    let mut scale = vec![0.0f64; cols];
    for r in &ra {
        for (k, x) in r.iter().enumerate() {
            scale[k] = scale[k].max(x.abs());
        }
    }
    let mut worst = 0.0f64;
    for (i, (x, y)) in ra.iter().zip(&rb).enumerate() {
        for k in 0..cols {
            let d = (x[k] - y[k]).abs();
            let s = x[k].abs().max(1e-3 * scale[k]).max(f64::MIN_POSITIVE);
            let rel = if x[k].to_bits() == y[k].to_bits() {
                0.0
            } else {
                d / s
            };
            assert!(
                rel <= 1e-9,
                "{what}: row {i} column {}: JIT {} object {} (relative {rel:e})",
                ha[k],
                x[k],
                y[k]
            );
            worst = worst.max(rel);
        }
    }
    worst
}

#[test]
fn objects_run_on_three_instruction_sets() {
    let in_ci = std::env::var_os("CI").is_some();
    let work = std::env::temp_dir().join(format!("rtc-embedded-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let mut ran = 0;
    for p in PLATFORMS {
        let tools: Vec<&str> = std::iter::once(p.cc)
            .chain(p.exec.first().copied())
            .collect();
        if let Some(missing) = tools.iter().find(|t| !have(t)) {
            let msg = format!(
                "{}: skipped, `{missing}` is not installed (Debian: gcc-aarch64-linux-gnu, gcc-riscv64-linux-gnu, qemu-user)",
                p.triple
            );
            assert!(!in_ci, "{msg}; CI must run every target");
            eprintln!("{msg}");
            continue;
        }
        for c in CASES {
            let name = c.name();
            let model = root().join("examples").join(c.file);
            let what = format!("{name} on {}", p.triple);
            // The object through the harness's Makefile.
            let build = work.join(p.triple).join(name);
            let exe = build_harness(&what, &model, name, &c.flags.join(" "), p.triple, &build);
            let mut cmd = match p.exec.split_first() {
                Some((emu, args)) => {
                    let mut c = Command::new(emu);
                    c.args(args).arg(&exe);
                    c
                }
                None => Command::new(&exe),
            };
            cmd.args(["--stop", c.stop]);
            if let Some(i) = c.inputs {
                cmd.arg("--inputs").arg(root().join("examples").join(i));
            }
            let out = cmd.output().unwrap();
            assert!(
                out.status.success(),
                "{what}: harness: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let jit = jit_run(c, &work);
            let obj = String::from_utf8(out.stdout).unwrap();
            let worst = compare(&what, &jit, &obj);
            eprintln!("{what}: largest relative difference to the JIT {worst:e}");
            ran += 1;
        }
    }
    assert!(ran >= CASES.len(), "at least the host target must run");
    let _ = std::fs::remove_dir_all(&work);
}

/// The JIT's CSV for `case` (every step), for comparisons.
fn jit_run(case: &Case, work: &Path) -> String {
    let name = case.name();
    let step = case
        .flags
        .iter()
        .position(|f| *f == "--step")
        .map(|k| case.flags[k + 1])
        .expect("a step");
    let path = work.join(format!("{name}.jit.csv"));
    let mut run = Command::new(RTC);
    run.arg("run")
        .arg(root().join("examples").join(case.file))
        .arg("--no-event-rows")
        .args(case.flags)
        .args(["--interval", step, "--stop", case.stop, "--out"])
        .arg(&path);
    if let Some(i) = case.inputs {
        run.arg("--inputs").arg(root().join("examples").join(i));
    }
    let out = run.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(path).unwrap()
}

fn compile_to(case: &Case, target: &str, dir: &Path) -> String {
    let out = Command::new(RTC)
        .arg("compile")
        .arg(root().join("examples").join(case.file))
        .args(case.flags)
        .args(["--target", target, "-o"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    case.name().to_string()
}

/// The C harness (`examples/embedded`) built by its Makefile for `model` compiled with
/// `flags` for `triple` (empty: this machine) into `build`; the path of the executable.
fn build_harness(
    what: &str,
    model: &Path,
    name: &str,
    flags: &str,
    triple: &str,
    build: &Path,
) -> PathBuf {
    let exe = build.join("run");
    let out = Command::new("make")
        .arg("-s")
        .arg("-C")
        .arg(root().join("examples/embedded"))
        .arg(format!("MODEL={}", model.display()))
        .arg(format!("NAME={name}"))
        .arg(format!("RTCFLAGS={flags}"))
        .arg(format!("TARGET={triple}"))
        .arg(format!("RTC={RTC}"))
        .arg(format!("BUILD={}", build.display()))
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{what}: make: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn case(file: &str) -> &'static Case {
    CASES.iter().find(|c| c.file == file).unwrap()
}

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rtc-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The header is strict C99 (and C++), and the object's external symbols are exactly the
/// entry points (and, for models with events, the event functions) plus the C math functions
/// the JSON lists.
#[test]
fn header_is_strict_c99_and_the_object_exports_only_the_api() {
    let work = temp("header");
    for file in [
        "Pendulum.mo",
        "VdPLineNoLoad.mo",
        "DCMotor.mo",
        "TankPump.mo",
    ] {
        let name = compile_to(case(file), "x86_64-unknown-linux-gnu", &work);
        for generic in [false, true] {
            let src = work.join(format!("{name}_{generic}.c"));
            std::fs::write(
                &src,
                format!(
                    "{}#include \"{name}.h\"\nint main(void) {{ return {name}_MEM_SLOTS > 0 ? 0 : 1; }}\n",
                    if generic { "#define RTC_MODEL_GENERIC\n" } else { "" }
                ),
            )
            .unwrap();
            let out = Command::new("gcc")
                .args([
                    "-std=c99",
                    "-Wall",
                    "-Wextra",
                    "-pedantic",
                    "-Werror",
                    "-c",
                    "-o",
                ])
                .arg(work.join("t.o"))
                .arg("-I")
                .arg(&work)
                .arg(&src)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name}.h is not strict C99: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let obj = work.join(format!("{name}.o"));
        let nm = |flag: &str| -> Vec<String> {
            let out = Command::new("nm").arg(flag).arg(&obj).output().unwrap();
            assert!(out.status.success());
            let mut v: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| l.split_whitespace().last().map(String::from))
                .collect();
            v.sort();
            v
        };
        let mut exported = nm("--defined-only");
        exported.retain(|s| {
            !s.contains("_chunk")
                && !s.ends_with("_verify")
                && !s.ends_with("_lu_solve")
                && !s.ends_with("_pow")
        });
        let globals = {
            let out = Command::new("nm")
                .args(["-g", "--defined-only"])
                .arg(&obj)
                .output()
                .unwrap();
            let mut v: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| l.split_whitespace().last().map(String::from))
                .collect();
            v.sort();
            v
        };
        let mut api = vec![
            format!("{name}_init"),
            format!("{name}_outputs"),
            format!("{name}_parameters"),
            format!("{name}_start"),
            format!("{name}_step"),
        ];
        if file == "TankPump.mo" {
            // Events: zero-crossing functions, the pre fill, one function per event.
            api.extend((0..6).map(|k| format!("{name}_event{k}")));
            api.extend([format!("{name}_pre"), format!("{name}_zc")]);
            api.sort();
        }
        assert_eq!(globals, api, "{name}: external definitions");
        assert_eq!(
            globals, exported,
            "{name}: local symbols other than chunks and helpers"
        );
        let undefined = nm("--undefined-only");
        let json = std::fs::read_to_string(work.join(format!("{name}.json"))).unwrap();
        let libm_line = json.lines().find(|l| l.contains("\"libm\"")).unwrap();
        for u in &undefined {
            assert!(
                libm_line.contains(&format!("\"{u}\"")),
                "{name}: undefined symbol {u} is not a listed libm function ({libm_line})"
            );
        }
        if file == "Pendulum.mo" {
            assert_eq!(undefined, vec!["cos".to_string(), "sin".to_string()]);
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// Bare-metal objects (absolute addressing, no PIC) linked statically into the harness and run
/// under qemu give the JIT's results; without an operating system to run them on, this checks
/// the code and its relocations.
#[test]
fn bare_metal_objects_run_statically_linked() {
    let in_ci = std::env::var_os("CI").is_some();
    let work = temp("bare");
    for (triple, cc, emu, sysroot) in [
        (
            "aarch64-unknown-none",
            "aarch64-linux-gnu-gcc",
            "qemu-aarch64",
            "/usr/aarch64-linux-gnu",
        ),
        (
            "riscv64gc-unknown-none-elf",
            "riscv64-linux-gnu-gcc",
            "qemu-riscv64",
            "/usr/riscv64-linux-gnu",
        ),
    ] {
        if !have(cc) || !have(emu) {
            let msg = format!("{triple}: skipped, `{cc}` or `{emu}` is not installed");
            assert!(!in_ci, "{msg}; CI must run every target");
            eprintln!("{msg}");
            continue;
        }
        for file in ["Pendulum.mo", "VdPLineNoLoad.mo"] {
            let c = case(file);
            let dir = work.join(triple);
            let name = compile_to(c, triple, &dir);
            let exe = dir.join(format!("{name}.run"));
            let out = Command::new(cc)
                .args([
                    "-std=c99", "-O2", "-static", "-no-pie", "-Wall", "-Wextra", "-Werror",
                ])
                .arg("-I")
                .arg(&dir)
                .arg(format!("-DRTC_MODEL_HEADER=\"{name}.h\""))
                .arg(root().join("examples/embedded/harness.c"))
                .arg(root().join("examples/embedded/rtc_events.c"))
                .arg(dir.join(format!("{name}.o")))
                .args(["-lm", "-o"])
                .arg(&exe)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{triple} {name}: link: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let out = Command::new(emu)
                .args(["-L", sysroot])
                .arg(&exe)
                .args(["--stop", c.stop])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{triple} {name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let worst = compare(
                &format!("{name} on {triple}"),
                &jit_run(c, &work),
                &String::from_utf8(out.stdout).unwrap(),
            );
            eprintln!("{name} on {triple} (static): largest relative difference {worst:e}");
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn unsupported_target_is_a_diagnostic() {
    let work = temp("target");
    let out = Command::new(RTC)
        .arg("compile")
        .arg(root().join("examples/Pendulum.mo"))
        .args(["--step", "0.5", "--target", "mips-unknown-linux-gnu", "-o"])
        .arg(&work)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unsupported target `mips-unknown-linux-gnu`"),
        "{err}"
    );
    assert!(err.contains("riscv64gc-unknown-none-elf"), "{err}");
    assert!(!work.join("Pendulum.o").exists());
    let _ = std::fs::remove_dir_all(&work);
}

/// The stack use the header reports bounds the real one: a probe paints the stack, runs init
/// and 100 steps, and finds the deepest byte written. The probe's own call overhead is not
/// counted in its figure, so the measured value sits a little under the report.
#[test]
fn reported_stack_use_bounds_the_measured_one() {
    let work = temp("stack");
    let probe = root().join("tests/embedded_stack_probe.c");
    for (file, flags) in [
        (
            "VdPLineNoLoad.mo",
            &["--method", "be", "--step", "1e-3"][..],
        ),
        (
            "VdPLine.mo",
            &["--method", "mixed", "--implicit", "u_l", "--step", "1e-4"][..],
        ),
        (
            "HydraulicMotor.mo",
            &[
                "--method",
                "be",
                "--step",
                "1e-4",
                "--newton-iterations",
                "30",
            ][..],
        ),
        ("DCMotor.mo", &["--method", "trapezoid"][..]),
    ] {
        let name = file.trim_end_matches(".mo");
        let out = Command::new(RTC)
            .arg("compile")
            .arg(root().join("examples").join(file))
            .args(flags)
            .arg("-o")
            .arg(&work)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let header = std::fs::read_to_string(work.join(format!("{name}.h"))).unwrap();
        let reported = |key: &str| -> usize {
            let line = header
                .lines()
                .find(|l| l.starts_with(&format!("#define {name}_{key} ")))
                .unwrap();
            line.split_whitespace().nth(2).unwrap().parse().unwrap()
        };
        assert!(
            header.contains("it calls no library function"),
            "{name}: the probe needs a model whose step calls no libm"
        );
        let exe = work.join(format!("{name}.probe"));
        let out = Command::new("gcc")
            .args(["-O0", "-I"])
            .arg(&work)
            .arg(format!("-DRTC_MODEL_HEADER=\"{name}.h\""))
            .arg(&probe)
            .arg(work.join(format!("{name}.o")))
            .args(["-lm", "-o"])
            .arg(&exe)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = Command::new(&exe).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let v: Vec<usize> = text
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        let (init, step) = (v[1], v[2]);
        let (r_init, r_step) = (reported("STACK_BYTES_INIT"), reported("STACK_BYTES_STEP"));
        eprintln!("{name}: stack measured init {init} step {step}, reported {r_init} / {r_step}");
        assert!(
            step <= r_step,
            "{name}: step used {step} bytes, header says {r_step}"
        );
        assert!(
            init <= r_init,
            "{name}: init used {init} bytes, header says {r_init}"
        );
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// The model's assertions travel with the object: `asserts` evaluates their conditions and the
/// header's `check_assertions` is what the harness runs after init and after every step. A
/// failing assertion stops the harness at the step `rtc run` stops at, with the message; one
/// of `when initial()` fails init.
#[test]
fn assertions_stop_the_object_where_rtc_run_stops() {
    let work = temp("asserts");
    for (name, stop_line) in [
        (
            "AssertDrain",
            "stopped at t = 2.77: an assertion of the model failed (detail: assertion), detail 0: the tank ran below a quarter of its height",
        ),
        (
            "AssertInitialFails",
            "init failed at t = 0: an assertion of the model failed (detail: assertion), detail 0: x must start at 0.5 or above",
        ),
    ] {
        let model = root().join("tests/models").join(format!("{name}.mo"));
        let build = work.join(name);
        let exe = host_harness(&model, name, "--method fe --step 0.01", &build);
        let json = std::fs::read_to_string(build.join(format!("{name}.json"))).unwrap();
        assert!(json.contains(&format!("\"asserts\": \"{name}_asserts\"")), "{json}");
        let out = Command::new(&exe).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(stop_line), "{name}: {err}");
        // rtc run stops at the same time with the same message.
        let run = Command::new(RTC)
            .arg("run")
            .arg(&model)
            .args(["--no-event-rows", "--method", "fe", "--step", "0.01", "--interval", "0.01"])
            .args(["--stop", "5", "--out"])
            .arg(work.join(format!("{name}.csv")))
            .output()
            .unwrap();
        let run_err = String::from_utf8_lossy(&run.stderr);
        let message = stop_line.rsplit(": ").next().unwrap();
        let at = if name == "AssertDrain" {
            "t = 2.77"
        } else {
            "initialisation failed"
        };
        assert!(
            run.status.code() == Some(2) && run_err.contains(message) && run_err.contains(at),
            "{name}: rtc run: {run_err}"
        );
        if name == "AssertDrain" {
            // The rows printed before the stop equal the JIT's, to the bit.
            let obj = String::from_utf8(out.stdout).unwrap();
            let jit = std::fs::read_to_string(work.join(format!("{name}.csv"))).unwrap();
            assert_eq!(compare(name, &jit, &obj), 0.0);
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// The C event stepper handles time events as `rtc run` does (tests/events.rs): all those due
/// at one time together, several in one step one after the other; every value bitwise equal
/// to the JIT's.
#[test]
fn simultaneous_time_events_in_the_c_stepper() {
    let work = temp("simultaneous");
    let name = "SimultaneousTimeEvents";
    let model = root().join("tests/models").join(format!("{name}.mo"));
    let exe = host_harness(&model, name, "--method fe --step 0.1", &work.join(name));
    let out = Command::new(&exe).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let obj = String::from_utf8(out.stdout).unwrap();
    let csv = work.join("jit.csv");
    let run = fe_run(&model, "0.1", &csv);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let jit = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(compare(name, &jit, &obj), 0.0);
    let (head, rows) = parse_csv(&obj);
    let x = head.iter().position(|c| c == "x").expect("x recorded");
    assert_eq!(rows.last().unwrap()[x], 1.5, "{obj}");
    let _ = std::fs::remove_dir_all(&work);
}

/// Assertions of level warning in an object: the harness reports each once, at the time
/// `rtc run` reports its first failure, and runs to the stop time.
#[test]
fn warning_level_assertions_are_reported_by_the_harness() {
    let work = temp("warnings");
    let name = "AssertWarning";
    let model = root().join("tests/models").join(format!("{name}.mo"));
    let exe = host_harness(&model, name, "--method fe --step 0.25", &work.join(name));
    let out = Command::new(&exe).args(["--stop", "2"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(err.matches("warning at").count(), 2, "{err}");
    assert!(err.contains("warning at t = 1.25: x above 1"), "{err}");
    assert!(err.contains("warning at t = 1.5: u reached 1.5"), "{err}");
    let rows = String::from_utf8_lossy(&out.stdout);
    assert!(rows.trim_end().ends_with("\n2,2"), "{rows}");
    let _ = std::fs::remove_dir_all(&work);
}

/// The C harness's inputs pass the doors rtc run applies (the header's `input_min`,
/// `input_max`, `input_type`): a CSV value outside the input's declared bounds, or not
/// finite, is refused with its line, exit 1; the values within run.
#[test]
fn the_harness_refuses_inputs_outside_their_declarations() {
    let work = temp("doors");
    let name = "BoundedMotor";
    let model = root().join("tests/models").join(format!("{name}.mo"));
    let exe = host_harness(
        &model,
        name,
        "--method trapezoid --step 0.01",
        &work.join(name),
    );
    for (text, want) in [
        (
            "time,u\n0,1\n0.5,10.5\n",
            Some("u.csv:3: `u` = 10.5: the value is above its max"),
        ),
        (
            "time,u\n0,nan\n",
            Some("u.csv:2: `u` = nan: the value is not finite"),
        ),
        ("time,u\n0,1\n0.5,-10\n", None),
    ] {
        let csv = work.join("u.csv");
        std::fs::write(&csv, text).unwrap();
        let out = Command::new(&exe)
            .args(["--stop", "1", "--inputs"])
            .arg(&csv)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        match want {
            Some(w) => {
                assert_eq!(out.status.code(), Some(1), "{err}");
                assert!(err.contains(w), "{err}");
            }
            None => assert!(out.status.success(), "{err}"),
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// `rtc run MODEL` with forward Euler at `step`, a row per step and none at events, into
/// `csv`: what the harness prints, for the bitwise comparison.
fn fe_run(model: &Path, step: &str, csv: &Path) -> std::process::Output {
    Command::new(RTC)
        .arg("run")
        .arg(model)
        .args(["--no-event-rows", "--method", "fe", "--step", step])
        .args(["--interval", step, "--out"])
        .arg(csv)
        .output()
        .unwrap()
}

/// The harness built for this machine through its Makefile with `model` compiled by `rtc
/// compile <flags>` into `build`: the program's path.
fn host_harness(model: &Path, name: &str, flags: &str, build: &Path) -> PathBuf {
    build_harness(name, model, name, flags, "", build)
}

/// The C event runtime's bounds and tolerances are the simulator's (a change to one that the
/// other does not follow would make an object disagree with `rtc run`).
#[test]
fn c_event_runtime_constants_are_the_simulators() {
    let h = std::fs::read_to_string(root().join("examples/embedded/rtc_events.h")).unwrap();
    let define = |name: &str| -> f64 {
        let line = h
            .lines()
            .find(|l| l.starts_with(&format!("#define {name} ")))
            .unwrap_or_else(|| panic!("{name} not defined"));
        line.split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    assert_eq!(
        define("RTC_EVENT_ITERATIONS"),
        rtc::plan::EVENT_ITERATIONS as f64
    );
    assert_eq!(
        define("RTC_LOCATED_PER_STEP"),
        rtc::sim::LOCATED_PER_STEP as f64
    );
    assert_eq!(define("RTC_ZENO_STEPS"), rtc::plan::ZENO_STEPS);
    assert_eq!(define("RTC_THRESHOLD_RTOL"), rtc::plan::THRESHOLD_RTOL);
}

/// `--target-cpu x86-64-v3` gives the object AVX's encodings of the same operations (no fused
/// multiply-add: rtc emits none), so on a CPU that has them its results are bitwise those of
/// the baseline object: the VdPLine harness prints the same rows.
#[test]
fn avx_object_gives_the_baseline_numbers() {
    #[cfg(target_arch = "x86_64")]
    {
        if !std::is_x86_feature_detected!("avx2") || !have("gcc") {
            eprintln!("skipped: this machine has no AVX2 or no gcc");
            return;
        }
        let work = temp("target-cpu");
        let model = root().join("examples/VdPLine.mo");
        let run = |cpu: &str| -> String {
            let exe = host_harness(
                &model,
                "VdPLine",
                &format!("--method mixed --implicit u_l --step 1e-4 --target-cpu {cpu}"),
                &work.join(cpu),
            );
            let out = Command::new(&exe)
                .args(["--stop", "2", "--every", "100", "--all"])
                .output()
                .unwrap();
            assert!(out.status.success(), "{cpu}: harness failed");
            String::from_utf8(out.stdout).unwrap()
        };
        let base = run("baseline");
        let avx = run("x86-64-v3");
        assert!(base.lines().count() > 100, "{base}");
        assert_eq!(
            base, avx,
            "the AVX object's rows differ from the baseline's"
        );
        let _ = std::fs::remove_dir_all(&work);
    }
}

/// `when terminal()` in an object (3.7.4.2): after the last step the harness calls
/// `rtc_events_terminal`, the instant at which terminal() is true, and checks the assertions
/// (`tests/models/TerminalAssert.mo`: an assert in `when terminal()` that the run took enough
/// samples). Needing 3 of its 4 samples it passes, with rows bitwise those of `rtc run`;
/// needing 5 it fails after the last row, as `rtc run` does, with the assertion's message.
/// Before, `rtc compile` refused `when terminal()`.
#[test]
fn terminal_actions_run_at_the_end_of_an_object_run() {
    let work = temp("terminal-object");
    let name = "TerminalAssert";
    let text = std::fs::read_to_string(root().join("tests/models/TerminalAssert.mo")).unwrap();
    for need in [3, 5] {
        let dir = work.join(format!("need{need}"));
        std::fs::create_dir_all(&dir).unwrap();
        let model = dir.join(format!("{name}.mo"));
        std::fs::write(&model, text.replace("need = 3", &format!("need = {need}"))).unwrap();
        let exe = host_harness(&model, name, "--method fe --step 0.25", &dir.join("build"));
        let out = Command::new(&exe).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let csv = dir.join("jit.csv");
        let run = fe_run(&model, "0.25", &csv);
        let run_err = String::from_utf8_lossy(&run.stderr);
        let obj = String::from_utf8(out.stdout).unwrap();
        let jit = std::fs::read_to_string(&csv).unwrap();
        assert_eq!(compare(name, &jit, &obj), 0.0);
        if need == 3 {
            assert!(out.status.success(), "{err}");
            assert!(run.status.success(), "{run_err}");
        } else {
            assert_eq!(out.status.code(), Some(2), "{err}");
            assert!(
                err.contains("the run reached t = 1, and then its terminal() actions failed")
                    && err.contains("not enough samples"),
                "{err}"
            );
            assert_eq!(run.status.code(), Some(2), "{run_err}");
            assert!(run_err.contains("not enough samples"), "{run_err}");
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}
