//! Differential tests: the JIT-compiled step function against the plan interpreter, over many
//! steps, for every example and method. They agree bitwise: the lowering performs the same
//! operations in the same order with the same libm functions and LU.

use crate::common;

use rtc::codegen::jit;
use rtc::pipeline::Method;
use rtc::plan::interp::Interp;
use rtc::plan::Status;

fn differential(file: &str, method: Method, h: f64, steps: usize, newton: u32) {
    differential_with(file, method, &[], h, steps, newton);
}

fn differential_with(
    file: &str,
    method: Method,
    params: &[(&str, f64)],
    h: f64,
    steps: usize,
    newton: u32,
) -> Status {
    let times: Vec<(f64, f64)> = (0..steps).map(|k| (k as f64 * h, h)).collect();
    differential_over(file, method, params, &times, newton)
}

/// [`differential_with`] over given steps (start, length).
fn differential_over(
    file: &str,
    method: Method,
    params: &[(&str, f64)],
    times: &[(f64, f64)],
    newton: u32,
) -> Status {
    let plan = common::compile_example(file, method.clone(), params, newton);
    let mut it = Interp::new(&plan);
    let code = jit(&plan, false).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut a = it.memory();
    let mut b = code.memory();
    let sa = it.init(&mut a, 0.0);
    let sb = code.init(&mut b, 0.0);
    assert_eq!(sa, sb, "{file} {method:?}: init status");
    let n = plan.vars.len();
    for (k, &(t, h)) in times.iter().enumerate() {
        let sa = it.step(&mut a, t, h);
        let sb = code.step(&mut b, t, h);
        assert_eq!(sa, sb, "{file} {method:?}: status at step {k}");
        for i in 0..n {
            assert!(
                a[i].to_bits() == b[i].to_bits() || (a[i].is_nan() && b[i].is_nan()),
                "{file} {method:?}: step {k}, `{}`: interpreter {} vs JIT {}",
                plan.vars[i].name,
                a[i],
                b[i]
            );
        }
        if sa != Status::Ok {
            return sa;
        }
    }
    Status::Ok
}

/// Finite values whose finiteness sum overflows: the JIT looks at each value, finds none
/// non-finite and goes on (as the interpreter does); a state that overflows later is named.
#[test]
fn overflowing_sum_of_finite_values_is_not_divergence() {
    let m = "../tests/models/BigValues.mo";
    let s = differential_with(m, Method::ForwardEuler, &[("g", 0.0)], 1e-3, 20, 10);
    assert_eq!(s, Status::Ok);
    let s = differential_with(m, Method::ForwardEuler, &[], 1e-3, 20, 10);
    assert!(matches!(s, Status::NonFinite { .. }), "{s:?}");
}

/// A value that overflows while every value computed from it stays finite (read only as a
/// denominator and in a comparison) is still found: the JIT sums it (values read by a later
/// one through sums, products and numerators only are left to that one), stops at the step
/// the interpreter stops and names the same variable.
#[test]
fn hidden_non_finite_values_are_found() {
    let m = "../tests/models/HiddenNonFinite.mo";
    let s = differential_with(m, Method::ForwardEuler, &[], 0.1, 100, 10);
    let plan = common::compile_example(m, Method::ForwardEuler, &[], 10);
    match s {
        Status::NonFinite { var } => assert_eq!(plan.vars[var.index()].name, "w"),
        other => panic!("{other:?}"),
    }
}

/// The line's states are read by the derivatives through sums, products and numerators, so
/// their updates add nothing to the finiteness sums: the state-update loop carries no sum,
/// the derivatives' loops do (one addition per state and step).
#[test]
fn values_a_later_value_shows_are_not_summed() {
    let plan = common::compile_example("VdPLine.mo", Method::ForwardEuler, &[("n", 50.0)], 10);
    let code = jit(&plan, true).unwrap();
    let step = step_chunks(&code.clif);
    let heads: Vec<&str> = step
        .lines()
        .filter(|l| l.starts_with("block") && !l.starts_with("block0(") && l.contains(": i64"))
        .collect();
    let bare = heads.iter().filter(|l| !l.contains("f64")).count();
    assert!(bare >= 1, "every loop carries a sum: {heads:?}");
    assert!(bare < heads.len(), "no loop carries a sum: {heads:?}");
}

/// A linear loop whose Jacobian is singular (a zero column): consistent, the free unknown
/// keeps its value and both engines go on alike; inconsistent, both stop on the singular
/// Jacobian at the same step (not at the start, where the equations still agree).
#[test]
fn singular_loops_consistent_or_not() {
    let m = "../tests/models/SingularLoop.mo";
    let s = differential_with(m, Method::BackwardEuler, &[], 1e-2, 20, 10);
    assert_eq!(s, Status::Ok);
    let s = differential_with(m, Method::BackwardEuler, &[("c", 1.0)], 1e-2, 20, 10);
    assert!(matches!(s, Status::Singular { .. }), "{s:?}");
}

/// Diverging large lines: the finiteness sums (added where the values are computed, in
/// vector lanes, carried across chunk functions) stop the JIT at the same step, naming the
/// same variable, as the interpreter's value-by-value check.
#[test]
fn diverging_large_lines_stop_alike() {
    let mixed = Method::Mixed {
        implicit: vec!["u_l".into()],
    };
    for n in [50.0, 500.0] {
        for (method, h) in [(Method::ForwardEuler, 1e-2), (mixed.clone(), 2e-2)] {
            let s = differential_with("VdPLine.mo", method.clone(), &[("n", n)], h, 400, 10);
            assert!(
                matches!(s, Status::NonFinite { .. }),
                "n = {n}, {method:?}: {s:?}"
            );
        }
    }
}

/// The band LU with its window in registers (codegen/band.rs) and the generic routine give
/// the interpreter's `lu_solve` bit for bit — the factors, the solution, the status — on
/// banded matrices built to reach every branch: row exchanges (small diagonals), zero pivot
/// columns (free unknowns, consistent or not), factors that underflow to zero, signed zeros,
/// and non-finite entries.
#[test]
fn band_lu_in_registers_equals_the_interpreter() {
    let plan = common::compile_example("VdPLine.mo", Method::BackwardEuler, &[("n", 5.0)], 10);
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut cases = 0;
    let (mut exchanges, mut free, mut fails) = (0, 0, 0);
    for band in [(1, 1), (1, 3), (2, 2), (2, 4), (3, 5), (4, 5)] {
        let k = rtc::codegen::lu_kernels(&plan, band).unwrap();
        let (kl, w) = band;
        let ku = if w >= kl { w - kl } else { w };
        for n in [kl.max(w) + 4, kl.max(w) + 7, 33] {
            for trial in 0..40 {
                let mut a = vec![0.0; n * n];
                let mut rhs = vec![0.0; n];
                for r in 0..n {
                    for c in r.saturating_sub(kl)..(r + ku + 1).min(n) {
                        let u = (next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
                        a[r * n + c] = match next() % 16 {
                            0 => 0.0,
                            1 => -0.0,
                            // Divided by a pivot of 4 or more, underflows to a zero factor.
                            2 => f64::from_bits(1),
                            3 => 4.0 + u,
                            _ => u,
                        };
                    }
                    rhs[r] = (next() % 1000) as f64 / 100.0 - 5.0;
                }
                match trial % 8 {
                    // A zero column: a free unknown, its row then consistent or not.
                    1 | 2 => {
                        let c = (next() as usize) % n;
                        for r in 0..n {
                            a[r * n + c] = 0.0;
                        }
                    }
                    // Small diagonals: every column exchanges rows.
                    3 | 4 => {
                        for r in 0..n {
                            a[r * n + r] *= 1e-3;
                        }
                    }
                    5 if trial % 16 == 5 => a[(n / 2) * n + n / 2] = f64::NAN,
                    6 if trial % 16 == 6 => a[(n - 1) * n + n - 1] = f64::INFINITY,
                    _ => {}
                }
                let tol = if trial % 3 == 0 { 1e-6 } else { 1e3 };
                let (mut ai, mut bi) = (a.clone(), rhs.clone());
                let ok = rtc::plan::interp::lu_solve(&mut ai, &mut bi, n, band, tol);
                for generic in [false, true] {
                    let (mut aj, mut bj) = (a.clone(), rhs.clone());
                    // SAFETY: n × n and n doubles, as the routines expect.
                    let st = unsafe {
                        if generic {
                            (k.generic)(
                                aj.as_mut_ptr(),
                                bj.as_mut_ptr(),
                                n as i64,
                                kl as i64,
                                w as i64,
                                tol,
                                0,
                            )
                        } else {
                            (k.band)(
                                aj.as_mut_ptr(),
                                bj.as_mut_ptr(),
                                n as i64,
                                kl as i64,
                                w as i64,
                                tol,
                            )
                        }
                    };
                    let what = format!("band {band:?}, n = {n}, trial {trial}, generic {generic}");
                    assert_eq!(st == 1, ok, "{what}");
                    if ok {
                        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                        assert_eq!(bits(&aj), bits(&ai), "{what}: factors");
                        assert_eq!(bits(&bj), bits(&bi), "{what}: solution");
                    }
                }
                cases += 1;
                exchanges += usize::from(trial % 8 == 3 || trial % 8 == 4);
                free += usize::from(ok && ai.iter().step_by(n + 1).any(|&d| d == 0.0));
                fails += usize::from(!ok);
            }
        }
    }
    eprintln!(
        "{cases} matrices: {exchanges} with small diagonals, {free} solved with a free unknown, {fails} singular"
    );
    assert!(
        fails > 5 && fails < cases / 2,
        "{fails} of {cases} singular"
    );
    assert!(free > 5, "{free} solved with a free unknown");
}

/// Large torn loops: the generated LU (pointer loops, two-lane row updates, a scalar tail for
/// odd widths, limited to the loop's band) against the interpreter's, with 21 and 38 tearing
/// variables.
#[test]
fn large_torn_loops_agree() {
    for n in [20.0, 37.0] {
        // The loop is ordered into a band: the generated band-limited LU is what is compared.
        let plan = common::compile_example("VdPLine.mo", Method::BackwardEuler, &[("n", n)], 10);
        let banded = plan.step.iter().any(|s| match s {
            rtc::plan::Stmt::Block(b) => b.band.0 + 1 < b.tearing.len(),
            _ => false,
        });
        assert!(banded, "n = {n}: no banded loop");
        differential_with(
            "VdPLine.mo",
            Method::BackwardEuler,
            &[("n", n)],
            1e-3,
            30,
            10,
        );
    }
}

#[test]
fn vdp_line_all_methods() {
    differential("VdPLine.mo", Method::ForwardEuler, 1e-3, 100, 10);
    differential("VdPLine.mo", Method::BackwardEuler, 1e-3, 300, 10);
    differential("VdPLine.mo", Method::Trapezoid, 1e-4, 500, 10);
    differential("VdPLine.mo", Method::Radau, 1e-4, 300, 10);
    for rk in [
        rtc::pipeline::Rk::Rtrk2,
        rtc::pipeline::Rk::Rk3,
        rtc::pipeline::Rk::Rk4,
        rtc::pipeline::Rk::Rtrk4,
    ] {
        differential("VdPLine.mo", Method::Rk(rk), 1e-5, 200, 10);
    }
    differential("VdPLine.mo", Method::Ab(2), 1e-5, 200, 10);
    differential("VdPLine.mo", Method::Ab(3), 1e-5, 200, 10);
    differential("VdPLine.mo", Method::Libe, 1e-4, 300, 10);
    differential(
        "VdPLine.mo",
        Method::MultiRate {
            fast: vec!["iL".into(), "uC".into()],
            ratio: 10,
            implicit: vec!["u_l".into()],
            quadratic: false,
        },
        1e-3,
        300,
        10,
    );
    differential(
        "VdPLine.mo",
        Method::MultiRate {
            fast: Vec::new(),
            ratio: 0,
            implicit: Vec::new(),
            quadratic: true,
        },
        1e-3,
        300,
        10,
    );
    differential(
        "VdPLine.mo",
        Method::Mixed {
            implicit: vec!["u_l".into()],
        },
        1e-4,
        500,
        10,
    );
}

#[test]
fn every_example_agrees() {
    for (file, h) in [
        ("Pendulum.mo", 0.5),
        ("HydraulicMotor.mo", 1e-4),
        ("Helicopter.mo", 0.01),
        ("SecondOrder.mo", 1e-3),
        ("MassSpringDamper.mo", 1e-3),
        ("RCCircuit.mo", 1e-3),
        ("DCMotor.mo", 1e-3),
        ("VdPLineComponents.mo", 1e-3),
        ("VdPLineNoLoad.mo", 1e-3),
    ] {
        for method in [
            Method::BackwardEuler,
            Method::Trapezoid,
            Method::ForwardEuler,
            Method::Radau,
        ] {
            differential(file, method, h, 200, 30);
        }
    }
}

mod random {
    use super::*;
    use proptest::prelude::*;
    use rtc::flatten::Options;
    use rtc::pipeline::check_source;

    /// Random expression text over x, y, z and time using the built-ins. Arguments of
    /// functions with restricted domains are made safe (sqrt(abs(.)), log(1 + e^2), …) so that
    /// runs stay finite long enough to compare.
    fn expr(depth: u32) -> BoxedStrategy<String> {
        let leaf = prop_oneof![
            Just("x".to_string()),
            Just("y".to_string()),
            Just("z".to_string()),
            Just("time".to_string()),
            (-3.0f64..3.0).prop_map(|c| format!("({c:.3})")),
        ];
        if depth == 0 {
            return leaf.boxed();
        }
        let sub = expr(depth - 1);
        prop_oneof![
            leaf,
            (sub.clone(), sub.clone()).prop_map(|(a, b)| format!("({a} + {b})")),
            (sub.clone(), sub.clone()).prop_map(|(a, b)| format!("({a} - {b})")),
            (sub.clone(), sub.clone()).prop_map(|(a, b)| format!("({a} * {b})")),
            (sub.clone(), sub.clone()).prop_map(|(a, b)| format!("({a} / (1.5 + {b}^2))")),
            sub.clone().prop_map(|a| format!("sin({a})")),
            sub.clone().prop_map(|a| format!("cos({a})")),
            sub.clone().prop_map(|a| format!("atan({a})")),
            sub.clone().prop_map(|a| format!("tanh({a})")),
            sub.clone().prop_map(|a| format!("exp(-({a})^2)")),
            sub.clone().prop_map(|a| format!("log(1 + ({a})^2)")),
            sub.clone().prop_map(|a| format!("sqrt(abs({a}))")),
            sub.clone().prop_map(|a| format!("sign({a})")),
            (sub.clone(), sub.clone()).prop_map(|(a, b)| format!("atan2({a}, 1 + abs({b}))")),
            (sub.clone(), sub.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
            (sub.clone(), sub.clone()).prop_map(|(a, b)| format!("max({a}, -{b})")),
            (sub.clone(), sub.clone(), sub.clone())
                .prop_map(|(c, a, b)| format!("(if {c} > 0 then {a} else {b})")),
            (sub.clone(), sub.clone())
                .prop_map(|(a, b)| format!("abs({a})^1.5 + ({b})^3 + ({b})^(-2.0 + 0 * {a})")),
            // An integer exponent known only at run time: the generated power loop.
            (sub.clone(), sub)
                .prop_map(|(a, b)| format!("(1.1 + 0.1 * abs({a}))^floor(3 * sin({b}))")),
        ]
        .boxed()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Random right-hand sides and a random algebraic loop (z appears on both sides):
        /// the JIT step equals the interpreter's bitwise for every method.
        #[test]
        fn random_models_agree(fx in expr(3), fy in expr(3), gz in expr(2)) {
            let src = format!(
                "model R\n  Real x(start = 0.3, fixed = true);\n  Real y(start = -0.2, fixed = true);\n  Real z;\nequation\n  der(x) = -x + 0.1*({fx});\n  der(y) = -2*y + 0.1*({fy});\n  z = 0.5*tanh({gz}) + 0.1*x;\nend R;\n"
            );
            let c = check_source("random.mo", &src, &Options::default());
            let Some(model) = c.model else {
                // A generated model may be singular (z not in its equation): nothing to compare.
                return Ok(());
            };
            if c.summary.is_none() {
                return Ok(());
            }
            for method in [Method::ForwardEuler, Method::BackwardEuler, Method::Trapezoid] {
                let Ok(plan) = rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(&method)).map(|p| p.plan) else {
                    continue;
                };
                let mut it = Interp::new(&plan);
                let code = jit(&plan, false).map_err(|e| TestCaseError::fail(e.to_string()))?;
                let mut a = it.memory();
                let mut b = code.memory();
                prop_assert_eq!(format!("{:?}", it.init(&mut a, 0.0)), format!("{:?}", code.init(&mut b, 0.0)));
                for k in 0..50 {
                    let t = k as f64 * 0.01;
                    let sa = it.step(&mut a, t, 0.01);
                    let sb = code.step(&mut b, t, 0.01);
                    // As printed: a non-convergence's residual may be NaN in both (NaN != NaN).
                    prop_assert_eq!(format!("{sa:?}"), format!("{sb:?}"), "{} step {}", src, k);
                    for i in 0..plan.vars.len() {
                        prop_assert!(a[i].to_bits() == b[i].to_bits() || (a[i].is_nan() && b[i].is_nan()),
                            "{}\n{:?} step {}: {} interp {} jit {}", src, method, k, plan.vars[i].name, a[i], b[i]);
                    }
                    if sa != Status::Ok {
                        break;
                    }
                }
            }
        }
    }
}

/// Event models: the compiled event functions (zero-crossing functions, pre fill, actions)
/// and the JIT step, driven by the event handler, against the interpreter with the expression
/// evaluator — the same trajectories and event logs, bitwise.
#[test]
fn event_examples_agree() {
    for (file, method, h, stop) in [
        ("BouncingBall.mo", Method::Trapezoid, 1e-3, 4.0),
        ("SampledPI.mo", Method::Trapezoid, 1e-3, 1.0),
        ("Thermostat.mo", Method::Trapezoid, 1.0, 5000.0),
        ("Rectifier.mo", Method::BackwardEuler, 1e-5, 0.03),
        ("TankPump.mo", Method::Trapezoid, 0.01, 900.0),
        (
            "../tests/models/EventBurst.mo",
            Method::Trapezoid,
            1e-3,
            0.5,
        ),
        ("../tests/models/WhenOrder.mo", Method::Trapezoid, 1e-2, 0.6),
        ("BouncingBall.mo", Method::Radau, 1e-3, 4.0),
        (
            "Thermostat.mo",
            Method::Rk(rtc::pipeline::Rk::Rk4),
            1.0,
            5000.0,
        ),
    ] {
        let plan = common::compile_example(file, method.clone(), &[], 10);
        let settings = rtc::sim::RunSettings {
            start: 0.0,
            stop,
            step: h,
            every: 1,
            ..Default::default()
        };
        let selected: Vec<usize> = (0..plan.outputs.len()).collect();
        let run = |stepper: &mut dyn rtc::sim::Stepper| {
            let mut rows: Vec<(f64, Vec<f64>)> = Vec::new();
            let mut log = Vec::new();
            let r = rtc::sim::simulate_logged(
                &plan,
                stepper,
                &settings,
                &selected,
                &mut |t, row| rows.push((t, row.to_vec())),
                &mut log,
            );
            (rows, log, r.is_ok())
        };
        let (ra, la, oka) = run(&mut Interp::new(&plan));
        let (rb, lb, okb) = run(&mut jit(&plan, false).unwrap());
        assert_eq!(oka, okb, "{file}");
        assert!(!la.is_empty(), "{file}: some events");
        assert_eq!(la, lb, "{file}: event logs");
        assert_eq!(ra.len(), rb.len(), "{file}");
        for ((ta, a), (tb, b)) in ra.iter().zip(&rb) {
            assert_eq!(ta.to_bits(), tb.to_bits());
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                assert!(
                    x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
                    "{file} at t = {ta}, `{}`: interpreter {x} vs JIT {y}",
                    plan.outputs[i].name
                );
            }
        }
        eprintln!(
            "{file}: {} rows, {} events, bitwise equal",
            ra.len(),
            la.len()
        );
    }
}

/// The step functions' code of `clif` (the chunks, not the entry or the verify scan).
fn step_chunks(clif: &[String]) -> String {
    clif.iter()
        .filter(|f| f.starts_with("; rtc_model_step_chunk"))
        .cloned()
        .collect::<Vec<_>>()
        .join("\n")
}

/// Loops in generated code: blocks with an integer parameter (the iteration's offset).
fn loops_in(clif: &str) -> usize {
    clif.lines()
        .filter(|l| l.starts_with("block") && !l.starts_with("block0(") && l.contains(": i64"))
        .count()
}

/// Neighbouring assignments of the same shape (the line's state updates and segment
/// equations) are computed two at a time in f64x2 lanes on x86-64 and AArch64, and runs of
/// them as loops; the differential tests above check that the results stay bitwise those of
/// the interpreter.
#[test]
fn neighbouring_assignments_share_vector_lanes() {
    let arch = std::env::consts::ARCH;
    if arch != "x86_64" && arch != "aarch64" {
        eprintln!("skipped: no vector pairing on {arch}");
        return;
    }
    let plan = common::compile_example("VdPLine.mo", Method::ForwardEuler, &[("n", 50.0)], 10);
    let code = jit(&plan, true).unwrap();
    let step = step_chunks(&code.clif);
    let vector_ops = step.matches("f64x2").count();
    let scalar_divs = step.matches("fdiv.f64 ").count() + step.matches(" = fdiv v").count();
    eprintln!(
        "VdPLine n = 50, forward Euler: {vector_ops} f64x2 mentions, {} loops",
        loops_in(&step)
    );
    // The state updates and both kinds of segment equations are loops over f64x2 pairs.
    assert!(loops_in(&step) >= 3, "{step}");
    assert!(vector_ops > 30, "{vector_ops}");
    assert!(scalar_divs < 60, "{scalar_divs}");
}

/// Runs of repeated assignments are generated as loops (codegen/roll.rs) and compute what
/// the interpreter computes, bit for bit: interleaved groups of a component's equations with
/// the C math library, a selection and min/max (`tests/models/RolledArrays.mo`), a running sum
/// whose assignments read the previous one's target, tails left by pairs and unrolling; the
/// line at n = 50 and 500 by every explicit method. The rolled step is a fraction of the
/// straight-line code.
#[test]
fn rolled_loops_equal_the_interpreter() {
    let m = "../tests/models/RolledArrays.mo";
    for method in [Method::ForwardEuler, Method::Rk(rtc::pipeline::Rk::Rk4)] {
        let plan = common::compile_example(m, method.clone(), &[], 10);
        let code = jit(&plan, true).unwrap();
        let step = step_chunks(&code.clif);
        assert!(loops_in(&step) >= 2, "{method:?}: {step}");
        assert!(
            step.lines().count() < 600,
            "{method:?}: {} lines",
            step.lines().count()
        );
        assert_eq!(differential_with(m, method, &[], 1e-2, 200, 10), Status::Ok);
    }
    let mixed = Method::Mixed {
        implicit: vec!["u_l".into()],
    };
    for n in [50.0, 500.0] {
        for (method, h) in [
            (Method::ForwardEuler, 1e-5),
            (mixed.clone(), 1e-5),
            (Method::Rk(rtc::pipeline::Rk::Rtrk4), 1e-5),
            (Method::Ab(3), 1e-5),
        ] {
            assert_eq!(
                differential_with("VdPLine.mo", method.clone(), &[("n", n)], h, 30, 10),
                Status::Ok,
                "n = {n}, {method:?}"
            );
        }
    }
    let plan = common::compile_example("VdPLine.mo", Method::ForwardEuler, &[("n", 500.0)], 10);
    let code = jit(&plan, true).unwrap();
    let step = step_chunks(&code.clif);
    // 2006 assignments per step: straight-line, about 9000 lines of IR.
    assert!(
        step.lines().count() < 1000,
        "{} lines",
        step.lines().count()
    );
}

/// Square roots, absolute values, min/max, comparisons, and/or/not and selections computed
/// in f64x2 lanes (a mask per lane and a bit select) give the interpreter's bits, with lanes
/// that take different branches, straight-line and in loops (`tests/models/PairedLanes.mo`).
#[test]
fn paired_lanes_equal_the_interpreter() {
    let m = "../tests/models/PairedLanes.mo";
    let plan = common::compile_example(m, Method::ForwardEuler, &[], 10);
    let step = step_chunks(&jit(&plan, true).unwrap().clif);
    let arch = std::env::consts::ARCH;
    if arch == "x86_64" || arch == "aarch64" {
        // The selections, min/max and and/or/not of the pairs are bit selects.
        assert!(step.matches("bitselect").count() >= 8, "{step}");
    }
    for method in [
        Method::ForwardEuler,
        Method::Rk(rtc::pipeline::Rk::Rk4),
        Method::Ab(3),
    ] {
        assert_eq!(
            differential_with(m, method.clone(), &[], 1e-2, 300, 10),
            Status::Ok,
            "{method:?}"
        );
    }
}

/// The damped retry (`Newton::damped`) in generated code equals the interpreter's bitwise:
/// a tank running empty under `sqrt(max(0, level))` (tests/models/Drain.mo), where the full
/// steps cycle across the square root's kink at the emptying step and the retry converges.
#[test]
fn damped_retry_jit_equals_interpreter() {
    let st = differential_with(
        "../tests/models/Drain.mo",
        Method::Trapezoid,
        &[],
        0.1,
        80,
        10,
    );
    assert_eq!(st, Status::Ok);
}

/// The damped retry from rest in generated code: `ChargeRamp` with its supply on from the
/// start (Tr < 0, no event: the steps are given) over a 2 ns first step, then a
/// step of almost 1 ms whose start (der(v) carried over) gives no finite residual, so the
/// retry sets der(v) to zero; and `JunctionRamp`'s retry of 14 evaluations. Bit for bit.
#[test]
fn retry_from_rest_jit_equals_interpreter() {
    let times = [(0.0, 2e-9), (2e-9, 1e-3 - 2e-9), (1e-3, 1e-3), (2e-3, 1e-3)];
    for m in [
        "../tests/models/ChargeRamp.mo",
        "../tests/models/JunctionRamp.mo",
    ] {
        let st = differential_over(m, Method::BackwardEuler, &[("Tr", -1.0)], &times, 10);
        assert_eq!(st, Status::Ok, "{m}");
    }
}

/// Newton's extension past its limit while the residual keeps falling, in generated code:
/// the junction whose supply is on from the start, solved from 0 V at initialisation (22
/// iterations) and stepped, bit for bit.
#[test]
fn extended_newton_jit_equals_interpreter() {
    let st = differential_with(
        "../tests/models/JunctionSwitchOn.mo",
        Method::BackwardEuler,
        &[("ton", -1.0)],
        0.1,
        10,
        10,
    );
    assert_eq!(st, Status::Ok);
}

/// The damped retry's bracket of a one-unknown block (regula falsi where a step would leave
/// it) in generated code: the two tanks' emptying steps, bit for bit.
#[test]
fn bracketed_retry_jit_equals_interpreter() {
    let st = differential_with(
        "../tests/models/TwoTanks.mo",
        Method::Trapezoid,
        &[],
        0.065,
        92,
        10,
    );
    assert_eq!(st, Status::Ok);
}

/// A loop of three tearing variables whose LU exchanges rows (the Jacobian's diagonal is far
/// smaller than the entries beside it), solved in registers by the generated code: the same
/// steps as the interpreter's LU, bitwise, by backward Euler and the trapezoidal rule.
#[test]
fn small_loops_pivot_alike() {
    let m = "../tests/models/PivotLoop.mo";
    for method in [Method::BackwardEuler, Method::Trapezoid] {
        let s = differential_with(m, method, &[], 1e-2, 200, 10);
        assert_eq!(s, Status::Ok);
    }
}

/// Sliding on a switch without events in generated code, bit for bit with the interpreter:
/// one unknown (the bracket kept from the first retry and bisected), two (the step cut to a
/// band's crossing), Radau's stages, and a sliding retry that fails (its status, the band's
/// width cleared).
#[test]
fn sliding_jit_equals_interpreter() {
    for (m, method, want) in [
        (
            "../tests/models/SlidingLimiter.mo",
            Method::BackwardEuler,
            true,
        ),
        ("../tests/models/SlidingLimiter.mo", Method::Radau, true),
        (
            "../tests/models/SlidingLimiterLoop.mo",
            Method::BackwardEuler,
            true,
        ),
        (
            "../tests/models/SlidingLimiterRadau.mo",
            Method::Radau,
            false,
        ),
    ] {
        let st = differential_with(m, method.clone(), &[], 0.01, 10, 10);
        assert_eq!(st == Status::Ok, want, "{m} {method:?}: {st:?}");
    }
}
