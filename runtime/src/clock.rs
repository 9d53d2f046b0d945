//! The real-time clock: frames on absolute deadlines from a monotonic clock, and the operating
//! system settings a real-time process asks for.
//!
//! Each frame starts at `anchor + k · frame`, computed from the frame index, never by adding
//! a period to the previous wake-up, so no drift accumulates (Cellier & Kofman §10.1: the
//! real-time clock sends the message that real time has advanced to t_k). Waiting sleeps until
//! `spin` before the deadline and then busy-waits: sleeping alone wakes up late by the timer
//! slack and the scheduler's latency (tens of microseconds to milliseconds on shared virtual
//! machines), spinning the tail holds the start of the frame to within a microsecond or so
//! when the CPU is ours.

use std::time::{Duration, Instant};

/// Absolute frame deadlines.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    anchor: Instant,
    frame: Duration,
    spin: Duration,
}

impl Clock {
    /// A clock whose frame 0 starts at `anchor`.
    pub fn new(anchor: Instant, frame: Duration, spin: Duration) -> Clock {
        Clock {
            anchor,
            frame,
            spin,
        }
    }

    pub fn frame(&self) -> Duration {
        self.frame
    }

    /// Start of frame `k`.
    pub fn deadline(&self, k: u64) -> Instant {
        // Duration × u32 only; frames beyond 2^32 are split into two products.
        let hi = (k >> 32) as u32;
        let lo = k as u32;
        let mut d = self.frame * lo;
        if hi > 0 {
            d += self.frame * hi * 65536 * 65536;
        }
        self.anchor + d
    }

    /// Frame `k`'s computation ended at `end`: if after the next deadline, the deadlines it
    /// missed (an overrun).
    pub fn overran(&self, k: u64, end: Instant) -> Option<u64> {
        let next = self.deadline(k + 1);
        (end > next).then(|| ((end - next).as_nanos() / self.frame.as_nanos().max(1)) as u64 + 1)
    }

    /// Waits until the start of frame `k` and returns how late it began.
    pub fn wait_for(&self, k: u64) -> Duration {
        let deadline = self.deadline(k);
        let now = Instant::now();
        if deadline > now + self.spin {
            std::thread::sleep(deadline - now - self.spin);
        }
        loop {
            let now = Instant::now();
            if now >= deadline {
                return now - deadline;
            }
            std::hint::spin_loop();
        }
    }

    /// Moves frame `k`'s start to `now` (after a pause: real time restarts from here).
    pub fn reanchor(&mut self, k: u64, now: Instant) {
        let since = self.deadline(k) - self.anchor;
        self.anchor = now - since;
    }
}

/// What the process asked the operating system for, and what it got.
#[derive(Clone, Debug, Default)]
pub struct OsSetup {
    pub pinned: Option<usize>,
    pub fifo: Option<i32>,
    pub memory_locked: bool,
    /// One line per request that was refused, for the user.
    pub warnings: Vec<String>,
}

/// Pins the calling thread to `cpu`, gives it `SCHED_FIFO` priority `fifo`, and locks the
/// process's memory, as far as the operating system permits. Refusals are warnings, not
/// errors: a desk run without privileges still runs, and says it is not isolated.
pub fn setup_os(cpu: Option<usize>, fifo: Option<i32>, lock_memory: bool) -> OsSetup {
    let mut s = OsSetup::default();
    #[cfg(target_os = "linux")]
    {
        let err = || std::io::Error::last_os_error();
        if let Some(c) = cpu {
            // SAFETY: a zeroed cpu_set_t is a valid empty set; CPU_SET stays within it for
            // c < CPU_SETSIZE, checked first.
            unsafe {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                if c >= libc::CPU_SETSIZE as usize {
                    s.warnings.push(format!("--pin {c}: no such CPU"));
                } else {
                    libc::CPU_SET(c, &mut set);
                    if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
                    {
                        s.pinned = Some(c);
                    } else {
                        s.warnings
                            .push(format!("--pin {c}: not permitted ({}); not pinned", err()));
                    }
                }
            }
        }
        if let Some(p) = fifo {
            let param = libc::sched_param { sched_priority: p };
            // SAFETY: plain system call on the calling thread with a valid parameter block.
            if unsafe { libc::sched_setscheduler(0, libc::SCHED_FIFO, &param) } == 0 {
                s.fifo = Some(p);
            } else {
                s.warnings.push(format!(
                    "--fifo {p}: SCHED_FIFO refused ({}); running with normal priority (needs root or CAP_SYS_NICE)",
                    err()
                ));
            }
        }
        if lock_memory {
            // SAFETY: plain system call.
            if unsafe { libc::mlockall(libc::MCL_CURRENT | libc::MCL_FUTURE) } == 0 {
                s.memory_locked = true;
            } else {
                s.warnings.push(format!(
                    "mlockall refused ({}); memory may be paged (needs root, CAP_IPC_LOCK or a higher RLIMIT_MEMLOCK)",
                    err()
                ));
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        if cpu.is_some() || fifo.is_some() || lock_memory {
            s.warnings
                .push("CPU pinning, SCHED_FIFO and mlockall are only implemented on Linux".into());
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_are_absolute() {
        let a = Instant::now();
        let c = Clock::new(a, Duration::from_micros(1000), Duration::ZERO);
        assert_eq!(c.deadline(0), a);
        assert_eq!(c.deadline(2500) - a, Duration::from_millis(2500));
        let big = (1u64 << 32) + 3;
        assert_eq!(
            c.deadline(big) - a,
            Duration::from_micros(1000) * 3 + Duration::from_micros(1000) * 65536 * 65536
        );
    }

    #[test]
    fn waiting_never_starts_early() {
        let c = Clock::new(
            Instant::now(),
            Duration::from_micros(500),
            Duration::from_micros(100),
        );
        for k in 1..20 {
            c.wait_for(k);
            assert!(Instant::now() >= c.deadline(k));
        }
    }
}
