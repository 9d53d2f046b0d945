//! Transforms of the step system that some methods are: they start from the forward Euler
//! system and a first plan of it (which gives the model's derivatives in explicit form) and
//! return a new step system for the plan builder.
//!
//! - [`libe`]: linearly implicit Euler (Cellier & Kofman §10.4), for every state or for the
//!   implicit states of mixed mode;
//! - [`multirate`]: fast sub-steps of a partition of the states (§10.5, Howe ch. 8).
//!
//! [`crate::pipeline`] runs them; each result is checked by [`crate::system::verify`].

pub mod libe;
pub mod multirate;
