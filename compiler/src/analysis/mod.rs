//! Analyses of a model's dynamics, apart from compiling it: the linearisation at the initial
//! point and the automatic fast/slow partition ([`partition`], Cellier & Kofman §10.7), and
//! Howe's dynamic error measures of a method at a step ([`accuracy`]). The pipeline turns them
//! into `rtc analyze`'s reports, the default method and the run's warnings.

pub mod accuracy;
pub mod eigen;
pub mod partition;
