//! Library entry points that tie the phases together (used by the CLI, tests and benchmarks).

use crate::diag::{Diagnostic, SourceMap};
use crate::flat::FlatModel;
use crate::flatten::{self, classes::ClassTree, Options};
use crate::structure::{self, Summary};

/// The outcome of compiling source text as far as the structural check.
pub struct Checked {
    pub model: Option<FlatModel>,
    pub summary: Option<Summary>,
    pub diagnostics: Vec<Diagnostic>,
    pub sources: SourceMap,
}

impl Checked {
    /// Diagnostics as `file:line:col: error[code]: message` lines.
    pub fn short_diagnostics(&self) -> Vec<String> {
        self.diagnostics
            .iter()
            .map(|d| d.short(&self.sources))
            .collect()
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Parses, flattens and checks `text`. Never panics on any input.
pub fn check_source(file_name: &str, text: &str, opts: &Options) -> Checked {
    let arena = typed_arena::Arena::new();
    let mut tree = ClassTree::new(&arena);
    let outcome = flatten::flatten_source(&mut tree, file_name, text, opts);
    let mut diagnostics = outcome.diagnostics;
    let mut summary = None;
    if let Some(model) = &outcome.model {
        match structure::check(model) {
            Ok(s) => summary = Some(s),
            Err(ds) => diagnostics.extend(ds),
        }
    }
    Checked {
        model: outcome.model,
        summary,
        diagnostics,
        sources: std::mem::take(&mut tree.sources),
    }
}

/// Stack needed to parse and flatten `text` safely: nesting depth drives recursion in the
/// parser and in expression evaluation, so it is bounded from the bracket depth and the
/// number of `if` keywords (if-expressions nest without brackets).
pub fn stack_size_for(text: &str) -> usize {
    let ifs = text.matches("if").count();
    let fors = text.matches("for").count() + text.matches("when").count();
    let depth = 200 + ifs + fors;
    (16 << 20) + depth * (64 << 10)
}

/// Runs `f` on a thread whose stack fits `text` (see [`stack_size_for`]).
pub fn with_stack_for<T: Send + 'static>(
    text: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let size = stack_size_for(text);
    if size > (32usize << 30) {
        return None;
    }
    std::thread::Builder::new()
        .stack_size(size)
        .spawn(f)
        .ok()?
        .join()
        .ok()
}
