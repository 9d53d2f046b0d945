//! rtc: a real-time equation compiler. See `ARCHITECTURE.md` at the repository root.

pub mod analysis;
pub mod cli;
pub mod clib;
pub mod codegen;
pub mod diag;
pub mod discretize;
pub mod export;
pub mod flat;
pub mod flatten;
pub mod initialization;
pub mod pipeline;
pub mod plan;
pub mod sim;
pub mod structure;
pub mod symbolic;
pub mod syntax;
pub mod system;
pub mod transform;
