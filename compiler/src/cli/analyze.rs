//! `rtc analyze`: the step system's blocks, tearing and work bound (the report is
//! [`crate::export::analysis`]), the linearisation with `--eigenvalues`.

use super::args::{method_of, step_of};
use super::{fail, load_model, out, AnalyzeArgs};
use crate::pipeline;

pub fn analyze(a: &AnalyzeArgs) -> u8 {
    let Some((flat, sources)) = load_model(&a.model) else {
        return 1;
    };
    let short = a.model.short_diagnostics;
    let method = match method_of(&a.method) {
        Ok(m) => m,
        Err(d) => return fail(d, &sources, short),
    };
    let h = step_of(&a.method, &flat).ok();
    let newton = pipeline::Newton {
        max_iterations: a.method.newton_iterations,
        ..pipeline::Newton::default()
    };
    let automatic = pipeline::needs_partition(&flat, &method);
    if a.eigenvalues || automatic {
        match pipeline::eigenvalue_report(&flat, h) {
            Ok(text) => out(&text),
            Err(d) => return fail(d, &sources, short),
        }
    }
    let method = match pipeline::resolve_method(&flat, method, h) {
        Ok((m, _)) => m,
        Err(d) => return fail(d, &sources, short),
    };
    match crate::export::analysis::report(
        &flat,
        &sources,
        &method,
        h,
        newton,
        a.min_tearing,
        a.emit.as_deref(),
    ) {
        Ok(text) => {
            out(&text);
            0
        }
        Err(d) => fail(d, &sources, short),
    }
}
