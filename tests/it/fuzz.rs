//! Robustness: random bytes and random mutations of the examples never panic the parser, the
//! flattener or the structural check. Every failure must be a diagnostic.
//!
//! `structure_aware_mutations_never_crash` runs a bounded share of the fuzzing campaign
//! (`cargo run --release -p rtc --example fuzz`, see the book's chapter on testing): the same
//! structure-aware mutator over the same corpus, in process. A stack overflow here aborts the
//! test binary, which fails the run as loudly as a panic.

use crate::common;
#[path = "../fuzz/mutator.rs"]
mod mutator;

use proptest::prelude::*;
use rtc::flatten::Options;
use rtc::pipeline::{check_source, with_stack_for};

fn compiles_without_panic(text: String) -> bool {
    with_stack_for(&text.clone(), move || {
        let c = check_source("fuzz.mo", &text, &Options::default());
        // Touch the rendering path too: it must not panic either.
        for d in &c.diagnostics {
            let _ = d.render(&c.sources, false);
        }
        c.model.is_some() || !c.diagnostics.is_empty()
    })
    .is_ok()
}

fn examples() -> Vec<String> {
    let mut v: Vec<String> = common::files(&common::repo_root().join("examples"), "mo")
        .into_iter()
        .map(|p| std::fs::read_to_string(p).expect("read"))
        .collect();
    for (_, text) in rtc::flatten::classes::STDLIB {
        v.push(text.to_string());
    }
    v
}

#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, String),
    Duplicate(usize, usize),
    Replace(usize, u8),
}

fn apply(text: &str, muts: &[Mutation]) -> String {
    let mut b = text.as_bytes().to_vec();
    for m in muts {
        let n = b.len().max(1);
        match m {
            Mutation::Delete(at, len) => {
                let s = at % n;
                let e = (s + len % 40).min(b.len());
                b.drain(s.min(b.len())..e);
            }
            Mutation::Insert(at, s) => {
                let p = (at % n).min(b.len());
                b.splice(p..p, s.bytes());
            }
            Mutation::Duplicate(at, len) => {
                let s = (at % n).min(b.len());
                let e = (s + len % 200).min(b.len());
                let chunk = b[s..e].to_vec();
                b.splice(e..e, chunk);
            }
            Mutation::Replace(at, c) => {
                if !b.is_empty() {
                    let p = at % b.len();
                    b[p] = *c;
                }
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let token = prop_oneof![
        Just(";".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("end".to_string()),
        Just(" if x then 1 else ".to_string()),
        Just(" der(".to_string()),
        Just(" connect(a, b);".to_string()),
        Just(" for i in 1:0 loop ".to_string()),
        Just("[:]".to_string()),
        Just(" each ".to_string()),
        Just("{}".to_string()),
        Just("1e400".to_string()),
        Just("/0".to_string()),
        Just(" = ".to_string()),
        "[a-z0-9_.]{1,6}".prop_map(|s| s),
    ];
    prop_oneof![
        (any::<usize>(), any::<usize>()).prop_map(|(a, l)| Mutation::Delete(a, l)),
        (any::<usize>(), token).prop_map(|(a, s)| Mutation::Insert(a, s)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, l)| Mutation::Duplicate(a, l)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, c)| Mutation::Replace(a, c)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        prop_assert!(compiles_without_panic(text));
    }

    #[test]
    fn mutated_examples_never_panic(
        which in 0usize..64,
        muts in proptest::collection::vec(mutation(), 1..6),
    ) {
        let ex = examples();
        let text = apply(&ex[which % ex.len()], &muts);
        prop_assert!(compiles_without_panic(text));
    }
}

#[test]
fn deep_nesting_is_a_diagnostic_or_compiles() {
    let deep_parens = format!(
        "model M Real x; equation x = {}1{}; end M;",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    assert!(compiles_without_panic(deep_parens));
    // Just inside the bracket limit, through every kind of bracket.
    for (open, close) in [
        ("(", ")"),
        ("sin(", ")"),
        ("{", "}"),
        ("[", "]"),
        ("f(", ")"),
    ] {
        let text = format!(
            "model M Real x; equation x = {}1{}; end M;",
            open.repeat(199),
            close.repeat(199)
        );
        assert!(compiles_without_panic(text), "{open}");
    }
    let deep_ifs = format!(
        "model M Real x; equation x = {} 0; end M;",
        (0..3000)
            .map(|i| format!("if time > {i} then {i} else"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    assert!(compiles_without_panic(deep_ifs));
}

/// Bounded in CI: 3000 structure-aware mutations (seeded, so a failure repeats), each within
/// the time a hang would exceed by far; the long campaign runs a million.
#[test]
fn structure_aware_mutations_never_crash() {
    let seeds = mutator::corpus(&common::repo_root());
    assert!(seeds.len() > 50, "corpus of {} files", seeds.len());
    let runs: u64 = std::env::var("RTC_FUZZ_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000);
    let mut rng = mutator::Rng::new(20261123);
    let mut checked = 0;
    for k in 0..runs {
        let target = rng.below(seeds.len());
        let (text, model) = mutator::mutate(&seeds, target, &mut rng);
        let t0 = std::time::Instant::now();
        match mutator::exercise(text.clone(), model.clone()) {
            Ok(ok) => checked += usize::from(ok),
            Err("too deep") => {}
            Err(e) => panic!("input {k} ({e}, --model {model:?}):\n{text}"),
        }
        // Debug builds run several times slower than release; 20 s is a hang by any measure.
        let secs = t0.elapsed().as_secs_f64();
        assert!(
            secs < 20.0,
            "input {k} took {secs:.1} s (--model {model:?}):\n{text}"
        );
    }
    // The mutations must leave enough models intact to reach the later phases (about 4 % do
    // in the campaign: most mutations break a model, as they should).
    assert!(
        checked > runs as usize / 50,
        "only {checked} of {runs} inputs checked"
    );
}

#[test]
fn lexer_round_trips_every_seed() {
    let seeds = mutator::corpus(&common::repo_root());
    for s in &seeds {
        let text = mutator::join(&s.tokens);
        let again = mutator::lex(&text);
        assert_eq!(mutator::join(&again), text, "{}", s.name);
    }
    // Classes are found in all but the files that are broken on purpose (an `end` that names
    // another class).
    let without = seeds.iter().filter(|s| s.classes.is_empty()).count();
    assert!(
        without * 20 < seeds.len(),
        "{without} of {} seeds without a class",
        seeds.len()
    );
}
