//! The specification's rules (book: "Say no"): `tests/rules/chN.tsv` lists, per chapter of the
//! Modelica 3.6 specification, every rule that makes a model invalid, with what rtc does about
//! it and the small model (`chN/*.mo`, written from the rule's text) that breaks it. Each row
//! with a model is run through `rtc check`'s pipeline: a `checked` or `refused` row's model must
//! fail with exactly the diagnostics of the `.err` beside it (`UPDATE_GOLDEN=1` rewrites them),
//! the first with the row's code; a `warned` row's (a deprecated form the specification asks
//! to be told of) must pass with exactly the warnings of its `.err`; a `needs …` row's must fail; a `not yet` row's must still
//! pass, so that a new check cannot land without its row being updated.

use crate::common;

use rtc::flatten::Options;
use rtc::pipeline::{check_source, with_stack_for};

struct Row {
    chapter: String,
    section: String,
    status: String,
    code: String,
    test: String,
}

fn rows() -> Vec<Row> {
    let dir = common::repo_root().join("tests/rules");
    let mut out = Vec::new();
    for tsv in common::files(&dir, "tsv") {
        let chapter = tsv
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let text = std::fs::read_to_string(&tsv).expect("read table");
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split('\t').collect();
            assert!(f.len() >= 5, "{}: short row {line:?}", tsv.display());
            out.push(Row {
                chapter: chapter.clone(),
                section: f[0].to_string(),
                status: f[2].to_string(),
                code: f[3].to_string(),
                test: f[4].to_string(),
            });
        }
    }
    out
}

/// The options a rule's model is checked with: `(run: --lib DIR --model NAME)` on its first
/// line, else the last top-level class of the file.
fn options(text: &str) -> Options {
    let mut opts = Options::default();
    let first = text.lines().next().unwrap_or_default();
    if let Some(run) = first.split("(run:").nth(1) {
        let args: Vec<&str> = run.trim_end_matches(')').split_whitespace().collect();
        for w in args.windows(2) {
            let v = w[1].trim_end_matches(')');
            match w[0] {
                "--lib" => opts
                    .libs
                    .push(common::repo_root().join("tests/rules").join(v)),
                "--model" => opts.model = Some(v.to_string()),
                _ => {}
            }
        }
    }
    if opts.model.is_none() {
        opts.model = text
            .lines()
            .rev()
            .filter_map(|l| l.strip_prefix("end "))
            .filter_map(|l| l.trim().strip_suffix(';'))
            .next()
            .map(|s| s.trim().to_string());
    }
    opts
}

fn check(path: &std::path::Path) -> Vec<String> {
    let name = path
        .strip_prefix(common::repo_root())
        .unwrap_or(path)
        .display()
        .to_string();
    let bytes = std::fs::read(path).expect("read model");
    let Ok(text) = String::from_utf8(bytes) else {
        // A file that is not UTF-8 is refused by the command line, where it is read.
        let (_, out, err) = common::rtc_in(
            &common::repo_root(),
            &["check", &name, "--short-diagnostics"],
        );
        return (out + &err).lines().map(|l| l.to_string()).collect();
    };
    let opts = options(&text);
    // A library file's path is written from the repository's root, as the model's is.
    let root = format!("{}/", common::repo_root().display());
    with_stack_for(&text.clone(), move || {
        check_source(&name, &text, &opts).short_diagnostics()
    })
    .expect("compile thread")
    .into_iter()
    .map(|l| l.replace(&root, ""))
    .collect()
}

/// The diagnostics `lines` against the `.err` golden beside the model: the difference, if any.
fn golden_diff(path: &std::path::Path, lines: &[&String]) -> Option<String> {
    let out = lines
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    common::golden(&path.with_extension("err"), &out)
}

#[test]
fn every_rule_does_what_its_row_says() {
    let root = common::repo_root().join("tests/rules");
    let rows = rows();
    assert!(rows.len() > 500, "the tables list {} rules", rows.len());
    let mut failures = Vec::new();
    for row in rows.iter().filter(|r| !r.test.is_empty()) {
        let path = root.join(&row.test);
        let diags = check(&path);
        let errors: Vec<&String> = diags
            .iter()
            .filter(|d| d.starts_with("error[") || d.contains(": error["))
            .collect();
        let at = format!("{} §{} {}", row.chapter, row.section, row.test);
        match row.status.as_str() {
            "checked" | "refused" => {
                let Some(first) = errors.first() else {
                    failures.push(format!("{at}: {} but accepted", row.status));
                    continue;
                };
                if !first.contains(&format!("error[{}]", row.code)) {
                    failures.push(format!("{at}: code {} expected, got {first}", row.code));
                }
                failures.extend(golden_diff(&path, &errors));
            }
            // A rule whose breach the specification asks to be told of, not refused (a
            // deprecated form): accepted, with a warning of the row's code first.
            "warned" => {
                if let Some(first) = errors.first() {
                    failures.push(format!("{at}: warned but refused: {first}"));
                    continue;
                }
                let warnings: Vec<&String> = diags
                    .iter()
                    .filter(|d| d.starts_with("warning[") || d.contains(": warning["))
                    .collect();
                let Some(first) = warnings.first() else {
                    failures.push(format!("{at}: warned but nothing said"));
                    continue;
                };
                if !first.contains(&format!("warning[{}]", row.code)) {
                    failures.push(format!("{at}: code {} expected, got {first}", row.code));
                }
                failures.extend(golden_diff(&path, &warnings));
            }
            "not yet" => {
                if let Some(first) = errors.first() {
                    failures.push(format!("{at}: listed as not yet checked, but {first}"));
                }
            }
            s if s.starts_with("needs ") => {
                if errors.is_empty() {
                    failures.push(format!("{at}: listed as `{s}` but accepted"));
                }
            }
            s => failures.push(format!("{at}: unknown status {s:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
