//! rtc: a real-time equation compiler. See `ARCHITECTURE.md` at the repository root.

pub mod cli;
pub mod codegen;
pub mod compile;
pub mod diag;
pub mod discretize;
pub mod driver;
pub mod flat;
pub mod flatten;
pub mod partition;
pub mod plan;
pub mod run;
pub mod sim;
pub mod structure;
pub mod symbolic;
pub mod syntax;
pub mod system;
