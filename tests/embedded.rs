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
    let harness = root().join("examples/embedded");
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
            let name = c.file.trim_end_matches(".mo");
            let model = root().join("examples").join(c.file);
            let what = format!("{name} on {}", p.triple);
            // The reference: the JIT in process, every step recorded.
            let reference = work.join(format!("{name}.jit.csv"));
            let step = c
                .flags
                .iter()
                .position(|f| *f == "--step")
                .map(|k| c.flags[k + 1])
                .expect("a step");
            let mut run = Command::new(RTC);
            run.arg("run")
                .args(["--interval", step])
                .arg(&model)
                .args(c.flags)
                .args(["--stop", c.stop, "--out"])
                .arg(&reference);
            if let Some(i) = c.inputs {
                run.arg("--inputs").arg(root().join("examples").join(i));
            }
            let out = run.output().unwrap();
            assert!(
                out.status.success(),
                "{what}: rtc run: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            // The object through the harness's Makefile.
            let build = work.join(p.triple).join(name);
            let exe = build.join("run");
            let out = Command::new("make")
                .arg("-s")
                .arg("-C")
                .arg(&harness)
                .arg(format!("MODEL={}", model.display()))
                .arg(format!("NAME={name}"))
                .arg(format!("RTCFLAGS={}", c.flags.join(" ")))
                .arg(format!("TARGET={}", p.triple))
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
            let jit = std::fs::read_to_string(&reference).unwrap();
            let obj = String::from_utf8(out.stdout).unwrap();
            let worst = compare(&what, &jit, &obj);
            eprintln!("{what}: largest relative difference to the JIT {worst:e}");
            ran += 1;
        }
    }
    assert!(ran >= CASES.len(), "at least the host target must run");
    let _ = std::fs::remove_dir_all(&work);
}
