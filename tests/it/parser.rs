//! Parser tests over the grammar: a file using every production parses, small fragments of
//! each construct parse, and malformed input gives a syntax error at the right place.

use crate::common;

use rtc::diag::{FileId, SourceMap};
use rtc::syntax;

fn parses(src: &str) -> Result<syntax::ast::StoredDefinition, String> {
    let mut sm = SourceMap::new();
    let id = sm.add("t.mo", src);
    syntax::parse(src, id).map_err(|d| d.short(&sm))
}

#[test]
fn grammar_tour_parses() {
    for f in common::files(&common::repo_root().join("tests/parser"), "mo") {
        let text = std::fs::read_to_string(&f).expect("read");
        if let Err(e) = parses(&text) {
            panic!("{}: {e}", f.display());
        }
    }
}

#[test]
fn fragments_parse() {
    let ok = [
        "model M end M;",
        "model M Real x; equation x = 1; end M;",
        "package P model A end A; model B extends A; end B; end P;",
        "model M parameter Real p[2,3] = fill(1, 2, 3); end M;",
        "model M Real x; equation x = if time > 1 then 1 elseif time > 0 then 2 else 3; end M;",
        "model M Real x; equation x = ({{1,2},{3,4}})[1, 2]; end M;",
        "model M Real x[3]; equation x = {i for i in 1:3}; end M;",
        "model M Real 'a b'; equation 'a b' = 1; end M;",
        "model M Real x; equation x = -2^2; end M;",
        "model M Real x; equation x = 2*(-3); end M;",
        "model M Real x; equation x = a.b[1].c[2, :]; end M;",
        "final model M end M;",
        "within; model M end M;",
        "model M annotation(__Vendor_flag = true); end M;",
        "model M Real x \"desc\" annotation(HideResult = true); end M;",
        "function f input Real x; output Real y; algorithm y := x; end f;",
        "model M Real x; equation x = f(a = 1, b = 2); end M;",
        "model M Real x; equation x = initial(); end M;",
        "model M Real x; equation (x) = 1; end M;",
        "operator function f end f;",
    ];
    for src in ok {
        if let Err(e) = parses(src) {
            panic!("{src}\n{e}");
        }
    }
}

#[test]
fn syntax_errors_are_located() {
    // (source, byte offset where the error must be reported, word in the message)
    let bad: [(&str, usize, &str); 8] = [
        ("model M Real x equation x = 1; end M;", 15, "expected"),
        ("model M Real x; equation x = ; end M;", 29, "expression"),
        ("model M Real x; equation x = 1 end M;", 31, "expected"),
        ("model M end N;", 12, "end N"),
        ("model M Real end; end M;", 13, "identifier"),
        ("model M Real x; equation x = (1; end M;", 31, "expected"),
        ("model M Real x; equation x = 1 +; end M;", 32, "expected"),
        ("model", 5, "class name"),
    ];
    for (src, at, word) in bad {
        let mut sm = SourceMap::new();
        let id = sm.add("t.mo", src);
        match syntax::parse(src, id) {
            Ok(_) => panic!("expected an error: {src}"),
            Err(d) => {
                let (span, _) = d.primary.clone().expect("located");
                assert_eq!(span.file, FileId(0));
                assert_eq!(span.start as usize, at, "{src}: {}", d.message);
                assert!(d.message.contains(word), "{src}: {}", d.message);
            }
        }
    }
}

#[test]
fn keywords_are_not_identifiers() {
    assert!(parses("model M Real model; end M;").is_err());
    assert!(parses("model M Real endx; Real if_; Real modelName; end M;").is_ok());
}
