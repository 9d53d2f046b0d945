//! External C functions: a shared library built from `tests/models/external/funcs.c` is loaded
//! (as `rtc run --link` does); the interpreter and the JIT call it and agree bitwise, backward
//! Euler through it (Jacobian by central differences) matches the exact discrete solution, a
//! missing library is a located error, and `rtc compile` leaves the functions as undefined
//! symbols listed in the header and the JSON.

use crate::common;

use rtc::codegen::jit;
use rtc::flatten::Options;
use rtc::pipeline::{check_source, Method};
use rtc::plan::interp::Interp;
use rtc::plan::Status;
use std::path::PathBuf;
use std::process::Command;

/// Builds the test library with the system C compiler (`None` without one, outside CI).
fn library() -> Option<PathBuf> {
    let dir = std::env::temp_dir().join(format!("rtc-external-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let so = dir.join("libfuncs.so");
    let src = common::repo_root().join("tests/models/external/funcs.c");
    let ok = Command::new("cc")
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&so)
        .arg(&src)
        .arg("-lm")
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(std::env::var("CI").is_err(), "CI needs a C compiler (cc)");
        eprintln!("skipped: no C compiler");
        return None;
    }
    Some(so)
}

fn rtc(args: &[&str]) -> (i32, String, String) {
    rtc_env(args, &[])
}

#[test]
fn external_c_functions_run_and_match_the_exact_discrete_solution() {
    let Some(so) = library() else { return };
    // Without the library: a diagnostic, exit code 1.
    let (code, _, err) = rtc(&["run", "tests/models/ExternalSat.mo", "--stop", "0.01"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("rtc_test_sat") && err.contains("--link"),
        "{err}"
    );
    // With it, through the CLI.
    let so_s = so.to_str().unwrap();
    let (code, out, err) = rtc(&[
        "run",
        "tests/models/ExternalSat.mo",
        "--link",
        so_s,
        "--stop",
        "2",
        "--interval",
        "1",
        "--vars",
        "x,r",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 4, "{out}");

    // In process: interpreter and JIT bit for bit, and the exact discrete solution.
    rtc::symbolic::external::load_library(&so).expect("dlopen");
    let path = common::repo_root().join("tests/models/ExternalSat.mo");
    let text = std::fs::read_to_string(&path).unwrap();
    let c = check_source("ExternalSat.mo", &text, &Options::default());
    let model = c.model.expect("checks");
    let plan = rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(&Method::BackwardEuler))
        .expect("plan")
        .plan;
    let mut it = Interp::new(&plan);
    let code = jit(&plan, false).expect("jit");
    let (mut a, mut b) = (it.memory(), code.memory());
    assert_eq!(it.init(&mut a, 0.0), Status::Ok);
    assert_eq!(code.init(&mut b, 0.0), Status::Ok);
    let x = plan.vars.iter().position(|v| v.name == "x").unwrap();
    let rv = plan.vars.iter().position(|v| v.name == "r").unwrap();
    let h = 1e-3;
    let mut exact = 2.0f64;
    let mut worst = 0.0f64;
    for k in 0..2000 {
        let t = k as f64 * h;
        assert_eq!(it.step(&mut a, t, h), Status::Ok);
        assert_eq!(code.step(&mut b, t, h), Status::Ok);
        for i in 0..plan.vars.len() {
            assert_eq!(
                a[i].to_bits(),
                b[i].to_bits(),
                "step {k}, {}",
                plan.vars[i].name
            );
        }
        // x = x_k - h*sat(x): on the upper branch while the result stays above 1.
        exact = if exact - h > 1.0 {
            exact - h
        } else {
            exact / (1.0 + h)
        };
        worst = worst.max((a[x] - exact).abs());
        assert_eq!(a[rv], a[x].abs());
    }
    // Newton stops at its tolerance (relative 1e-10 of the scaled residual), so the BE
    // solution matches the exact recursion to about that, accumulated over 2000 steps.
    assert!(worst < 1e-8, "{worst}");
}

#[test]
fn objects_leave_external_functions_undefined() {
    let dir = std::env::temp_dir().join(format!("rtc-external-obj-{}", std::process::id()));
    let dir_s = dir.to_str().unwrap();
    let (code, _, err) = rtc(&["compile", "tests/models/ExternalSat.mo", "-o", dir_s]);
    assert_eq!(code, 0, "{err}");
    let header = std::fs::read_to_string(dir.join("ExternalSat.h")).unwrap();
    assert!(header.contains("double rtc_test_sat(double);"), "{header}");
    assert!(
        header.contains("double rtc_test_hyp(double, double);"),
        "{header}"
    );
    let json = std::fs::read_to_string(dir.join("ExternalSat.json")).unwrap();
    assert!(
        json.contains("{\"name\": \"rtc_test_sat\", \"arguments\": 1}"),
        "{json}"
    );
    if let Ok(out) = Command::new("nm").arg(dir.join("ExternalSat.o")).output() {
        let syms = String::from_utf8_lossy(&out.stdout);
        assert!(
            syms.lines()
                .any(|l| l.trim_start().starts_with("U ") && l.ends_with("rtc_test_sat")),
            "{syms}"
        );
    }
}

/// `rtc run` with `RTC_CACHE_DIR` (and `CC`) set.
fn rtc_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rtc"));
    cmd.args(args).current_dir(common::repo_root());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("rtc runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A test's cache folder, removed when the test ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("rtc-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        Scratch(d)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }

    /// `rtc CMD --lib tests/clib/ExtKinds MODEL ARGS…` with this cache.
    fn kinds(&self, cmd: &str, model: &str, args: &[&str]) -> (i32, String, String) {
        let mut all = vec![cmd, "--lib", "tests/clib/ExtKinds", model];
        all.extend_from_slice(args);
        rtc_env(&all, &[("RTC_CACHE_DIR", self.path())])
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A library's C code built from its resources (`tests/clib/ExtPoly`): `Library =
/// "ExtPolySrc"` from `Resources/C-Sources/ExtPolySrc.c`, and a function defined by the C
/// text of its `Include` (a header in `Resources/Include`, part of the shims' unit), compiled
/// into the cache on the first run and taken from it on the second; y = poly(x) + twice(x) = x^3 to rounding, at
/// every row. Without a compiler, a located error and nothing cached; a library found
/// nowhere, a located error naming the places looked at.
#[test]
fn library_sources_are_compiled_cached_and_loaded() {
    if library().is_none() {
        return;
    }
    let cache = Scratch::new("clib");
    let c = cache.path();
    let args = [
        "run",
        "--lib",
        "tests/clib/ExtPoly",
        "ExtPoly.Example",
        "--vars",
        "x,y",
    ];
    let (code, out, err) = rtc_env(&args, &[("RTC_CACHE_DIR", c)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("`ExtPolySrc`: compiled with")
            && err.contains("the C shims of 2 external calls: compiled with"),
        "{err}"
    );
    let mut rows = 0;
    for line in out.lines().skip(1) {
        let v: Vec<f64> = line.split(',').map(|s| s.parse().unwrap()).collect();
        assert!((v[2] - v[1].powi(3)).abs() < 1e-15, "{line}");
        rows += 1;
    }
    assert_eq!(rows, 11, "{out}");
    let (code, out2, err) = rtc_env(&args, &[("RTC_CACHE_DIR", c)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("`ExtPolySrc`: compiled before, from the cache"),
        "{err}"
    );
    assert_eq!(out, out2);
    // No compiler: a located error, nothing cached.
    let fresh = cache.0.join("fresh");
    let (code, _, err) = rtc_env(
        &[
            "run",
            "--lib",
            "tests/clib/ExtPoly",
            "ExtPoly.Example",
            "--short-diagnostics",
        ],
        &[
            ("RTC_CACHE_DIR", fresh.to_str().unwrap()),
            ("CC", "/nonexistent/cc"),
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("package.mo:5:5: error[external]: no C compiler to build rtc's ModelicaUtilities callbacks"),
        "{err}"
    );
    assert!(!fresh.exists());
    // Found nowhere.
    let (code, _, err) = rtc_env(
        &[
            "run",
            "--lib",
            "tests/clib/ExtPoly",
            "ExtPoly.Missing",
            "--short-diagnostics",
        ],
        &[("RTC_CACHE_DIR", c)],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "error[external]: external function `ext_missing` is not defined by its libraries"
        ) && err.contains("Resources/C-Sources/NoSuchLibrary.c"),
        "{err}"
    );
}

/// Every argument kind of the C mapping through rtc's shims (`tests/clib/ExtKinds`): Integer
/// arrays in and out and a Real through a pointer (a generator's state, advanced at each
/// sample: the row at t = 0.25 k holds k + 1 ticks, the first right after initialisation),
/// a Real array with its size as `size_t`, a String literal, a Boolean in and an Integer
/// matrix out, a call made for its effect alone ordered before the call that reads it; each
/// value checked against the same arithmetic done here. A `ModelicaError` (through
/// `ModelicaFormatError`) stops the run at its step with the function's message.
#[test]
fn every_argument_kind_goes_through_a_shim() {
    if library().is_none() {
        return;
    }
    let cache = Scratch::new("kinds");
    let (code, out, err) = cache.kinds(
        "run",
        "ExtKinds.Example",
        &[
            "--no-event-rows",
            "--vars",
            "x,w,o,r,state[1],state[2],seed,mSum",
        ],
    );
    assert_eq!(code, 0, "{err}");
    // hash("rtc") and matrix(true) are known when compiled: evaluated then (by their shims).
    assert!(err.contains("the C shims of 4 external calls"), "{err}");
    let djb2 = |s: &str| {
        let mut h: u32 = 5381;
        for b in s.bytes() {
            h = h.wrapping_mul(33).wrapping_add(b as u32);
        }
        (h & 0x7fff_ffff) as f64
    };
    let (mut a, mut b) = (1u32, 2u32);
    let mut rows = 0;
    for line in out.lines().skip(1) {
        let v: Vec<f64> = line.split(',').map(|s| s.parse().unwrap()).collect();
        a = a.wrapping_mul(1_103_515_245).wrapping_add(12345);
        b ^= a >> 7;
        let r = ((a >> 8) as f64 + 1.0) / 16_777_216.0;
        assert!((v[2] - 7.0 * v[1]).abs() <= 1e-15 * v[2].abs(), "{line}");
        assert_eq!(v[3], 0.25, "{line}");
        assert_eq!(v[4], r, "{line}");
        assert_eq!((v[5], v[6]), (a as i32 as f64, b as i32 as f64), "{line}");
        assert_eq!(v[7], djb2("rtc"), "{line}");
        assert_eq!(v[8], 1324.0, "{line}");
        rows += 1;
    }
    assert_eq!(rows, 5, "{out}");
    let (code, _, err) = cache.kinds("run", "ExtKinds.Failing", &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("rtc: run stopped at t = 0.6: the external C function `kinds_checked` raised an error: x = 0.6 exceeds the limit 0.5"),
        "{err}"
    );
}

/// Records passed to C functions by reference (12.9.1.3, `tests/clib/ExtKinds` `Records`):
/// a struct of the components in declaration order, a nested record a nested struct (the
/// `int` after a `double` padded as C pads it), a String component a `const char*`; a record
/// the library writes read back component by component, one with a value before the call
/// (an output with a binding) passed in with it. Every value against what the C computes:
/// y = k x n + a + strlen(tag) = 6x + 4.5, s = (2x + 0.5, 7, (−x, false)), and
/// `accumulate(x, s0)` = (3.5 + x, 8, (−1.5, false)) from s0 = stats(1.5, g), evaluated when
/// the model is compiled.
#[test]
fn records_are_passed_to_c_by_reference() {
    if library().is_none() {
        return;
    }
    let cache = Scratch::new("records");
    let (code, out, err) = cache.kinds(
        "run",
        "ExtKinds.Records",
        &[
            "--no-event-rows",
            "--vars",
            "x,y,s.sum,s.count,s.last.a,s.last.on,t.sum,t.count,t.last.a,s0.sum,s0.count",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let mut rows = 0;
    for line in out.lines().skip(1) {
        let v: Vec<f64> = line.split(',').map(|s| s.parse().unwrap()).collect();
        let x = v[1];
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-14 * b.abs().max(1.0);
        assert!(close(v[2], 6.0 * x + 4.5), "{line}");
        assert!(close(v[3], 2.0 * x + 0.5), "{line}");
        assert_eq!((v[4], v[5], v[6]), (7.0, -x, 0.0), "{line}");
        assert!(close(v[7], 3.5 + x), "{line}");
        assert_eq!((v[8], v[9], v[10], v[11]), (8.0, -1.5, 3.5, 7.0), "{line}");
        rows += 1;
    }
    assert_eq!(rows, 5, "{out}");
}

/// Calls on arguments known when the model is compiled are evaluated then
/// (`tests/clib/ExtKinds`): a String result (allocated by the library with
/// `ModelicaAllocateString`) passed on to another call, and a result that sizes an array. A
/// call made for its effect under a condition is made only where the condition holds (the
/// shim's last input), here a stored offset set at the samples after t = 0.3 and read back at
/// samples 0.1 s later; its impure state means no step-halving check (said in a note).
#[test]
fn known_calls_are_evaluated_when_compiled_and_guarded_effects_follow_their_condition() {
    if library().is_none() {
        return;
    }
    let cache = Scratch::new("known");
    let (code, out, err) = cache.kinds("run", "ExtKinds.Compiled", &["--vars", "v[3],w"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{out}");
    for r in rows {
        assert!(r.ends_with(",4"), "{out}");
    }
    let (code, out, err) = cache.kinds(
        "run",
        "ExtKinds.Guarded",
        &["--no-event-rows", "--vars", "o"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("the step-halving check is not made: the model calls the impure external function `kinds_set_offset`"),
        "{err}"
    );
    let o = |t: f64| -> f64 {
        out.lines()
            .skip(1)
            .map(|l| {
                l.split(',')
                    .map(|s| s.parse::<f64>().unwrap())
                    .collect::<Vec<_>>()
            })
            .find(|v| (v[0] - t).abs() < 1e-9)
            .map(|v| v[1])
            .unwrap()
    };
    // Samples at 0, 0.25 (not set: time <= 0.3), 0.5, 0.75; read at 0.1, 0.35, 0.6, 0.85.
    assert_eq!(o(0.05), -1.0, "{out}");
    assert_eq!(o(0.2), 0.0, "{out}");
    assert_eq!(o(0.45), 0.0, "{out}");
    assert_eq!(o(0.7), 0.5, "{out}");
    assert!((o(0.9) - 0.75).abs() < 1e-15, "{out}");
}

/// `rtc compile --target T` of a model whose step calls C through shims (`ExtKinds.Example`:
/// a random generator's state, a weighted sum, a stored offset) writes `<name>_ext.c` beside
/// the object and builds it, with the library's source, into `lib<name>_ext.a` with T's C
/// compiler; the header gives the link line. Linked with the C harness (`examples/embedded`)
/// for x86-64, AArch64 and RISC-V (the last two under qemu-user, skipped where the cross
/// compiler or qemu is missing), the object's rows equal `rtc run`'s to the bit.
#[test]
fn objects_call_the_shims_from_their_archive_on_three_instruction_sets() {
    if library().is_none() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("rtc-ext-obj-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let c = dir.join("cache");
    let c = c.to_str().unwrap();
    let flags = ["--method", "trapezoid", "--step", "0.25"];
    let mut args = vec!["run", "--lib", "tests/clib/ExtKinds", "ExtKinds.Example"];
    args.extend(flags);
    args.extend(["--no-event-rows", "--no-check", "--interval", "0.25"]);
    let (code, jit, err) = rtc_env(&args, &[("RTC_CACHE_DIR", c)]);
    assert_eq!(code, 0, "{err}");
    let table = |s: &str| -> Vec<Vec<String>> {
        s.lines()
            .map(|l| l.split(',').map(|x| x.trim().to_string()).collect())
            .collect()
    };
    let j = table(&jit);
    let root = common::repo_root();
    let platforms: [(&str, &str, &[&str]); 3] = [
        ("x86_64-unknown-linux-gnu", "cc", &[]),
        (
            "aarch64-unknown-linux-gnu",
            "aarch64-linux-gnu-gcc",
            &["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"],
        ),
        (
            "riscv64gc-unknown-linux-gnu",
            "riscv64-linux-gnu-gcc",
            &["qemu-riscv64", "-L", "/usr/riscv64-linux-gnu"],
        ),
    ];
    let have = |tool: &str| Command::new(tool).arg("--version").output().is_ok();
    let mut ran = 0;
    for (triple, cc, exec) in platforms {
        if !have(cc) || exec.first().is_some_and(|e| !have(e)) {
            eprintln!("{triple}: skipped, `{cc}` or qemu-user is not installed");
            continue;
        }
        let d = dir.join(triple);
        let ds = d.to_str().unwrap();
        let mut args = vec![
            "compile",
            "--lib",
            "tests/clib/ExtKinds",
            "ExtKinds.Example",
        ];
        args.extend(flags);
        args.extend(["--name", "ExtKinds", "--target", triple, "-o", ds]);
        let (code, _, err) = rtc_env(&args, &[("RTC_CACHE_DIR", c)]);
        assert_eq!(code, 0, "{err}");
        let ext = std::fs::read_to_string(d.join("ExtKinds_ext.c")).unwrap();
        assert!(ext.contains("ExtKindsSrc (sources in"), "{ext}");
        let header = std::fs::read_to_string(d.join("ExtKinds.h")).unwrap();
        assert!(
            header.contains(&format!("{cc} app.c ExtKinds.o libExtKinds_ext.a -lm")),
            "{header}"
        );
        let exe = d.join("run");
        let out = Command::new(cc)
            .args(["-O2", "-ffp-contract=off", "-I", ds])
            .arg("-DRTC_MODEL_HEADER=\"ExtKinds.h\"")
            .arg(root.join("examples/embedded/harness.c"))
            .arg(root.join("examples/embedded/rtc_events.c"))
            .arg(d.join("ExtKinds.o"))
            .arg(d.join("libExtKinds_ext.a"))
            .args(["-lm", "-o"])
            .arg(&exe)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{triple}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut cmd = match exec.split_first() {
            Some((e, rest)) => {
                let mut cmd = Command::new(e);
                cmd.args(rest).arg(&exe);
                cmd
            }
            None => Command::new(&exe),
        };
        let obj = cmd.args(["--stop", "1", "--every", "1"]).output().unwrap();
        assert_eq!(
            obj.status.code(),
            Some(0),
            "{triple}: {}",
            String::from_utf8_lossy(&obj.stderr)
        );
        let obj = String::from_utf8(obj.stdout).unwrap();
        // The object's columns are the model's outputs; each equals the JIT's column.
        let o = table(&obj);
        assert_eq!(o.len(), j.len(), "{triple}: {obj}\n{jit}");
        for (k, name) in o[0].iter().enumerate() {
            let Some(m) = j[0].iter().position(|n| n == name) else {
                continue;
            };
            for (ro, rj) in o.iter().zip(&j).skip(1) {
                let (a, b): (f64, f64) = (ro[k].parse().unwrap(), rj[m].parse().unwrap());
                assert_eq!(a.to_bits(), b.to_bits(), "{triple} {name}: {obj}\n{jit}");
            }
        }
        assert!(o[0].len() > 3, "{obj}");
        ran += 1;
    }
    assert!(ran >= 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An external object (12.9.7, `tests/clib/ExtKinds` `Poly`): the library's constructor
/// called with the model's coefficients when the model is compiled, its lookup called at
/// every step with the object's address (y = 1 + 2x + 3x², Horner's rule in C and here), the
/// destructor called once when the run ends. `rtc compile` refuses it (the address is this
/// process's).
#[test]
fn external_objects_are_constructed_called_and_destroyed() {
    if library().is_none() {
        return;
    }
    let cache = Scratch::new("object");
    let (code, out, err) = cache.kinds("run", "ExtKinds.Object", &["--vars", "x,y"]);
    assert_eq!(code, 0, "{err}");
    let mut rows = 0;
    for line in out.lines().skip(1) {
        let v: Vec<f64> = line.split(',').map(|s| s.parse().unwrap()).collect();
        assert_eq!(v[2], (3.0 * v[1] + 2.0) * v[1] + 1.0, "{line}");
        rows += 1;
    }
    assert_eq!(rows, 5, "{out}");
    assert_eq!(err.matches("kinds: polynomial freed").count(), 1, "{err}");
    // In an object the polynomial is made again by `Object_ext_init()` (the harness calls it
    // before init) and the step's calls find it by the address rtc run's step carries: every
    // value bitwise equal to rtc run's, and the destructor called once at the end.
    let obj = cache.0.join("obj");
    let (code, _, err) = cache.kinds(
        "compile",
        "ExtKinds.Object",
        &["--name", "Object", "-o", obj.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    let header = std::fs::read_to_string(obj.join("Object.h")).unwrap();
    assert!(header.contains("int Object_ext_init(void);"), "{header}");
    let (_, rows, obj_err) = harness_with_archive(&obj, "Object");
    assert_eq!(
        obj_err.matches("kinds: polynomial freed").count(),
        1,
        "{obj_err}"
    );
    let (code, jit, err) = cache.kinds("run", "ExtKinds.Object", &["--no-event-rows"]);
    assert_eq!(code, 0, "{err}");
    let bits = |csv: &str| -> Vec<Vec<u64>> {
        csv.lines()
            .skip(1)
            .map(|l| {
                l.split(',')
                    .map(|v| v.parse::<f64>().unwrap().to_bits())
                    .collect()
            })
            .collect()
    };
    assert_eq!(bits(&jit), bits(&rows), "{jit}\n{rows}");
}

/// The C harness (`examples/embedded`) built for this machine with the object `name` rtc
/// compiled into `dir` and the archive of its external C code; run: exit code, standard
/// output (the rows), standard error.
fn harness_with_archive(dir: &std::path::Path, name: &str) -> (i32, String, String) {
    let root = common::repo_root();
    let exe = dir.join("run");
    let built = Command::new("cc")
        .args(["-O2", "-ffp-contract=off", "-I", dir.to_str().unwrap()])
        .arg(format!("-DRTC_MODEL_HEADER=\"{name}.h\""))
        .arg(root.join("examples/embedded/harness.c"))
        .arg(root.join("examples/embedded/rtc_events.c"))
        .arg(dir.join(format!("{name}.o")))
        .arg(dir.join(format!("lib{name}_ext.a")))
        .args(["-lm", "-o"])
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let ran = Command::new(&exe).output().unwrap();
    let err = String::from_utf8_lossy(&ran.stderr).into_owned();
    assert!(ran.status.success(), "{err}");
    (
        ran.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&ran.stdout).into_owned(),
        err,
    )
}

/// The `derivative` annotations of external functions (12.7.1, `tests/clib/ExtKinds`
/// `Prescribed`): a mass moved along s = p(x(t)) needs s'' for its force, which index
/// reduction gets by differentiating the library's call twice. With `polyDer` and its
/// `derivative(order = 2)` `polyDer2` the force is the library's exact
/// m (p''(x) ẋ² + p'(x) ẍ), ẋ = 1 - x, ẍ = -ẋ, to rounding (1e-13 relative, a few
/// operations); without them (`PrescribedDifferenced`) rtc differentiates by central
/// differences, warns, and is off by about 1e-6.
#[test]
fn derivative_annotations_of_external_functions_are_the_librarys_derivatives() {
    if library().is_none() {
        return;
    }
    let cache = Scratch::new("der");
    let c = cache.path();
    let worst = |model: &str| {
        let (code, out, err) = rtc_env(
            &[
                "run",
                "--lib",
                "tests/clib/ExtKinds",
                model,
                "--no-event-rows",
                "--vars",
                "x,f",
            ],
            &[("RTC_CACHE_DIR", c)],
        );
        assert_eq!(code, 0, "{err}");
        let mut worst: f64 = 0.0;
        let mut rows = 0;
        for line in out.lines().skip(1) {
            let v: Vec<f64> = line.split(',').map(|s| s.parse().unwrap()).collect();
            let x = v[1];
            let d1 = 2.0 + 6.0 * x + 12.0 * x * x;
            let d2 = 6.0 + 24.0 * x;
            let dx = 1.0 - x;
            let f = 2.0 * (d2 * dx * dx - d1 * dx);
            worst = worst.max(((v[2] - f) / f).abs());
            rows += 1;
        }
        assert_eq!(rows, 5, "{out}");
        (worst, err)
    };
    let (exact, err) = worst("ExtKinds.Prescribed");
    assert!(exact <= 1e-13, "{exact:e}\n{err}");
    assert!(!err.contains("central differences"), "{err}");
    let (differenced, err) = worst("ExtKinds.PrescribedDifferenced");
    assert!(differenced > 1e-9, "{differenced:e}");
    assert!(
        err.contains("differentiate the external function `kinds_poly_eval`, which rtc does by central differences"),
        "{err}"
    );
}

/// `when terminal()` (3.7.4.2, `tests/clib/ExtKinds` `Final`): its actions run once, after
/// the last step: the library reports the state's last value (the last row's `x`, to the
/// bit) and the sample counter after the terminal instant's own increment (4 samples up to
/// t = 1, then 5); an object's harness makes the same instant after its last step.
#[test]
fn terminal_actions_run_once_after_the_last_step() {
    if library().is_none() {
        return;
    }
    let cache = Scratch::new("terminal");
    let (code, out, err) = cache.kinds(
        "run",
        "ExtKinds.Final",
        &["--no-event-rows", "--vars", "x,n"],
    );
    assert_eq!(code, 0, "{err}");
    let last: Vec<&str> = out.lines().last().unwrap().split(',').collect();
    assert_eq!((last[0], last[2]), ("1", "4"), "{out}");
    let x: f64 = last[1].parse().unwrap();
    let reports: Vec<f64> = err
        .lines()
        .filter_map(|l| l.strip_prefix("kinds: report "))
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(reports.len(), 2, "{err}");
    assert_eq!(reports[0].to_bits(), x.to_bits(), "{err}");
    assert_eq!(reports[1], 5.0, "{err}");
    // An object makes the same terminal instant: the harness, linked with the library's
    // archive, calls `rtc_events_terminal` after its last step, and the library reports the
    // same two values, to the bit.
    let obj = cache.0.join("obj");
    let (code, _, err) = cache.kinds(
        "compile",
        "ExtKinds.Final",
        &["--name", "Final", "-o", obj.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    let (_, _, obj_err) = harness_with_archive(&obj, "Final");
    let obj_reports: Vec<f64> = obj_err
        .lines()
        .filter_map(|l| l.strip_prefix("kinds: report "))
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(
        obj_reports.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        reports.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        "{obj_err}"
    );
}

/// Strings made while the model runs (3.7.1.2, `tests/clib/ExtKinds` `Formatted`): each
/// sample passes `"t=" + String(time) + …` to the library, the shim formatting every value as
/// the options say (six significant digits by default, `significantDigits`, a right-justified
/// minimum length, a Boolean padded, a `format` conversion, `%` as text), from the values the
/// run records.
#[test]
fn strings_made_while_the_model_runs_reach_the_library() {
    if library().is_none() {
        return;
    }
    let cache = Scratch::new("formatted");
    let (code, out, err) = cache.kinds(
        "run",
        "ExtKinds.Formatted",
        &["--no-event-rows", "--vars", "x,n"],
    );
    assert_eq!(code, 0, "{err}");
    let said: Vec<&str> = err
        .lines()
        .filter_map(|l| l.strip_prefix("kinds: say "))
        .collect();
    let rows: Vec<Vec<f64>> = out
        .lines()
        .skip(2)
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(said.len(), 4, "{err}");
    for (line, row) in said.iter().zip(&rows) {
        let (t, x, n) = (row[0], row[1], row[2] as i64);
        // 0.1 <= x < 1 here: ten significant digits are ten decimals.
        let head = format!(
            "t={t} x={x:.10} n={n:>3} big={:<6}| e=",
            if x > 0.5 { "true" } else { "false" }
        );
        assert!(line.starts_with(&head), "{line} / {head}");
        let rest = &line[head.len()..];
        let (e, tail) = rest.split_at(12);
        let e_value: f64 = e.trim().parse().unwrap();
        assert!(
            (e_value - x).abs() < 5e-5 && e.trim().contains("e-01"),
            "{line}"
        );
        assert_eq!(tail, format!(" hex={:x} 100%", 10 * n), "{line}");
    }
}

/// An empty call in a when-equation (12.4.7: a "null equation", the zero-output form of
/// `(out1, …) = f(…)` that 8.3.5.3 allows) is made each time its clause fires, in order with
/// the clause's other equations, and `when terminal()` once at the end.
#[test]
fn empty_calls_in_when_equations_are_made_when_their_clause_fires() {
    if library().is_none() {
        return;
    }
    let cache = Scratch::new("said-in-equations");
    let (code, out, err) = cache.kinds("run", "ExtKinds.SaidInEquations", &["--vars", "n"]);
    assert_eq!(code, 0, "{err}");
    let said: Vec<&str> = err
        .lines()
        .filter_map(|l| l.strip_prefix("kinds: say "))
        .collect();
    assert_eq!(
        said,
        [
            "tick 1 t=0.25",
            "tick 2 t=0.5",
            "tick 3 t=0.75",
            "tick 4 t=1",
            "end"
        ],
        "{err}"
    );
    assert_eq!(common::last_value(&out, 1), 4.0, "{out}");
}

/// `rtc analyze` lists the step's external calls with what is known of their work, and the
/// work bound counts them (`tests/clib/ExtKinds` `Example`: `weighted` in every evaluation
/// of the step, `lcg` and `offset` at the sample events).
#[test]
fn the_work_bound_counts_the_external_calls() {
    if library().is_none() {
        return;
    }
    let cache = Scratch::new("cost");
    let (code, out, err) = cache.kinds("analyze", "ExtKinds.Example", &[]);
    assert_eq!(code, 0, "{err}");
    // The libraries are built and loaded as for `rtc run`: the method's choice evaluates the
    // calls (without them it read NaN and could not linearise).
    assert!(err.contains("the C shims of"), "{err}");
    assert!(
        !err.contains("non-finite") && !err.contains("not checked"),
        "{err}"
    );
    let bound = out
        .lines()
        .find(|l| l.contains("work bound per step:"))
        .unwrap_or_else(|| panic!("{out}"));
    let calls: u64 = bound
        .split(" external C calls")
        .next()
        .and_then(|h| h.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{bound}"));
    assert!(calls >= 1, "{bound}");
    let weighted = out
        .lines()
        .find(|l| l.trim_start().starts_with("kinds_weighted"))
        .unwrap_or_else(|| panic!("{out}"));
    // u and w (two each) and size(u, 1) in, the result out.
    assert!(
        weighted.ends_with("the C code's own work (5 numbers in: arrays of 2, 2; 1 number out)"),
        "{weighted}"
    );
    assert!(
        out.lines()
            .any(|l| l.contains("kinds_offset") && l.contains("(impure")),
        "{out}"
    );
}

/// A call with more arguments than the JIT keeps in registers (`tests/clib/ExtKinds`
/// `Wide`: 40 values and 40 weights): each argument is stored as it is computed, and the
/// call is made once for the expressions that read it; y = time·n(n + 1)/2 exactly.
#[test]
fn wide_calls_pass_every_argument() {
    if library().is_none() {
        return;
    }
    let cache = Scratch::new("wide");
    let (code, out, err) = cache.kinds("run", "ExtKinds.Wide", &["--vars", "y,z"]);
    assert_eq!(code, 0, "{err}");
    for row in out.lines().skip(1) {
        let v: Vec<f64> = row.split(',').map(|x| x.parse().unwrap()).collect();
        assert_eq!(v[1], v[0] * 820.0, "{row}");
        assert_eq!(v[2], 2.0 * v[1], "{row}");
    }
}

/// Without the target's C compiler, `rtc compile` of a model whose step calls C stops with a
/// located error that names what to install (and writes nothing half-built).
#[test]
fn a_missing_cross_compiler_is_a_located_error() {
    if library().is_none() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("rtc-nocc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let c = dir.join("cache");
    let (code, _, err) = rtc_env(
        &[
            "compile",
            "--lib",
            "tests/clib/ExtKinds",
            "ExtKinds.Example",
            "--target",
            "aarch64-unknown-linux-gnu",
            "-o",
            dir.join("out").to_str().unwrap(),
        ],
        &[
            ("RTC_CACHE_DIR", c.to_str().unwrap()),
            ("CC_aarch64_unknown_linux_gnu", "/nonexistent/gcc"),
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("no C compiler for aarch64-unknown-linux-gnu")
            && err.contains("apt install gcc-aarch64-linux-gnu")
            && err.contains("package.mo:"),
        "{err}"
    );
    assert!(!dir.join("out/libExtKinds_ext.a").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
