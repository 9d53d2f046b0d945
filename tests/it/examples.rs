//! Every bundled example flattens and passes the structural check; the equation-form and
//! component-form Van-der-Pol lines have the same state count; every class of the standard
//! library instantiates.

use crate::common;

use rtc::flatten::Options;
use rtc::pipeline::{check_source, with_stack_for};

fn check_file(path: &std::path::Path, opts: Options) -> rtc::pipeline::Checked {
    let text = std::fs::read_to_string(path).expect("read example");
    let name = path.display().to_string();
    with_stack_for(&text.clone(), move || check_source(&name, &text, &opts)).expect("thread")
}

#[test]
fn every_example_checks() {
    let dir = common::repo_root().join("examples");
    let files = common::files(&dir, "mo");
    assert!(files.len() >= 6);
    for f in files {
        let c = check_file(&f, Options::default());
        assert!(
            !c.has_errors() && c.summary.is_some(),
            "{}: {:?}",
            f.display(),
            c.short_diagnostics()
        );
        let m = c.model.as_ref().expect("model");
        assert!(
            m.experiment.stop_time.is_some(),
            "{} has no experiment annotation",
            f.display()
        );
    }
}

#[test]
fn vdp_line_equation_and_component_forms_agree() {
    let root = common::repo_root().join("examples");
    for n in [1, 5, 20] {
        let opts = Options {
            params: vec![("n".into(), n as f64)],
            ..Options::default()
        };
        let eq = check_file(&root.join("VdPLine.mo"), opts.clone());
        let comp = check_file(&root.join("VdPLineComponents.mo"), opts);
        let (se, sc) = (
            eq.summary.expect("eq form"),
            comp.summary.expect("component form"),
        );
        // eq. 10.13: iL, uC, n line currents, n line voltages, the load voltage.
        assert_eq!(se.states, 2 * n + 3);
        assert_eq!(sc.states, se.states, "n = {n}");
        assert_eq!(se.equations - se.aliases, se.states);
        // After alias elimination every remaining equation has exactly one unknown to solve.
        assert_eq!(sc.equations - sc.aliases, sc.states + sc.algebraic);
    }
}

#[test]
fn reference_state_names_exist() {
    // The CSV columns of the reference data map onto the equation-form variable names.
    let root = common::repo_root().join("examples");
    let c = check_file(&root.join("VdPLine.mo"), Options::default());
    let m = c.model.expect("model");
    let names: Vec<&str> = m.vars.iter().map(|v| v.name.as_str()).collect();
    for want in ["iL", "uC", "i[1]", "u[1]", "i[5]", "u[5]", "u_l"] {
        assert!(names.contains(&want), "missing {want}: {names:?}");
    }
}

#[test]
fn every_stdlib_class_instantiates() {
    // Each non-partial model and block, as a component of a wrapper model, flattens.
    let mut classes = Vec::new();
    for (path, text) in rtc::flatten::classes::STDLIB {
        let pkg = path
            .trim_end_matches(".mo")
            .replace('/', ".")
            .replace(".package", "");
        let mut stack: Vec<String> = vec![pkg.clone()];
        let mut depth_pkg = vec![];
        for line in text.lines() {
            let t = line.trim_start();
            for kw in ["model ", "block "] {
                if let Some(rest) = t.strip_prefix(kw) {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    let prefix = stack.join(".");
                    classes.push(format!("{prefix}.{name}"));
                }
            }
            if let Some(rest) = t.strip_prefix("package ") {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !path.ends_with(&format!("{name}.mo")) && !path.ends_with("package.mo") {
                    stack.push(name.clone());
                    depth_pkg.push(name);
                }
            }
            if let Some(rest) = t.strip_prefix("end ") {
                let name = rest.trim_end_matches(';');
                if depth_pkg.last().is_some_and(|p| p == name) {
                    depth_pkg.pop();
                    stack.pop();
                }
            }
        }
    }
    assert!(classes.len() > 30, "{classes:?}");
    let mut failures = Vec::new();
    for class in classes {
        let src = format!("model Wrap\n  {class} c;\nend Wrap;\n");
        let c = check_source("wrap.mo", &src, &Options::default());
        let errors: Vec<String> = c
            .short_diagnostics()
            .into_iter()
            .filter(|d| {
                d.contains("error[")
                    && !d.contains("error[unbalanced]")
                    && !d.contains("error[singular]")
            })
            .collect();
        let partial = errors.iter().any(|d| d.contains("error[partial]"));
        if !errors.is_empty() && !partial {
            failures.push(format!("{class}: {errors:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every model the book shows flattened (`@@run DIR rtc flatten FILE.mo` in
/// `book/gen/tpl/*.md`, without `--lib`) checks without errors: a check added later that
/// rejects a book example (the `discrete Real` assigned outside a when-clause of
/// `Prefixes.mo`) fails here rather than in a chapter rendered with an error in place of the
/// flat model.
#[test]
fn every_model_the_book_flattens_checks() {
    let root = common::repo_root();
    let mut seen = 0;
    for tpl in common::files(&root.join("book/gen/tpl"), "md") {
        let text = std::fs::read_to_string(&tpl).expect("read chapter");
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let ["@@run", dir, "rtc", "flatten", file, rest @ ..] = words.as_slice() else {
                continue;
            };
            if rest.first() == Some(&"--lib") {
                continue;
            }
            let path = match *dir {
                "tmp" => root.join("book/gen/models").join(file),
                _ => root.join(file),
            };
            let c = check_file(&path, Options::default());
            assert!(
                !c.has_errors(),
                "{}: {:?}",
                path.display(),
                c.short_diagnostics()
            );
            seen += 1;
        }
    }
    assert!(seen >= 15, "{seen} flattened models found");
}
