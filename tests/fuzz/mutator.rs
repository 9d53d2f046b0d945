//! Structure-aware mutations of Modelica source for fuzzing the front end.
//!
//! Shared by the bounded fuzz test (`tests/fuzz.rs`) and the long campaign
//! (`cargo run --release -p rtc --example fuzz`). A source is cut into tokens (identifiers,
//! numbers, strings, punctuation, whitespace and comments) and its classes are found
//! (`model M … end M;`, short classes `type T = …;`); mutations then work on tokens and classes:
//! identifiers swapped between files, classes duplicated, deleted or nested into others,
//! cyclic `extends`, imports and components, huge numbers and strings, type confusion, deep
//! nesting, and plain byte edits. Everything is deterministic in the seed of [`Rng`].

#![allow(dead_code)]

/// xorshift64*: small, fast, deterministic.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }

    pub fn pick<'t, T>(&mut self, items: &'t [T]) -> Option<&'t T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.below(items.len())])
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Keyword,
    Number,
    Str,
    Punct,
    Space,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub kind: Kind,
    pub text: String,
}

const KEYWORDS: &[&str] = &[
    "algorithm",
    "and",
    "annotation",
    "block",
    "break",
    "class",
    "connect",
    "connector",
    "constant",
    "constrainedby",
    "der",
    "discrete",
    "each",
    "else",
    "elseif",
    "elsewhen",
    "encapsulated",
    "end",
    "enumeration",
    "equation",
    "expandable",
    "extends",
    "external",
    "false",
    "final",
    "flow",
    "for",
    "function",
    "if",
    "import",
    "impure",
    "in",
    "initial",
    "inner",
    "input",
    "loop",
    "model",
    "not",
    "operator",
    "or",
    "outer",
    "output",
    "package",
    "parameter",
    "partial",
    "protected",
    "public",
    "pure",
    "record",
    "redeclare",
    "replaceable",
    "return",
    "stream",
    "then",
    "true",
    "type",
    "when",
    "while",
    "within",
];

const CLASS_KEYWORDS: &[&str] = &[
    "model",
    "class",
    "record",
    "block",
    "connector",
    "package",
    "type",
    "function",
];

/// Cuts `text` into tokens; concatenating their texts gives `text` back.
pub fn lex(text: &str) -> Vec<Token> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        let kind = if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            Kind::Space
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            Kind::Space
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i = (i + 2).min(b.len());
            Kind::Space
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(b.len());
            Kind::Str
        } else if c.is_ascii_digit() {
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'.'
                    || ((b[i] == b'+' || b[i] == b'-') && matches!(b[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            Kind::Number
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if KEYWORDS.contains(&&text[start..i]) {
                Kind::Keyword
            } else {
                Kind::Ident
            }
        } else {
            // One character (UTF-8 sequences kept whole).
            i += 1;
            while i < b.len() && (b[i] & 0xC0) == 0x80 {
                i += 1;
            }
            Kind::Punct
        };
        // Never split inside a UTF-8 sequence.
        while i < b.len() && (b[i] & 0xC0) == 0x80 {
            i += 1;
        }
        out.push(Token {
            kind,
            text: text[start..i].to_string(),
        });
    }
    out
}

pub fn join(tokens: &[Token]) -> String {
    tokens.iter().map(|t| t.text.as_str()).collect()
}

/// A class found in a token list: `[start, end)` token range, its name and where its body
/// starts (after the header line's name and description, for long classes).
#[derive(Clone, Debug)]
pub struct ClassSpan {
    pub start: usize,
    pub end: usize,
    pub name: String,
    pub body: Option<usize>,
    /// Dotted name through the enclosing classes.
    pub full_name: String,
}

fn next_solid(tokens: &[Token], mut k: usize) -> Option<usize> {
    while k < tokens.len() {
        if tokens[k].kind != Kind::Space {
            return Some(k);
        }
        k += 1;
    }
    None
}

/// The classes of a token list (long ones by matching `end Name;`, short ones up to `;`).
pub fn classes(tokens: &[Token]) -> Vec<ClassSpan> {
    let mut out = Vec::new();
    let mut stack: Vec<(usize, String, usize)> = Vec::new();
    let mut k = 0;
    let mut prev_solid: Option<usize> = None;
    while k < tokens.len() {
        let t = &tokens[k];
        if t.kind == Kind::Space {
            k += 1;
            continue;
        }
        let after_end = prev_solid.is_some_and(|p| tokens[p].text == "end");
        if t.kind == Kind::Keyword && CLASS_KEYWORDS.contains(&t.text.as_str()) && !after_end {
            if let Some(n) = next_solid(tokens, k + 1) {
                if tokens[n].kind == Kind::Ident {
                    let name = tokens[n].text.clone();
                    let after = next_solid(tokens, n + 1);
                    if after.is_some_and(|a| tokens[a].text == "=") {
                        // Short class: up to the next `;`.
                        let mut e = n;
                        while e < tokens.len() && tokens[e].text != ";" {
                            e += 1;
                        }
                        let prefix: Vec<&str> = stack.iter().map(|s| s.1.as_str()).collect();
                        let full = if prefix.is_empty() {
                            name.clone()
                        } else {
                            format!("{}.{name}", prefix.join("."))
                        };
                        out.push(ClassSpan {
                            start: k,
                            end: (e + 1).min(tokens.len()),
                            name,
                            body: None,
                            full_name: full,
                        });
                        prev_solid = Some(n);
                        k = n + 1;
                        continue;
                    }
                    // Body after the optional description string.
                    let mut body = n + 1;
                    if let Some(a) = after {
                        if tokens[a].kind == Kind::Str {
                            body = a + 1;
                        }
                    }
                    stack.push((k, name, body));
                    prev_solid = Some(n);
                    k = n + 1;
                    continue;
                }
            }
        }
        if after_end && t.kind == Kind::Ident {
            if let Some(pos) = stack.iter().rposition(|s| s.1 == t.text) {
                let semi = next_solid(tokens, k + 1)
                    .filter(|&s| tokens[s].text == ";")
                    .map_or(k + 1, |s| s + 1);
                let prefix: Vec<String> = stack[..pos].iter().map(|s| s.1.clone()).collect();
                let (start, name, body) = stack[pos].clone();
                stack.truncate(pos);
                let full = if prefix.is_empty() {
                    name.clone()
                } else {
                    format!("{}.{name}", prefix.join("."))
                };
                out.push(ClassSpan {
                    start,
                    end: semi,
                    name,
                    body: Some(body),
                    full_name: full,
                });
            }
        }
        prev_solid = Some(k);
        k += 1;
    }
    out
}

/// A corpus file, lexed once.
#[derive(Clone, Debug)]
pub struct Seed {
    pub name: String,
    pub tokens: Vec<Token>,
    pub classes: Vec<ClassSpan>,
    pub idents: Vec<String>,
}

impl Seed {
    pub fn new(name: &str, text: &str) -> Seed {
        let tokens = lex(text);
        let classes = classes(&tokens);
        let mut idents: Vec<String> = tokens
            .iter()
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| t.text.clone())
            .collect();
        idents.sort();
        idents.dedup();
        Seed {
            name: name.to_string(),
            tokens,
            classes,
            idents,
        }
    }
}

/// Snippets inserted between tokens.
const VOCAB: &[&str] = &[
    ";",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ".",
    ":",
    "=",
    ":=",
    "+",
    "-",
    "*",
    "/",
    "^",
    "<",
    ">=",
    "==",
    "<>",
    " end ",
    " end M;",
    " model M ",
    " extends ",
    " connect(a, b);",
    " der(",
    " pre(",
    " each ",
    " flow ",
    " stream ",
    " inner ",
    " outer ",
    " replaceable ",
    " redeclare ",
    " parameter ",
    " constant ",
    " input ",
    " output ",
    " discrete ",
    " if ",
    " then ",
    " else ",
    " elseif ",
    " for i in 1:3 loop ",
    " end for;",
    " when ",
    " end when;",
    " while ",
    " loop ",
    " algorithm ",
    " equation ",
    " initial equation ",
    " protected ",
    " function f input Real u; output Real y; algorithm y := u; end f;",
    " record R Real a; end R;",
    " annotation(experiment(StopTime = 1))",
    " true ",
    " false ",
    " \"s\" ",
    " time ",
    " sample(0, 0.1) ",
    " noEvent(",
    " size(",
    " zeros(",
    " fill(",
    " sum(",
    " end ",
    " :",
    " Real ",
    " Integer ",
    " Boolean ",
    " String ",
    " x ",
    " y[2] ",
    " .x ",
    " enumeration(a, b) ",
    " assert(false, \"no\");",
    " terminate(\"t\");",
    " reinit(x, 0);",
    " initial() ",
    " within ;",
    " import Modelica.*;",
    " import A = B.C;",
    " encapsulated ",
    " partial ",
    " final ",
    " constrainedby ",
    " expandable ",
    " operator ",
    " external \"C\" ",
    " for ",
    " in ",
    " not ",
    " and ",
    " or ",
    " break ",
    " return ",
];

const NUMBERS: &[&str] = &[
    "1e308",
    "1e309",
    "1e-400",
    "99999999999999999999999",
    "4294967297",
    "2147483648",
    "9223372036854775808",
    "0",
    "0.0",
    "1.7976931348623157e308",
    "5e-324",
    "100000000",
    "1000000",
    "50000001",
    "3.5",
    "-1",
    "1e15",
];

const STRINGS: &[&str] = &[
    "\"\"",
    "\"\\\"\"",
    "\"\\\\\"",
    "\"line\\nbreak\"",
    "\"é∑🦀\"",
    "\"%s%n\"",
];

/// Applies one to five mutations to `seeds[target]`, borrowing material from all seeds.
/// Returns the text and, where the mutation chose one, a class to flatten (`--model`).
pub fn mutate(seeds: &[Seed], target: usize, rng: &mut Rng) -> (String, Option<String>) {
    let seed = &seeds[target];
    let mut tokens = seed.tokens.clone();
    let count = 1 + rng.below(5);
    for _ in 0..count {
        mutate_once(seeds, target, &mut tokens, rng);
    }
    let text = join(&tokens);
    // Flatten one of the resulting classes now and then (stdlib files hold only packages).
    let cls = classes(&lex(&text));
    let model = if rng.chance(1, 2) {
        rng.pick(&cls).map(|c| c.full_name.clone())
    } else {
        None
    };
    (text, model)
}

fn ident_positions(tokens: &[Token]) -> Vec<usize> {
    tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| t.kind == Kind::Ident)
        .map(|(i, _)| i)
        .collect()
}

fn positions_of(tokens: &[Token], kind: Kind) -> Vec<usize> {
    tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| t.kind == kind)
        .map(|(i, _)| i)
        .collect()
}

fn insert_text(tokens: &mut Vec<Token>, at: usize, text: &str) {
    let new = lex(text);
    let at = at.min(tokens.len());
    tokens.splice(at..at, new);
}

fn mutate_once(seeds: &[Seed], target: usize, tokens: &mut Vec<Token>, rng: &mut Rng) {
    let other = &seeds[rng.below(seeds.len())];
    let cls = classes(tokens);
    let n = tokens.len().max(1);
    match rng.below(17) {
        // An identifier from another file.
        0 => {
            let ids = ident_positions(tokens);
            if let (Some(&k), Some(name)) = (rng.pick(&ids), rng.pick(&other.idents)) {
                tokens[k].text = name.clone();
            }
        }
        // Delete a few tokens.
        1 => {
            let s = rng.below(n);
            let e = (s + 1 + rng.below(8)).min(tokens.len());
            if s < e {
                tokens.drain(s..e);
            }
        }
        // Duplicate a range of tokens.
        2 => {
            let s = rng.below(n);
            let e = (s + 1 + rng.below(40)).min(tokens.len());
            if s < e {
                let chunk: Vec<Token> = tokens[s..e].to_vec();
                tokens.splice(e..e, chunk);
            }
        }
        // A keyword, operator or snippet.
        3 => {
            let v = VOCAB[rng.below(VOCAB.len())];
            insert_text(tokens, rng.below(n + 1), v);
        }
        // A range of tokens from another file.
        4 => {
            let m = other.tokens.len();
            if m > 0 {
                let s = rng.below(m);
                let e = (s + 1 + rng.below(60)).min(m);
                let chunk: Vec<Token> = other.tokens[s..e].to_vec();
                let at = rng.below(n + 1).min(tokens.len());
                tokens.splice(at..at, chunk);
            }
        }
        // Duplicate a class (two classes of one name).
        5 => {
            if let Some(c) = rng.pick(&cls) {
                let chunk: Vec<Token> = tokens[c.start..c.end].to_vec();
                tokens.splice(c.end..c.end, chunk);
            }
        }
        // Delete a class.
        6 => {
            if let Some(c) = rng.pick(&cls) {
                tokens.drain(c.start..c.end);
            }
        }
        // Nest a class from another file (or this one) inside a class.
        7 => {
            let src = if rng.chance(1, 2) {
                other
            } else {
                &seeds[target]
            };
            if let (Some(dst), Some(c)) =
                (rng.pick(&cls).and_then(|c| c.body), rng.pick(&src.classes))
            {
                let chunk: Vec<Token> = src.tokens[c.start..c.end].to_vec();
                let at = dst.min(tokens.len());
                tokens.splice(at..at, chunk);
            }
        }
        // Cyclic extends: a class extends itself, an enclosing class, or two extend each other.
        8 => {
            let long: Vec<&ClassSpan> = cls.iter().filter(|c| c.body.is_some()).collect();
            if let (Some(a), Some(b)) = (rng.pick(&long), rng.pick(&long)) {
                let (a, b) = ((*a).clone(), (*b).clone());
                let first = a.body.unwrap_or(a.start);
                let second = b.body.unwrap_or(b.start);
                // Insert at the later position first so the earlier one stays valid.
                let mut edits = vec![
                    (first, format!(" extends {}; ", b.full_name)),
                    (second, format!(" extends {}; ", a.name)),
                ];
                edits.sort_by_key(|e| std::cmp::Reverse(e.0));
                for (at, text) in edits {
                    insert_text(tokens, at, &text);
                }
            }
        }
        // Cyclic import: a class imports itself (or another) and declares a component of it.
        9 => {
            let long: Vec<&ClassSpan> = cls.iter().filter(|c| c.body.is_some()).collect();
            if let (Some(a), Some(b)) = (rng.pick(&long), rng.pick(&cls)) {
                let text = match rng.below(3) {
                    0 => format!(" import Z = {}; Z z; ", b.full_name),
                    1 => format!(" import {}.*; ", b.full_name),
                    _ => format!(" import {}; ", b.full_name),
                };
                insert_text(tokens, a.body.unwrap_or(a.start), &text);
            }
        }
        // A component of the class's own type, or of an enclosing one.
        10 => {
            let long: Vec<&ClassSpan> = cls.iter().filter(|c| c.body.is_some()).collect();
            if let (Some(a), Some(b)) = (rng.pick(&long), rng.pick(&cls)) {
                let text = format!(" {} selfRef; ", b.full_name);
                insert_text(tokens, a.body.unwrap_or(a.start), &text);
            }
        }
        // Huge, tiny or odd numbers.
        11 => {
            let nums = positions_of(tokens, Kind::Number);
            if let Some(&k) = rng.pick(&nums) {
                tokens[k].text = NUMBERS[rng.below(NUMBERS.len())].to_string();
            }
        }
        // Huge or odd strings.
        12 => {
            let strs = positions_of(tokens, Kind::Str);
            if let Some(&k) = rng.pick(&strs) {
                tokens[k].text = if rng.chance(1, 3) {
                    format!("\"{}\"", "x".repeat(1 + rng.below(100_000)))
                } else {
                    STRINGS[rng.below(STRINGS.len())].to_string()
                };
            }
        }
        // Type confusion: numbers become Booleans, strings or names; types change.
        13 => {
            let nums = positions_of(tokens, Kind::Number);
            let ids = ident_positions(tokens);
            if rng.chance(1, 2) {
                if let Some(&k) = rng.pick(&nums) {
                    let names: Vec<String> = ids.iter().map(|&i| tokens[i].text.clone()).collect();
                    tokens[k].text = match rng.below(3) {
                        0 => "true".into(),
                        1 => "\"str\"".into(),
                        _ => rng.pick(&names).cloned().unwrap_or_else(|| "x".into()),
                    };
                }
            } else if let Some(&k) = rng.pick(&ids) {
                if matches!(
                    tokens[k].text.as_str(),
                    "Real" | "Integer" | "Boolean" | "String"
                ) {
                    tokens[k].text = ["Real", "Integer", "Boolean", "String"][rng.below(4)].into();
                }
            }
        }
        // Deep nesting of an expression.
        14 => {
            let ids = ident_positions(tokens);
            if let Some(&k) = rng.pick(&ids) {
                let depth = 1 + rng.below(300);
                let (open, close) = match rng.below(3) {
                    0 => ("(", ")"),
                    1 => ("-(", ")"),
                    _ => ("{", "}"),
                };
                tokens[k].text = format!(
                    "{}{}{}",
                    open.repeat(depth),
                    tokens[k].text,
                    close.repeat(depth)
                );
            }
        }
        // Short classes that name each other.
        15 => {
            if let Some(a) = cls.iter().find(|c| c.body.is_some()) {
                let text = if rng.chance(1, 2) {
                    " type T1 = T2; type T2 = T1; T1 t; "
                } else {
                    " model L = L; L l; "
                };
                insert_text(tokens, a.body.unwrap_or(a.start), text);
            }
        }
        // A random byte.
        _ => {
            let k = rng.below(n);
            if k < tokens.len() {
                let t = &mut tokens[k];
                let c = (rng.below(95) as u8 + 32) as char;
                if t.text.is_char_boundary(t.text.len().min(1)) && !t.text.is_empty() {
                    let cut = t
                        .text
                        .char_indices()
                        .nth(1)
                        .map_or(t.text.len(), |(i, _)| i);
                    t.text.replace_range(0..cut, &c.to_string());
                }
            }
        }
    }
}

/// The seed corpus: the examples, the embedded standard library, the test models and the
/// golden and diagnostic cases, all under the repository root `root`.
pub fn corpus(root: &std::path::Path) -> Vec<Seed> {
    let mut seeds = Vec::new();
    for dir in [
        "examples",
        "tests/models",
        "tests/golden/flatten",
        "tests/golden/plan",
        "tests/diagnostics",
        "tests/language",
    ] {
        let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(root.join(dir))
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|x| x == "mo"));
        files.sort();
        for p in files {
            if let Ok(text) = std::fs::read_to_string(&p) {
                seeds.push(Seed::new(&p.display().to_string(), &text));
            }
        }
    }
    for (path, text) in rtc::flatten::classes::STDLIB {
        seeds.push(Seed::new(path, text));
    }
    seeds
}

/// What one input does to the compiler: parse, flatten and check it (the `--model` given or
/// the file's own), render every diagnostic, and when it checks, build the backward Euler step
/// system and plan. Ok unless the compiler panicked or the input nests too deeply for any
/// stack (both are findings; a stack overflow aborts the process, which the caller sees).
pub fn exercise(text: String, model: Option<String>) -> Result<bool, &'static str> {
    rtc::pipeline::with_stack_for(&text.clone(), move || {
        let opts = rtc::flatten::Options {
            model,
            ..Default::default()
        };
        let c = rtc::pipeline::check_source("fuzz.mo", &text, &opts);
        for d in &c.diagnostics {
            let _ = d.render(&c.sources, false);
        }
        let checked = c.summary.is_some();
        if let (Some(m), true) = (&c.model, checked) {
            let method = rtc::pipeline::Method::BackwardEuler;
            // The step a driver gives (delays are sampled at it).
            let settings = rtc::pipeline::Settings::of(&method)
                .step(Some(m.experiment.interval.unwrap_or(0.01)));
            if let Ok(d) = rtc::pipeline::system(m, &settings) {
                let _ = rtc::plan::build(&d, &rtc::plan::BuildOptions::default());
            }
        }
        checked
    })
    .map_err(|e| match e {
        rtc::pipeline::ThreadError::Panicked => "panic",
        rtc::pipeline::ThreadError::TooDeep => "too deep",
    })
}
