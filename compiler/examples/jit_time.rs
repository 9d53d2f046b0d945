//! Times the equation-form line from source to a callable step function (development aid):
//! `jit_time [N [REPS [clif]]]` prints the median of REPS runs of source → plan and plan → JIT
//! (mixed mode); with `clif`, the generated code is also kept as text and the functions' sizes
//! printed. For profiling the compile path, e.g. `perf record target/release/examples/jit_time
//! 500 50`, or `valgrind --tool=callgrind target/release/examples/jit_time 500`.
fn main() {
    let arg = |k: usize, default: usize| {
        std::env::args()
            .nth(k)
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let (n, reps) = (arg(1, 500), arg(2, 1).max(1));
    let clif = std::env::args().nth(3).as_deref() == Some("clif");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/VdPLine.mo");
    let text = std::fs::read_to_string(path).expect("read");
    let opts = rtc::flatten::Options {
        params: vec![("n".into(), n as f64)],
        ..Default::default()
    };
    let m = rtc::pipeline::Method::Mixed {
        implicit: vec!["u_l".into()],
    };
    let mut rows = Vec::new();
    let mut last = None;
    for _ in 0..reps {
        let t0 = std::time::Instant::now();
        let model = rtc::pipeline::check_source("VdPLine.mo", &text, &opts)
            .model
            .expect("model");
        let plan = rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(&m))
            .expect("plan")
            .plan;
        let t1 = std::time::Instant::now();
        let code = rtc::codegen::jit(&plan, clif).expect("jit");
        let t2 = std::time::Instant::now();
        rows.push(((t1 - t0).as_secs_f64() * 1e3, (t2 - t1).as_secs_f64() * 1e3));
        last = Some(code);
    }
    rows.sort_by(|a, b| (a.0 + a.1).total_cmp(&(b.0 + b.1)));
    let (p, j) = rows[reps / 2];
    println!(
        "n = {n}: source to plan {p:.1} ms, jit {j:.1} ms, total {:.1} ms (median of {reps})",
        p + j
    );
    let code = last.expect("one run");
    println!("{} functions", code.clif.len());
    for f in &code.clif {
        println!("  {} lines", f.lines().count());
    }
}
