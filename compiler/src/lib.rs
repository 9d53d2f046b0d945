//! rtc: a real-time equation compiler. See `ARCHITECTURE.md` at the repository root.

pub mod diag;
pub mod syntax;
