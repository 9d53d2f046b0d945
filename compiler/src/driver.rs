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
            Ok(mut s) => {
                diagnostics.append(&mut s.warnings);
                summary = Some(s);
            }
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

/// Stack needed to parse and flatten `text` safely. Recursion in the parser, the AST builder
/// and expression evaluation follows the nesting of the source: brackets, and `if` nested
/// after `then`/`else` (if-expressions and if-equations nest without brackets). The estimate
/// is an upper bound on that depth times a per-level budget measured on debug builds.
pub fn stack_size_for(text: &str) -> usize {
    const PER_LEVEL: usize = 256 << 10;
    let mut depth = 0usize;
    let mut max_depth = 0usize;
    for b in text.bytes() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                max_depth = max_depth.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let mut nested_ifs = 0usize;
    let mut prev: &str = "";
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if word.is_empty() {
            continue;
        }
        if word == "if" && (prev == "then" || prev == "else" || prev == "loop") {
            nested_ifs += 1;
        }
        if word == "for" && (prev == "then" || prev == "else" || prev == "loop") {
            nested_ifs += 1;
        }
        prev = word;
    }
    (16 << 20) + (max_depth.min(MAX_BRACKETS) + nested_ifs + 16) * PER_LEVEL
}

/// The parser refuses deeper bracket nesting than this before recursing.
const MAX_BRACKETS: usize = 200;

/// Why [`with_stack_for`] could not return a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadError {
    /// The input nests too deeply for a stack this machine can give.
    TooDeep,
    /// The compiler panicked: a bug.
    Panicked,
}

/// Runs `f` on a thread whose stack fits `text` (see [`stack_size_for`]).
pub fn with_stack_for<T: Send + 'static>(
    text: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ThreadError> {
    let size = stack_size_for(text);
    if size > (32usize << 30) {
        return Err(ThreadError::TooDeep);
    }
    let handle = std::thread::Builder::new()
        .stack_size(size)
        .spawn(f)
        .map_err(|_| ThreadError::TooDeep)?;
    handle.join().map_err(|_| ThreadError::Panicked)
}
