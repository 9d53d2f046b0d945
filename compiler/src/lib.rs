//! rtc: a real-time equation compiler. See `ARCHITECTURE.md` at the repository root.

pub mod cli;
pub mod diag;
pub mod driver;
pub mod flat;
pub mod flatten;
pub mod structure;
pub mod symbolic;
pub mod syntax;
