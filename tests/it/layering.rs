//! The house rules of `ARCHITECTURE.md`, checked on the source: which top-level module of the
//! compiler may use which (the phases form a pipeline with no import cycle), no source file
//! over 1,500 lines, no function over 200 lines.

use crate::common;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every top-level module and the modules it may use (`crate::name`). A module not listed may
/// use nothing; a new module needs an entry and a place in ARCHITECTURE.md.
const ALLOWED: &[(&str, &[&str])] = &[
    ("diag", &[]),
    ("symbolic", &[]),
    ("syntax", &["diag"]),
    ("flat", &["diag", "symbolic"]),
    ("clib", &["diag", "symbolic"]),
    ("flatten", &["clib", "diag", "flat", "symbolic", "syntax"]),
    ("system", &["diag", "flat", "symbolic"]),
    ("structure", &["diag", "flat", "symbolic", "system"]),
    (
        "discretize",
        &["diag", "flat", "structure", "symbolic", "system"],
    ),
    ("plan", &["diag", "flat", "structure", "symbolic", "system"]),
    ("transform", &["diag", "plan", "symbolic", "system"]),
    ("analysis", &["diag", "plan", "symbolic", "system"]),
    (
        "initialization",
        &["diag", "flat", "plan", "structure", "symbolic", "system"],
    ),
    ("codegen", &["diag", "plan", "symbolic"]),
    (
        "sim",
        &["codegen", "diag", "flat", "plan", "symbolic", "system"],
    ),
    (
        "pipeline",
        &[
            "analysis",
            "diag",
            "discretize",
            "flat",
            "flatten",
            "initialization",
            "plan",
            "structure",
            "symbolic",
            "system",
            "transform",
        ],
    ),
    (
        "export",
        &[
            "codegen",
            "diag",
            "flat",
            "pipeline",
            "plan",
            "sim",
            "structure",
            "symbolic",
            "system",
        ],
    ),
    (
        "cli",
        &["clib", "diag", "export", "flat", "pipeline", "sim"],
    ),
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read source directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn src_files() -> Vec<(String, PathBuf)> {
    let src = common::repo_root().join("compiler/src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).expect("inside src").to_path_buf();
            let first = rel.components().next().expect("a component");
            let module = first
                .as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string();
            (module, p)
        })
        .collect()
}

/// The code of a line without its `//` comment (string literals holding `//` are rare enough
/// in this code base to ignore).
fn code_of(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

#[test]
fn modules_use_only_the_phases_below_them() {
    let allowed: BTreeMap<&str, BTreeSet<&str>> = ALLOWED
        .iter()
        .map(|(m, deps)| (*m, deps.iter().copied().collect()))
        .collect();
    let mut violations = Vec::new();
    for (module, path) in src_files() {
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(ok) = allowed.get(module.as_str()) else {
            violations.push(format!(
                "{}: module `{module}` is not in the table",
                path.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&path).expect("read source");
        for (n, line) in text.lines().enumerate() {
            let code = code_of(line);
            let mut rest = code;
            while let Some(i) = rest.find("crate::") {
                let after = &rest[i + 7..];
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != module && !ok.contains(name.as_str()) {
                    violations.push(format!(
                        "{}:{}: `{module}` uses `crate::{name}`",
                        path.display(),
                        n + 1
                    ));
                }
                rest = after;
            }
        }
    }
    assert!(
        violations.is_empty(),
        "imports against ARCHITECTURE.md:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_allowed_imports_have_no_cycle() {
    let graph: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    // Depth-first search with colours.
    fn visit<'a>(
        m: &'a str,
        g: &BTreeMap<&'a str, &'a [&'a str]>,
        state: &mut BTreeMap<&'a str, u8>,
        path: &mut Vec<&'a str>,
    ) -> Option<Vec<&'a str>> {
        match state.get(m) {
            Some(2) => return None,
            Some(1) => {
                let k = path.iter().position(|x| *x == m).unwrap_or(0);
                let mut cycle = path[k..].to_vec();
                cycle.push(m);
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(m, 1);
        path.push(m);
        for d in g.get(m).copied().unwrap_or(&[]) {
            if let Some(c) = visit(d, g, state, path) {
                return Some(c);
            }
        }
        path.pop();
        state.insert(m, 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        let mut path = Vec::new();
        if let Some(c) = visit(m, &graph, &mut state, &mut path) {
            panic!("import cycle: {}", c.join(" -> "));
        }
    }
}

/// The byte offsets of `{` and `}` in `text` that are code (not in comments, strings or
/// character literals), with +1 for an opening and −1 for a closing brace.
fn code_braces(text: &str) -> Vec<(usize, i32)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            b'r' if matches!(b.get(i + 1), Some(b'"') | Some(b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                // A raw string r"…" or r#"…"#.
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                j += 1;
                loop {
                    if j >= b.len() {
                        break;
                    }
                    if b[j] == b'"' && b[j + 1..].iter().take(hashes).all(|&c| c == b'#') {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                i = j;
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'\'' => {
                // A character literal ('x', '\n', '\u{…}') or a lifetime ('a).
                if b.get(i + 1) == Some(&b'\\') {
                    i += 2;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                } else if b.get(i + 2) == Some(&b'\'') {
                    i += 2;
                } else if let Some(len) = text[i + 1..].chars().next().map(char::len_utf8) {
                    if b.get(i + 1 + len) == Some(&b'\'') {
                        i += 1 + len;
                    }
                }
            }
            b'{' => out.push((i, 1)),
            b'}' => out.push((i, -1)),
            _ => {}
        }
        i += 1;
    }
    out
}

#[test]
fn no_file_over_1500_lines_and_no_function_over_200() {
    let mut src_files = Vec::new();
    for dir in ["compiler/src", "runtime/src"] {
        sources(&common::repo_root().join(dir), &mut src_files);
    }
    let mut too_long = Vec::new();
    for path in src_files {
        let text = std::fs::read_to_string(&path).expect("read source");
        let lines = text.lines().count();
        if lines > 1500 {
            too_long.push(format!("{}: {lines} lines", path.display()));
        }
        let braces = code_braces(&text);
        let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
        // Every `fn name` in code: its body runs from the first brace after it to the brace
        // that balances it.
        let mut search = 0;
        while let Some(k) = text[search..].find("fn ") {
            let at = search + k;
            search = at + 3;
            let line_start = text[..at].rfind('\n').map_or(0, |p| p + 1);
            let before = &text[line_start..at];
            let word_start = at == 0 || !text.as_bytes()[at - 1].is_ascii_alphanumeric();
            if !word_start || before.contains("//") || before.contains('"') {
                continue;
            }
            let Some(open) = braces.iter().position(|&(o, d)| o > at && d == 1) else {
                continue;
            };
            // A declaration without a body (`fn f();` in a trait) ends before the brace.
            if text[at..braces[open].0].contains(';') {
                continue;
            }
            let mut depth = 0;
            for &(o, d) in &braces[open..] {
                depth += d;
                if depth == 0 {
                    let n = line_of(o) - line_of(at) + 1;
                    if n > 200 {
                        let name: String = text[at + 3..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        too_long.push(format!(
                            "{}:{}: fn {name} has {n} lines",
                            path.display(),
                            line_of(at)
                        ));
                    }
                    break;
                }
            }
        }
    }
    assert!(too_long.is_empty(), "{}", too_long.join("\n"));
}
