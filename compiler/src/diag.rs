//! Source files, spans and user-facing diagnostics.
//!
//! Every error a user can cause becomes a [`Diagnostic`]: a message, a labelled primary span,
//! optional secondary labels and a help line. Rendering goes through `miette` so the user sees
//! `file:line:column` and the source line with the span underlined. A diagnostic is data, so
//! phases collect them and the driver decides when to stop; nothing on this path panics.

use std::fmt;
use std::sync::Arc;

/// Index of a file in the [`SourceMap`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both (same file assumed; otherwise `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

pub struct SourceFile {
    pub name: String,
    pub text: Arc<str>,
    /// Byte offsets of line starts, for line/column lookup.
    line_starts: Vec<u32>,
}

impl SourceFile {
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let start = self.line_starts[line] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self
            .text
            .get(start..end)
            .map_or(end - start, |s| s.chars().count());
        (line + 1, col + 1)
    }
}

/// Lines longer than this are not drawn under a diagnostic (see [`Rendered::new`]).
const MAX_DRAWN_LINE: usize = 2000;

impl SourceFile {
    /// Length in bytes of the line holding `offset`.
    pub fn line_len_at(&self, offset: u32) -> usize {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let start = self.line_starts[line] as usize;
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |&e| e as usize);
        end.saturating_sub(start)
    }

    /// Up to `chars` characters of text on each side of the span's start, on one line.
    pub fn excerpt(&self, span: Span, chars: usize) -> String {
        let mut at = (span.start as usize).min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let before: String = self.text[..at]
            .chars()
            .rev()
            .take_while(|&c| c != '\n')
            .take(chars)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let after: String = self.text[at..]
            .chars()
            .take_while(|&c| c != '\n')
            .take(chars)
            .collect();
        format!("{before}{after}")
    }
}

/// All source text the compiler has read, so spans can be shown later.
#[derive(Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        let text: Arc<str> = text.into();
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        self.files.push(SourceFile {
            name: name.into(),
            text,
            line_starts,
        });
        FileId(self.files.len() as u32 - 1)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn text(&self, span: Span) -> &str {
        let f = self.file(span.file);
        f.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// `file:line:col` of a span's start.
    pub fn location(&self, span: Span) -> String {
        let f = self.file(span.file);
        let (l, c) = f.line_col(span.start);
        format!("{}:{}:{}", f.name, l, c)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// A message to the user about their model.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable short code, e.g. `syntax`, `unknown-name`; tests key on it.
    pub code: &'static str,
    pub message: String,
    pub primary: Option<(Span, String)>,
    pub secondary: Vec<(Span, String)>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            help: None,
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    pub fn at(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.primary = Some((span, label.into()));
        self
    }

    pub fn also(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary.push((span, label.into()));
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Whether a label (primary or secondary) points at `span`.
    pub fn has_span(&self, span: Span) -> bool {
        self.primary.as_ref().is_some_and(|(s, _)| *s == span)
            || self.secondary.iter().any(|(s, _)| *s == span)
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// One line: `file:line:col: error[code]: message`. Used by tests and `--diagnostics short`.
    pub fn short(&self, sources: &SourceMap) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match &self.primary {
            Some((span, _)) => format!(
                "{}: {}[{}]: {}",
                sources.location(*span),
                sev,
                self.code,
                self.message
            ),
            None => format!("{}[{}]: {}", sev, self.code, self.message),
        }
    }

    /// Full rendering with the source excerpt, through miette.
    pub fn render(&self, sources: &SourceMap, color: bool) -> String {
        let report = Rendered::new(self, sources);
        let theme = if color {
            miette::GraphicalTheme::unicode()
        } else {
            miette::GraphicalTheme::unicode_nocolor()
        };
        let handler = miette::GraphicalReportHandler::new_themed(theme).with_context_lines(1);
        let mut out = String::new();
        if handler.render_report(&mut out, &report).is_err() {
            return self.short(sources);
        }
        out
    }
}

/// A diagnostic bound to the text of its primary file, as miette wants it.
struct Rendered {
    message: String,
    code: &'static str,
    severity: Severity,
    source: Option<miette::NamedSource<String>>,
    labels: Vec<miette::LabeledSpan>,
    help: Option<String>,
}

impl Rendered {
    fn new(d: &Diagnostic, sources: &SourceMap) -> Rendered {
        let mut labels = Vec::new();
        let mut source = None;
        let mut help = d.help.clone();
        if let Some((span, label)) = &d.primary {
            let f = sources.file(span.file);
            // miette lays out a label by padding to its column, and Rust's formatter refuses
            // widths above 65535: a label far into a very long line is reported by location
            // and an excerpt instead of the drawn source line.
            let too_wide = std::iter::once(*span)
                .chain(d.secondary.iter().map(|(s, _)| *s))
                .filter(|s| s.file == span.file)
                .any(|s| f.line_len_at(s.start) > MAX_DRAWN_LINE);
            if too_wide {
                let excerpt = f.excerpt(*span, 60);
                let at = format!("at {}: {label}: …{excerpt}…", sources.location(*span));
                return Rendered {
                    message: d.message.clone(),
                    code: d.code,
                    severity: d.severity,
                    source: None,
                    labels: Vec::new(),
                    help: Some(match &d.help {
                        Some(h) => format!("{at}\n{h}"),
                        None => at,
                    }),
                };
            }
            source = Some(miette::NamedSource::new(f.name.clone(), f.text.to_string()));
            labels.push(miette::LabeledSpan::new_primary_with_span(
                Some(label.clone()),
                (span.start as usize, (span.end - span.start) as usize),
            ));
            for (s, l) in &d.secondary {
                if s.file == span.file {
                    labels.push(miette::LabeledSpan::new_with_span(
                        Some(l.clone()),
                        (s.start as usize, (s.end - s.start) as usize),
                    ));
                } else {
                    let extra = format!("{}: {}", sources.location(*s), l);
                    help = Some(match help {
                        Some(h) => format!("{h}\n{extra}"),
                        None => extra,
                    });
                }
            }
        }
        Rendered {
            message: d.message.clone(),
            code: d.code,
            severity: d.severity,
            source,
            labels,
            help,
        }
    }
}

impl fmt::Debug for Rendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Rendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rendered {}

impl miette::Diagnostic for Rendered {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.clone().into_iter()))
        }
    }
}

/// The closest candidates to a misspelt name, for a help line.
pub fn suggest(name: &str, candidates: &[String]) -> Option<String> {
    let mut best: Option<(usize, &String)> = None;
    for c in candidates {
        let d = edit_distance(name, c);
        if d <= (name.len().max(2) / 3).max(1) && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.clone())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The result type of phases that stop at the first error they cannot recover from.
pub type DResult<T> = Result<T, Box<Diagnostic>>;
