//! Memory is constant in the length of a run: the loop's statistics are counters and
//! histograms, and nothing is kept per frame. A counting allocator (this test binary's own, so
//! no other test's allocations mix in) measures the peak of live heap bytes during runs of
//! 10^5 and 10^7 steps as fast as possible and of 10^4 and 10^6 real-time frames of 2 µs, with
//! a CSV sink recording every 1000th frame (to a sink that discards the text).

use rtc_runtime::{run, Config, Layout, Model};
use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: AllocLayout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: AllocLayout) {
        System.dealloc(p, l);
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// x' = -x.
struct Decay;
impl Model for Decay {
    fn step(&mut self, mem: &mut [f64], _t: f64, h: f64) -> Result<(), rtc_runtime::StepError> {
        mem[0] -= h * mem[0];
        Ok(())
    }
    fn outputs(&mut self, mem: &[f64], out: &mut [f64]) {
        out[0] = mem[0];
    }
    fn parameters_changed(&mut self, _mem: &mut [f64]) -> Result<(), rtc_runtime::StepError> {
        Ok(())
    }
}

/// Peak live heap bytes above what was live before, for a run of `frames` frames.
fn peak_of(frames: u64, realtime: bool, step: f64) -> (usize, u64) {
    let layout = Layout {
        outputs: vec!["x".into()],
        ..Layout::default()
    };
    let mut mem = [1.0];
    let mut cfg = Config::new(0.0, step, frames);
    cfg.realtime = realtime;
    // Frames this short are waited for by spinning (a sleep alone lasts longer than one).
    cfg.spin = std::time::Duration::from_secs_f64(step);
    cfg.selected = vec![0];
    cfg.sinks = vec![Box::new(rtc_runtime::io::CsvSink::new(
        Box::new(std::io::sink()),
        1000,
    ))];
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = run(&mut Decay, &mut mem, &layout, &mut cfg);
    assert!(r.failure.is_none());
    let peak = PEAK.load(Ordering::Relaxed) - base;
    drop(r);
    (peak, frames)
}

#[test]
fn peak_memory_does_not_grow_with_the_run() {
    let (short, _) = peak_of(100_000, false, 1e-5);
    let (long, _) = peak_of(10_000_000, false, 1e-7);
    eprintln!("as fast as possible: peak heap {short} B for 1e5 steps, {long} B for 1e7");
    // Equal up to small bookkeeping (a longer text for a number, say); a per-frame record
    // would add 500 MB.
    assert!(long <= short + 4096, "{short} B vs {long} B");
    // Real time with a tiny frame: as many frames as the machine can do in about 2 s.
    let (short, _) = peak_of(10_000, true, 2e-6);
    let (long, _) = peak_of(1_000_000, true, 2e-6);
    eprintln!("real time (2 us frames): peak heap {short} B for 1e4 frames, {long} B for 1e6");
    assert!(long <= short + 4096, "{short} B vs {long} B");
}
