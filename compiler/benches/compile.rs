//! Source-to-plan benchmark: parse, flatten, discretize, sort, tear and differentiate the
//! equation-form Van-der-Pol line for growing n and several methods. Prints the median and
//! minimum time and the plan's size. Then source to object file (`rtc compile` without
//! writing files) for each target at n = 5 and 500. Run with
//! `cargo bench -p rtc --bench compile`.

use rtc::flatten::Options;
use rtc::pipeline::check_source;
use rtc::pipeline::Method;
use rtc::plan::Stmt;
use std::time::Instant;

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/VdPLine.mo");
    let text = std::fs::read_to_string(path).expect("read examples/VdPLine.mo");
    println!(
        "{:>6} {:>8} {:>12} {:>12} {:>8} {:>8} {:>8} {:>12}",
        "n", "method", "median [ms]", "min [ms]", "assigns", "loops", "tearing", "work [flops]"
    );
    let methods = [
        ("fe", Method::ForwardEuler),
        (
            "mixed",
            Method::Mixed {
                implicit: vec!["u_l".into()],
            },
        ),
        ("be", Method::BackwardEuler),
    ];
    for n in [5usize, 50, 500, 5000] {
        for (name, method) in &methods {
            let opts = Options {
                params: vec![("n".into(), n as f64)],
                ..Options::default()
            };
            let runs = if n >= 5000 {
                3
            } else if n >= 500 {
                7
            } else {
                21
            };
            let mut times = Vec::new();
            let mut shape = (0, 0, 0, 0);
            for _ in 0..runs {
                let t0 = Instant::now();
                let c = check_source("VdPLine.mo", &text, &opts);
                let model = c.model.expect("model");
                let plan = match rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(method)) {
                    Ok(p) => p.plan,
                    Err(d) => {
                        println!("{n:>6} {name:>8}  refused: {}", d.message);
                        break;
                    }
                };
                times.push(t0.elapsed().as_secs_f64() * 1e3);
                let assigns = plan
                    .step
                    .iter()
                    .filter(|s| matches!(s, Stmt::Assign(_)))
                    .count();
                let blocks: Vec<_> = plan
                    .step
                    .iter()
                    .filter_map(|s| match s {
                        Stmt::Block(b) => Some(b.tearing.len()),
                        _ => None,
                    })
                    .collect();
                shape = (
                    assigns,
                    blocks.len(),
                    blocks.iter().sum(),
                    plan.work_bound().flops,
                );
            }
            if times.is_empty() {
                continue;
            }
            let runs = times.len();
            times.sort_by(f64::total_cmp);
            println!(
                "{:>6} {:>8} {:>12.2} {:>12.2} {:>8} {:>8} {:>8} {:>12}",
                n,
                name,
                times[runs / 2],
                times[0],
                shape.0,
                shape.1,
                shape.2,
                shape.3
            );
        }
    }
    objects(&text);
}

/// Source → object bytes for every target, mixed mode (u_l implicit).
fn objects(text: &str) {
    println!(
        "\n{:>6} {:>28} {:>12} {:>12} {:>10} {:>10}",
        "n", "target", "median [ms]", "min [ms]", "object [B]", "stack [B]"
    );
    let method = Method::Mixed {
        implicit: vec!["u_l".into()],
    };
    for n in [5usize, 500] {
        for target in rtc::codegen::TARGETS {
            let opts = Options {
                params: vec![("n".into(), n as f64)],
                ..Options::default()
            };
            let runs = if n >= 500 { 7 } else { 21 };
            let mut times = Vec::new();
            let mut size = (0, 0);
            for _ in 0..runs {
                let t0 = Instant::now();
                let c = check_source("VdPLine.mo", text, &opts);
                let model = c.model.expect("model");
                let plan = rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(&method))
                    .expect("plan")
                    .plan;
                let obj = rtc::codegen::object(
                    &plan,
                    target,
                    &rtc::codegen::Cpu::Baseline,
                    "VdPLine",
                    false,
                )
                .expect("object");
                times.push(t0.elapsed().as_secs_f64() * 1e3);
                size = (obj.bytes.len(), obj.stack_step);
            }
            times.sort_by(f64::total_cmp);
            println!(
                "{:>6} {:>28} {:>12.2} {:>12.2} {:>10} {:>10}",
                n,
                target.triple,
                times[times.len() / 2],
                times[0],
                size.0,
                size.1
            );
        }
    }
}
