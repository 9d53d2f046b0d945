//! Timing statistics of a run: task execution time, frame-start jitter, overruns — the
//! figures Simulink Real-Time, dSPACE and VeriStand report per rate.

use std::io::Write;
use std::time::Duration;

/// One frame as it happened.
#[derive(Clone, Copy, Debug)]
pub struct FrameRecord {
    /// Index on the clock (deadline number).
    pub frame: u64,
    /// Simulated time at the start of the frame.
    pub time: f64,
    /// Step length used (doubled, or more, after a catch-up).
    pub h: f64,
    /// How late the frame started after its deadline.
    pub lateness: Duration,
    /// Inputs, steps, outputs: the task's execution time.
    pub exec: Duration,
    /// The computation ended after the next deadline.
    pub overrun: bool,
    /// Deadlines missed by the overrun.
    pub lost: u64,
    /// In the start-up grace period.
    pub grace: bool,
    /// Events the frame's steps handled or deferred.
    pub events: u32,
}

/// Counters and per-frame records (preallocated: recording does not allocate in the loop).
#[derive(Debug)]
pub struct Stats {
    pub records: Vec<FrameRecord>,
    /// Frames computed.
    pub frames: u64,
    /// Overruns after the grace period.
    pub overruns: u64,
    /// Overruns in the grace period.
    pub grace_overruns: u64,
    /// Longest run of consecutive overruns (after the grace period).
    pub longest_run: u64,
    /// Frames whose step was lengthened to catch up.
    pub catch_up_steps: u64,
    /// Frames of simulated time behind the clock (the `skip` policy).
    pub frames_behind: u64,
    /// State events handled (located, step repeated) and deferred to the end of their step.
    pub events_handled: u64,
    pub events_deferred: u64,
    /// Overruns in frames that handled an event.
    pub event_overruns: u64,
    frame: Duration,
    step: f64,
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

impl Stats {
    /// Room for `frames` records of frames of length `frame` made of steps of length `step`.
    pub fn with_capacity(frames: usize, frame: Duration, step: f64) -> Stats {
        Stats {
            records: Vec::with_capacity(frames.min(50_000_000)),
            frames: 0,
            overruns: 0,
            grace_overruns: 0,
            longest_run: 0,
            catch_up_steps: 0,
            frames_behind: 0,
            events_handled: 0,
            events_deferred: 0,
            event_overruns: 0,
            frame,
            step,
        }
    }

    pub fn record(&mut self, r: FrameRecord) {
        self.frames += 1;
        if r.overrun {
            if r.grace {
                self.grace_overruns += 1;
            } else {
                self.overruns += 1;
            }
        }
        if r.h > 1.5 * self.step {
            self.catch_up_steps += 1;
        }
        self.records.push(r);
    }

    pub fn exec_max(&self) -> Duration {
        self.records
            .iter()
            .map(|r| r.exec)
            .max()
            .unwrap_or_default()
    }

    fn sorted(&self, f: impl Fn(&FrameRecord) -> Duration) -> Vec<Duration> {
        let mut v: Vec<Duration> = self.records.iter().map(f).collect();
        v.sort_unstable();
        v
    }

    /// (min, mean, p99, max) of the execution time.
    pub fn exec(&self) -> (Duration, Duration, Duration, Duration) {
        let v = self.sorted(|r| r.exec);
        let mean = if v.is_empty() {
            Duration::ZERO
        } else {
            v.iter().sum::<Duration>() / v.len() as u32
        };
        (
            v.first().copied().unwrap_or_default(),
            mean,
            percentile(&v, 0.99),
            v.last().copied().unwrap_or_default(),
        )
    }

    /// (p50, p99, max) of the frame-start lateness.
    pub fn jitter(&self) -> (Duration, Duration, Duration) {
        let v = self.sorted(|r| r.lateness);
        (
            percentile(&v, 0.5),
            percentile(&v, 0.99),
            v.last().copied().unwrap_or_default(),
        )
    }

    /// The summary printed at the end of a run.
    pub fn summary(&self, realtime: bool) -> String {
        let (emin, emean, ep99, emax) = self.exec();
        let mut s = format!(
            "task execution time per frame: min {:.1} us, mean {:.1} us, p99 {:.1} us, max {:.1} us (frame {:.1} us, {} frames)\n",
            us(emin),
            us(emean),
            us(ep99),
            us(emax),
            us(self.frame),
            self.frames
        );
        if realtime {
            let (j50, j99, jmax) = self.jitter();
            let counted = self.records.iter().filter(|r| !r.grace).count().max(1);
            s.push_str(&format!(
                "frame start jitter: p50 {:.1} us, p99 {:.1} us, max {:.1} us\n",
                us(j50),
                us(j99),
                us(jmax)
            ));
            s.push_str(&format!(
                "overruns: {} ({:.3} % of {} frames), longest run {}, {} in the start-up grace period; {} steps lengthened to catch up",
                self.overruns,
                100.0 * self.overruns as f64 / counted as f64,
                counted,
                self.longest_run,
                self.grace_overruns,
                self.catch_up_steps
            ));
            if self.events_handled + self.events_deferred > 0 {
                s.push_str(&format!(
                    "; events: {} handled, {} deferred, {} overruns in frames with an event",
                    self.events_handled, self.events_deferred, self.event_overruns
                ));
            }
            if self.frames_behind > 0 {
                s.push_str(&format!(
                    "; simulated time ends {} frames behind the clock (frames lost and not caught up)",
                    self.frames_behind
                ));
            }
            s.push('\n');
        }
        s
    }

    /// Events of a frame: handled and deferred, and whether the frame overran.
    pub fn count_events(&mut self, handled: u32, deferred: u32, overran: bool) {
        self.events_handled += u64::from(handled);
        self.events_deferred += u64::from(deferred);
        if overran && handled + deferred > 0 {
            self.event_overruns += 1;
        }
    }

    /// Per-frame CSV: `frame,time,h,lateness_us,exec_us,overrun,lost,grace`.
    pub fn write_log(&self, w: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            w,
            "frame,time,h,lateness_us,exec_us,overrun,lost,grace,events"
        )?;
        let mut line = String::new();
        for r in &self.records {
            line.clear();
            crate::io::push_f64(&mut line, r.time);
            line.push(',');
            crate::io::push_f64(&mut line, r.h);
            writeln!(
                w,
                "{},{line},{:.3},{:.3},{},{},{},{}",
                r.frame,
                us(r.lateness),
                us(r.exec),
                u8::from(r.overrun),
                r.lost,
                u8::from(r.grace),
                r.events
            )?;
        }
        w.flush()
    }
}
