//! Front-end benchmark: `rtc check` (parse, flatten, alias elimination, matching) of the
//! equation-form Van-der-Pol line for growing n. Run with `cargo bench -p rtc --bench frontend`.
//! Prints the median and minimum of repeated runs; no assertion on time.

use rtc::flatten::Options;
use rtc::pipeline::check_source;
use std::time::Instant;

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/VdPLine.mo");
    let text = std::fs::read_to_string(path).expect("read examples/VdPLine.mo");
    println!(
        "{:>6} {:>10} {:>12} {:>12} {:>10}",
        "n", "equations", "median [ms]", "min [ms]", "runs"
    );
    for n in [5usize, 50, 500, 5000] {
        let opts = Options {
            params: vec![("n".into(), n as f64)],
            ..Options::default()
        };
        let runs = if n >= 5000 { 11 } else { 31 };
        let mut times = Vec::with_capacity(runs);
        let mut equations = 0;
        for _ in 0..runs {
            let t0 = Instant::now();
            let c = check_source("VdPLine.mo", &text, &opts);
            times.push(t0.elapsed().as_secs_f64() * 1e3);
            let s = c.summary.expect("VdPLine checks");
            equations = s.equations;
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{:>6} {:>10} {:>12.3} {:>12.3} {:>10}",
            n,
            equations,
            times[runs / 2],
            times[0],
            runs
        );
    }
}
