//! Differential tests: the JIT-compiled step function against the plan interpreter, over many
//! steps, for every example and method. They agree bitwise: the lowering performs the same
//! operations in the same order with the same libm functions and LU. (The one allowed
//! difference, min/max of NaN or signed zeros, does not occur in these runs.)

mod common;

use rtc::codegen::jit;
use rtc::discretize::Method;
use rtc::plan::interp::{Interp, Status};

fn differential(file: &str, method: Method, h: f64, steps: usize, newton: u32) {
    let plan = common::compile_example(file, method.clone(), &[], newton);
    let mut it = Interp::new(&plan);
    let code = jit(&plan, false).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut a = it.memory();
    let mut b = code.memory();
    let sa = it.init(&mut a, 0.0);
    let sb = code.init(&mut b, 0.0);
    assert_eq!(sa, sb, "{file} {method:?}: init status");
    let n = plan.vars.len();
    for k in 0..steps {
        let t = k as f64 * h;
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
            break;
        }
    }
}

#[test]
fn vdp_line_all_methods() {
    differential("VdPLine.mo", Method::ForwardEuler, 1e-3, 100, 10);
    differential("VdPLine.mo", Method::BackwardEuler, 1e-3, 300, 10);
    differential("VdPLine.mo", Method::Trapezoid, 1e-4, 500, 10);
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
        ("VdPLineComponents.mo", 1e-3),
        ("VdPLineNoLoad.mo", 1e-3),
    ] {
        for method in [
            Method::BackwardEuler,
            Method::Trapezoid,
            Method::ForwardEuler,
        ] {
            differential(file, method, h, 200, 30);
        }
    }
}
