//! `vdpline-hand N fe|mixed STEPS`: the hand-written step of the VdPLine line (the step
//! benchmark's, included from `compiler/benches/hand/fe.rs`) at h = 5e-7, best of five loops
//! of STEPS steps, in ns per step.

use std::hint::black_box;
use std::time::Instant;

include!("../../../compiler/benches/hand/fe.rs");

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: vdpline-hand N fe|mixed STEPS";
    let n: usize = args.get(1).and_then(|a| a.parse().ok()).expect(usage);
    let mixed = args.get(2).map(String::as_str) == Some("mixed");
    let steps: usize = args.get(3).and_then(|a| a.parse().ok()).expect(usage);
    let h = 5e-7;
    let mut best = f64::INFINITY;
    let mut last = 0.0;
    for _ in 0..5 {
        let mut s = Hand::new(n, mixed);
        let t = Instant::now();
        for _ in 0..steps {
            s.step(black_box(h));
        }
        best = best.min(t.elapsed().as_nanos() as f64 / steps as f64);
        last = s.x[1];
    }
    println!("{n} {} {best:.1} ns/step (uC {last})", args[2]);
}
