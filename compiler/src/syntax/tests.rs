use super::*;
use crate::diag::FileId;

fn ok(src: &str) -> ast::StoredDefinition {
    match parse(src, FileId(0)) {
        Ok(sd) => sd,
        Err(d) => panic!("parse failed: {:?}\n{src}", d.message),
    }
}

fn err(src: &str) -> Box<crate::diag::Diagnostic> {
    match parse(src, FileId(0)) {
        Ok(_) => panic!("expected a syntax error:\n{src}"),
        Err(d) => d,
    }
}

#[test]
fn minimal_model() {
    let sd = ok("model M Real x(start = 1); equation der(x) = -x; end M;");
    assert_eq!(sd.classes.len(), 1);
    assert_eq!(&*sd.classes[0].name.name, "M");
}

#[test]
fn mismatched_end_name() {
    let d = err("model M end N;");
    assert!(d.message.contains("closed with `end N`"), "{}", d.message);
}

#[test]
fn missing_semicolon_points_at_position() {
    let src = "model M\n  Real x\nequation\n  x = 1;\nend M;";
    let d = err(src);
    let (span, _) = d.primary.clone().unwrap();
    // The error is reported where `;` is missing: right after `Real x` on line 2.
    assert_eq!(&src[..span.start as usize], "model M\n  Real x");
    assert!(d.message.contains("`;`"), "{}", d.message);
    assert!(d.message.contains("expected"), "{}", d.message);
}
