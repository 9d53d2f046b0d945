//! The integration tests, in one binary so the compiler and Cranelift link once. One module
//! per area; `common` holds what they share. Run one area with `cargo test --test it NAME::`.

mod accuracy;
mod cli;
mod codegen;
mod common;
mod default_method;
mod delay;
mod embedded;
mod events;
mod examples;
mod external;
mod fmu;
mod functions;
mod fuzz;
mod golden;
mod index;
mod language;
mod layering;
mod methods;
mod models;
mod parser;
mod plots;
mod realtime;
mod rules;
mod tables;
