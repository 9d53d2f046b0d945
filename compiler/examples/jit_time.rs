//! Times JIT compilation of the equation-form line (development aid).
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/VdPLine.mo");
    let text = std::fs::read_to_string(path).expect("read");
    let opts = rtc::flatten::Options {
        params: vec![("n".into(), n as f64)],
        ..Default::default()
    };
    let model = rtc::pipeline::check_source("VdPLine.mo", &text, &opts)
        .model
        .expect("model");
    let m = rtc::pipeline::Method::Mixed {
        implicit: vec!["u_l".into()],
    };
    let plan = rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(&m))
        .expect("plan")
        .plan;
    let t0 = std::time::Instant::now();
    let code = rtc::codegen::jit(&plan, true).expect("jit");
    println!(
        "n = {n}: jit {:.1} ms, {} functions",
        t0.elapsed().as_secs_f64() * 1e3,
        code.clif.len()
    );
    for f in &code.clif {
        println!("  {} lines", f.lines().count());
    }
}
