//! Flush-to-zero for the step: subnormal numbers (below 2.2250738585072014e-308 in magnitude)
//! cost tens of times more than normal ones on x86-64 and AArch64 (a microcode assist per
//! operation), and a model whose values decay towards zero — far down a transmission line, a
//! damped mode after a long run — spends its frame on them.
//!
//! [`FlushToZero`] sets the floating-point control of the calling thread so that subnormal
//! results are flushed to zero and subnormal operands read as zero, and restores the previous
//! setting when dropped:
//!
//! - x86-64: MXCSR bits FTZ (15) and DAZ (6), for SSE/AVX arithmetic (all Cranelift emits);
//! - AArch64: FPCR bit FZ (24), which flushes both inputs and outputs.
//!
//! Results change only where some intermediate value would have been subnormal: it becomes ±0
//! instead. That is not always where the final value would be: x − 0.1·x with x = 2e-307 leaves
//! x unchanged, because the decrement flushes, so a decaying quantity can stop just above
//! 2.2e-308 rather than go on through the subnormals to 0. On other targets the guard does
//! nothing and says so ([`FlushToZero::supported`]).

/// The thread's floating-point control while flushing; the previous value is restored on drop.
pub struct FlushToZero {
    #[allow(dead_code)]
    saved: u64,
}

impl FlushToZero {
    /// Whether this target can flush subnormals.
    pub const fn supported() -> bool {
        cfg!(any(target_arch = "x86_64", target_arch = "aarch64"))
    }

    /// Starts flushing on the calling thread.
    pub fn set() -> FlushToZero {
        let saved = read();
        write(saved | FLUSH_BITS);
        FlushToZero { saved }
    }
}

impl Drop for FlushToZero {
    fn drop(&mut self) {
        write(self.saved);
    }
}

#[cfg(target_arch = "x86_64")]
const FLUSH_BITS: u64 = (1 << 15) | (1 << 6);
#[cfg(target_arch = "aarch64")]
const FLUSH_BITS: u64 = 1 << 24;
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const FLUSH_BITS: u64 = 0;

#[cfg(target_arch = "x86_64")]
fn read() -> u64 {
    let mut csr: u32 = 0;
    // SAFETY: stmxcsr stores the 32-bit MXCSR to the given valid, writable location.
    unsafe {
        std::arch::asm!("stmxcsr [{}]", in(reg) &mut csr, options(nostack, preserves_flags));
    }
    u64::from(csr)
}

#[cfg(target_arch = "x86_64")]
fn write(v: u64) {
    let csr = v as u32;
    // SAFETY: ldmxcsr loads MXCSR from a valid location; the value is one read from MXCSR
    // with only the FTZ/DAZ bits changed (reserved bits untouched).
    unsafe {
        std::arch::asm!("ldmxcsr [{}]", in(reg) &csr, options(nostack, preserves_flags));
    }
}

#[cfg(target_arch = "aarch64")]
fn read() -> u64 {
    let v: u64;
    // SAFETY: reading FPCR has no side effects.
    unsafe {
        std::arch::asm!("mrs {}, fpcr", out(reg) v, options(nomem, nostack, preserves_flags));
    }
    v
}

#[cfg(target_arch = "aarch64")]
fn write(v: u64) {
    // SAFETY: writes back a value read from FPCR with only the FZ bit changed.
    unsafe {
        std::arch::asm!("msr fpcr, {}", in(reg) v, options(nomem, nostack, preserves_flags));
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn read() -> u64 {
    0
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn write(_v: u64) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subnormals_flush_while_set_and_come_back_after() {
        if !FlushToZero::supported() {
            return;
        }
        let tiny = std::hint::black_box(f64::MIN_POSITIVE);
        let half = |x: f64| std::hint::black_box(x) * std::hint::black_box(0.5);
        assert!(half(tiny) > 0.0, "subnormal without the guard");
        {
            let _g = FlushToZero::set();
            assert_eq!(half(tiny), 0.0, "flushed to zero");
            let sub = f64::from_bits(1);
            assert_eq!(
                std::hint::black_box(sub) + std::hint::black_box(0.0),
                0.0,
                "a subnormal operand reads as zero"
            );
        }
        assert!(half(tiny) > 0.0, "restored");
    }
}
