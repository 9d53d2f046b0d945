//! rtc: a real-time equation compiler. See `ARCHITECTURE.md` at the repository root.

pub mod diag;
pub mod syntax;
pub mod flat;
pub mod flatten;
pub mod symbolic;
pub mod structure;
pub mod cli;
