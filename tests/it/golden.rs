//! Golden tests: each `tests/golden/flatten/X.mo` is flattened and printed; the output must
//! equal `X.flat` beside it. Each `tests/diagnostics/X.mo` must fail with exactly the short
//! diagnostics in `X.err` (code, message and position). `UPDATE_GOLDEN=1 cargo test` rewrites
//! the expected files after an intended change; review the diff before committing.

use crate::common;

use rtc::flatten::Options;
use rtc::pipeline::{check_source, with_stack_for};

fn run(path: &std::path::Path) -> (Option<String>, Vec<String>) {
    let text = std::fs::read_to_string(path).expect("read model");
    let name = format!(
        "{}",
        path.strip_prefix(common::repo_root())
            .unwrap_or(path)
            .display()
    );
    let name = name.trim_start_matches("../").to_string();
    with_stack_for(&text.clone(), move || {
        let c = check_source(&name, &text, &Options::default());
        (c.model.as_ref().map(|m| m.print()), c.short_diagnostics())
    })
    .expect("compile thread")
}

#[test]
fn flatten_golden_files() {
    let dir = common::repo_root().join("tests/golden/flatten");
    let mut failures = Vec::new();
    let cases = common::files(&dir, "mo");
    assert!(!cases.is_empty());
    for mo in &cases {
        let (flat, diags) = run(mo);
        let Some(flat) = flat else {
            failures.push(format!("{}: did not flatten: {diags:?}", mo.display()));
            continue;
        };
        let mut out = flat;
        for d in &diags {
            out.push_str(&format!("// {d}\n"));
        }
        if let Some(diff) = common::golden(&mo.with_extension("flat"), &out) {
            failures.push(diff);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn diagnostic_golden_files() {
    let dir = common::repo_root().join("tests/diagnostics");
    let mut failures = Vec::new();
    let cases = common::files(&dir, "mo");
    assert!(cases.len() >= 15, "one case per diagnostic kind expected");
    for mo in &cases {
        let (_, diags) = run(mo);
        let errors: Vec<&String> = diags.iter().filter(|d| d.contains(": error[")).collect();
        if errors.is_empty() {
            failures.push(format!("{}: expected an error, got none", mo.display()));
            continue;
        }
        let out = diags.join("\n") + "\n";
        if let Some(diff) = common::golden(&mo.with_extension("err"), &out) {
            failures.push(diff);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Runs the analyze goldens of `dir`: each `X.mo` starts with `// args: --method M
/// [--implicit a,b] [--fast x] [--ratio n] --step h [--emit what]`; the `rtc analyze --emit
/// plan` (or `--emit what`) report must equal `X.<ext>`.
fn analyze_goldens(dir: &str, ext: &str) {
    let dir = common::repo_root().join(dir);
    let mut failures = Vec::new();
    let cases = common::files(&dir, "mo");
    assert!(!cases.is_empty());
    for mo in &cases {
        let text = std::fs::read_to_string(mo).expect("read");
        let args: Vec<String> = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// args:"))
            .expect("first line `// args: ...`")
            .split_whitespace()
            .map(|s| s.to_string())
            .collect();
        let get = |k: &str| {
            args.iter()
                .position(|a| a == k)
                .and_then(|i| args.get(i + 1))
                .cloned()
        };
        let list = |k: &str| -> Vec<String> {
            get(k)
                .map(|s| s.split(',').map(|s| s.to_string()).collect())
                .unwrap_or_default()
        };
        let (implicit, fast) = (list("--implicit"), list("--fast"));
        let method_name = get("--method").expect("--method");
        let choice = rtc::pipeline::MethodChoice {
            method: method_name.parse().expect("a method"),
            implicit: &implicit,
            fast: &fast,
            ratio: get("--ratio").map(|r| r.parse().expect("ratio")),
            ..Default::default()
        };
        let method = rtc::pipeline::parse_method(&choice)
            .unwrap_or_else(|d| panic!("{}: {}", mo.display(), d.message));
        let h: Option<f64> = get("--step").map(|s| s.parse().expect("step"));
        let name = format!(
            "{}/{}",
            dir.strip_prefix(common::repo_root())
                .unwrap_or(&dir)
                .display(),
            mo.file_name().unwrap_or_default().to_string_lossy()
        );
        let c = check_source(&name, &text, &Options::default());
        let Some(model) = c.model.as_ref() else {
            failures.push(format!("{}: {:?}", mo.display(), c.short_diagnostics()));
            continue;
        };
        let report = rtc::export::analysis::report(
            model,
            &c.sources,
            &rtc::pipeline::Settings::of(&method),
            h,
            None,
            Some(get("--emit").as_deref().unwrap_or("plan")),
        );
        let out = match report {
            Ok(t) => t,
            Err(d) => format!("error: {}\n", d.message),
        };
        if let Some(diff) = common::golden(&mo.with_extension(ext), &out) {
            failures.push(diff);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn plan_golden_files() {
    analyze_goldens("tests/golden/plan", "plan");
}

/// The step system inline integration makes of one small model, printed for every method
/// (`rtc analyze --emit system`): the formulas, stage copies, `pre` slots and transforms.
#[test]
fn system_golden_per_method() {
    analyze_goldens("tests/golden/system", "system");
}
