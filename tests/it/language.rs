//! Language tests: each `tests/language/X.mo` exercises one construct (its specification
//! section in the file's comment). The model must check; it runs with the method and step of
//! its `// run:` line, the interpreter and the JIT must agree bitwise at every step, and the
//! values at the stop time must equal the `// expect: name value` lines. The expected values
//! are worked out by hand from the model (each file's outputs are exact at the stop time for
//! its step: polynomials of time that the method integrates exactly, or constants), so the
//! tolerance is a few ulps of the value.

use crate::common;

use rtc::codegen::jit;
use rtc::flatten::Options;
use rtc::pipeline::{check_source, Method};
use rtc::plan::interp::Interp;
use rtc::plan::Status;
use rtc::sim::RunSettings;

struct Case {
    method: Method,
    step: f64,
    stop: f64,
    expect: Vec<(String, f64)>,
}

fn case(text: &str, file: &str) -> Case {
    let mut c = Case {
        method: Method::BackwardEuler,
        step: 0.1,
        stop: 1.0,
        expect: Vec::new(),
    };
    for line in text.lines() {
        if let Some(run) = line.strip_prefix("// run:") {
            for kv in run.split_whitespace() {
                let (k, v) = kv.split_once('=').unwrap_or_else(|| panic!("{file}: {kv}"));
                match k {
                    "method" => {
                        let choice = rtc::pipeline::MethodChoice {
                            method: v.parse().unwrap_or_else(|d: Box<rtc::diag::Diagnostic>| {
                                panic!("{file}: {}", d.message)
                            }),
                            ..Default::default()
                        };
                        c.method = rtc::pipeline::parse_method(&choice)
                            .unwrap_or_else(|d| panic!("{file}: {}", d.message))
                    }
                    "step" => c.step = v.parse().unwrap(),
                    "stop" => c.stop = v.parse().unwrap(),
                    _ => panic!("{file}: unknown run key {k}"),
                }
            }
        }
        if let Some(e) = line.strip_prefix("// expect:") {
            let mut it = e.split_whitespace();
            let name = it.next().unwrap().to_string();
            let value: f64 = it.next().unwrap().parse().unwrap();
            c.expect.push((name, value));
        }
    }
    assert!(!c.expect.is_empty(), "{file}: no `// expect:` lines");
    c
}

#[test]
fn language_constructs_check_run_and_agree() {
    let dir = common::repo_root().join("tests/language");
    let files = common::files(&dir, "mo");
    assert!(files.len() >= 6);
    let mut failures = Vec::new();
    for path in &files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let c = case(&text, &file);
        let checked = check_source(&file, &text, &Options::default());
        let diags = checked.short_diagnostics();
        let Some(model) = checked.model else {
            failures.push(format!("{file}: does not check: {diags:?}"));
            continue;
        };
        // The step the plan is built for, as the command line gives it (delays need it).
        let settings = rtc::pipeline::Settings::of(&c.method).step(Some(c.step));
        let plan = match rtc::pipeline::plan(&model, &settings) {
            Ok(p) => p.plan,
            Err(d) => {
                failures.push(format!("{file}: {}", d.message));
                continue;
            }
        };
        // Interpreter and JIT, step by step, bit for bit.
        let mut it = Interp::new(&plan);
        let code = jit(&plan, false).unwrap_or_else(|e| panic!("{file}: {e}"));
        let (mut a, mut b) = (it.memory(), code.memory());
        assert_eq!(it.init(&mut a, 0.0), code.init(&mut b, 0.0), "{file}: init");
        let steps = (c.stop / c.step).round() as usize;
        for k in 0..steps {
            let t = k as f64 * c.step;
            let (sa, sb) = (it.step(&mut a, t, c.step), code.step(&mut b, t, c.step));
            assert_eq!(sa, sb, "{file}: status at step {k}");
            assert_eq!(sa, Status::Ok, "{file}: step {k}");
            for (i, v) in plan.vars.iter().enumerate() {
                assert!(
                    a[i].to_bits() == b[i].to_bits() || (a[i].is_nan() && b[i].is_nan()),
                    "{file}: step {k}, `{}`: interpreter {} vs JIT {}",
                    v.name,
                    a[i],
                    b[i]
                );
            }
        }
        // The values at the stop time, with events handled as `rtc run` handles them.
        let names: Vec<String> = c.expect.iter().map(|(n, _)| n.clone()).collect();
        let settings = RunSettings {
            start: 0.0,
            stop: c.stop,
            step: c.step,
            every: steps,
            ..Default::default()
        };
        let (tr, failure, _) = match rtc::sim::trajectory_with_events(&plan, &settings, &names) {
            Ok(r) => r,
            Err(d) => {
                failures.push(format!("{file}: {}", d.message));
                continue;
            }
        };
        assert!(failure.is_none(), "{file}: {failure:?}");
        let last = tr.values.last().unwrap();
        for ((name, want), got) in c.expect.iter().zip(last) {
            if (got - want).abs() > 4.0 * f64::EPSILON * want.abs().max(1.0) {
                failures.push(format!("{file}: {name} = {got}, expected {want}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
