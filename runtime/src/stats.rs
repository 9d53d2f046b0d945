//! Timing statistics of a run: task execution time, frame-start jitter, overruns — the
//! figures Simulink Real-Time, dSPACE and VeriStand report per rate.
//!
//! Everything here takes constant memory whatever the length of the run: counters, and two
//! histograms (execution time and start lateness, nanoseconds from 1 ns to one hour with three
//! significant digits, so a percentile is within 0.1 % of the measured value; minimum, maximum
//! and mean are kept exactly). A day-long soak at 10 kHz holds no more than a one-second run.
//! Whoever wants every frame gives the loop a [`FrameLog`], which receives each frame's
//! [`FrameRecord`] as it ends ([`CsvFrameLog`] streams them to a file: `rtc run --timing-log`).

use hdrhistogram::Histogram;
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

/// Receives every timed frame's record as the frame ends (real-time runs, and as-fast-as-
/// possible runs given a log). An error stops the logging, not the run.
pub trait FrameLog {
    fn frame(&mut self, r: &FrameRecord) -> std::io::Result<()>;
    fn finish(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Per-frame CSV rows, streamed: `frame,time,h,lateness_us,exec_us,overrun,lost,grace,events`.
pub struct CsvFrameLog {
    out: Box<dyn Write>,
    line: String,
    started: bool,
}

impl CsvFrameLog {
    pub fn new(out: Box<dyn Write>) -> CsvFrameLog {
        CsvFrameLog {
            out,
            line: String::with_capacity(256),
            started: false,
        }
    }

    fn header(&mut self) -> std::io::Result<()> {
        if !self.started {
            self.started = true;
            writeln!(
                self.out,
                "frame,time,h,lateness_us,exec_us,overrun,lost,grace,events"
            )?;
        }
        Ok(())
    }
}

impl FrameLog for CsvFrameLog {
    fn frame(&mut self, r: &FrameRecord) -> std::io::Result<()> {
        use std::fmt::Write as _;
        self.header()?;
        self.line.clear();
        let _ = write!(self.line, "{},", r.frame);
        crate::io::push_f64(&mut self.line, r.time);
        self.line.push(',');
        crate::io::push_f64(&mut self.line, r.h);
        let _ = writeln!(
            self.line,
            ",{:.3},{:.3},{},{},{},{}",
            us(r.lateness),
            us(r.exec),
            u8::from(r.overrun),
            r.lost,
            u8::from(r.grace),
            r.events
        );
        self.out.write_all(self.line.as_bytes())
    }

    fn finish(&mut self) -> std::io::Result<()> {
        self.header()?;
        self.out.flush()
    }
}

/// A duration distribution in constant memory.
#[derive(Debug, Clone)]
pub struct Distribution {
    hist: Histogram<u64>,
    min: Duration,
    max: Duration,
    sum: Duration,
}

/// One hour in nanoseconds: the largest value the histograms resolve (longer ones count as
/// one hour in the percentiles; the maximum stays exact).
const HIGHEST_NS: u64 = 3_600_000_000_000;

impl Default for Distribution {
    fn default() -> Distribution {
        Distribution {
            hist: Histogram::new_with_bounds(1, HIGHEST_NS, 3).expect("valid histogram bounds"),
            min: Duration::MAX,
            max: Duration::ZERO,
            sum: Duration::ZERO,
        }
    }
}

impl Distribution {
    pub fn record(&mut self, d: Duration) {
        let ns = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.hist.saturating_record(ns.max(1));
        self.min = self.min.min(d);
        self.max = self.max.max(d);
        self.sum = self.sum.saturating_add(d);
    }

    pub fn count(&self) -> u64 {
        self.hist.len()
    }

    pub fn min(&self) -> Duration {
        if self.count() == 0 {
            Duration::ZERO
        } else {
            self.min
        }
    }

    pub fn max(&self) -> Duration {
        self.max
    }

    pub fn mean(&self) -> Duration {
        match self.count() {
            0 => Duration::ZERO,
            n => Duration::from_secs_f64(self.sum.as_secs_f64() / n as f64),
        }
    }

    /// The value below which a fraction `q` of the frames lie (within 0.1 %, and never
    /// beyond the exact maximum).
    pub fn quantile(&self, q: f64) -> Duration {
        if self.count() == 0 {
            return Duration::ZERO;
        }
        Duration::from_nanos(self.hist.value_at_quantile(q)).min(self.max)
    }
}

/// Counters and distributions of a run.
#[derive(Debug)]
pub struct Stats {
    /// Frames computed.
    pub frames: u64,
    /// Frames computed outside the grace period.
    pub counted: u64,
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
    /// Execution time and start lateness of the timed frames.
    pub exec: Distribution,
    pub lateness: Distribution,
    frame: Duration,
    step: f64,
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

impl Stats {
    /// Statistics of frames of length `frame` made of steps of length `step`.
    pub fn new(frame: Duration, step: f64) -> Stats {
        Stats {
            frames: 0,
            counted: 0,
            overruns: 0,
            grace_overruns: 0,
            longest_run: 0,
            catch_up_steps: 0,
            frames_behind: 0,
            events_handled: 0,
            events_deferred: 0,
            event_overruns: 0,
            exec: Distribution::default(),
            lateness: Distribution::default(),
            frame,
            step,
        }
    }

    /// A timed frame: counters and distributions.
    pub fn record(&mut self, r: &FrameRecord) {
        self.count_frame(r.h, r.grace);
        if r.overrun {
            if r.grace {
                self.grace_overruns += 1;
            } else {
                self.overruns += 1;
            }
        }
        self.exec.record(r.exec);
        self.lateness.record(r.lateness);
    }

    /// A frame computed (timed or not) with step `h`.
    pub fn count_frame(&mut self, h: f64, grace: bool) {
        self.frames += 1;
        self.counted += u64::from(!grace);
        if h > 1.5 * self.step {
            self.catch_up_steps += 1;
        }
    }

    /// `n` untimed frames of the nominal step, `grace` of them in the grace period.
    pub fn count_frames(&mut self, n: u64, grace: u64) {
        self.frames += n;
        self.counted += n - grace;
    }

    pub fn exec_max(&self) -> Duration {
        self.exec.max()
    }

    /// (p50, p99, max) of the frame-start lateness.
    pub fn jitter(&self) -> (Duration, Duration, Duration) {
        (
            self.lateness.quantile(0.5),
            self.lateness.quantile(0.99),
            self.lateness.max(),
        )
    }

    /// The summary printed at the end of a run.
    pub fn summary(&self, realtime: bool) -> String {
        let e = &self.exec;
        let mut s = format!(
            "task execution time per frame: min {:.1} us, mean {:.1} us, p99 {:.1} us, max {:.1} us (frame {:.1} us, {} frames)\n",
            us(e.min()),
            us(e.mean()),
            us(e.quantile(0.99)),
            us(e.max()),
            us(self.frame),
            self.frames
        );
        if realtime {
            let (j50, j99, jmax) = self.jitter();
            let counted = self.counted.max(1);
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_within_a_thousandth() {
        let mut d = Distribution::default();
        // 1..=10 000 microseconds, once each.
        for k in 1..=10_000u64 {
            d.record(Duration::from_micros(k));
        }
        assert_eq!(d.count(), 10_000);
        assert_eq!(d.min(), Duration::from_micros(1));
        assert_eq!(d.max(), Duration::from_micros(10_000));
        assert!((d.mean().as_secs_f64() - 5000.5e-6).abs() < 1e-12);
        for (q, want) in [(0.5, 5000.0), (0.99, 9900.0)] {
            let got = us(d.quantile(q));
            assert!((got - want).abs() <= want * 1e-3, "p{q}: {got} vs {want}");
        }
        let empty = Distribution::default();
        assert_eq!(
            (empty.min(), empty.mean(), empty.quantile(0.5)),
            (Duration::ZERO, Duration::ZERO, Duration::ZERO)
        );
    }

    #[test]
    fn csv_log_rows() {
        let buf = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.borrow_mut().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut log = CsvFrameLog::new(Box::new(Shared(buf.clone())));
        log.frame(&FrameRecord {
            frame: 3,
            time: 0.003,
            h: 1e-3,
            lateness: Duration::from_nanos(1500),
            exec: Duration::from_micros(12),
            overrun: true,
            lost: 1,
            grace: false,
            events: 2,
        })
        .unwrap();
        log.finish().unwrap();
        let text = String::from_utf8(buf.borrow().clone()).unwrap();
        assert_eq!(
            text,
            "frame,time,h,lateness_us,exec_us,overrun,lost,grace,events\n3,3e-3,1e-3,1.500,12.000,1,1,0,2\n"
        );
    }
}
