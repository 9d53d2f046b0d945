//! rtc-runtime: the fixed-frame real-time loop that runs compiled step functions.
//!
//! This crate will hold the real-time clock (absolute deadlines on a monotonic clock), sampled
//! inputs and outputs, the mailbox for external events and the overrun policy (Cellier &
//! Kofman §10.1, §10.9–10.10). It knows nothing of the compiler: it runs any step function
//! together with its memory layout. It is empty until the code generation milestone gives it
//! a step function to run.
