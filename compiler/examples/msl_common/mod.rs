//! What the MSL survey and the verification harness share: the examples below a package,
//! running `rtc` with a time limit, and the first error of its short diagnostics.

use rtc::flatten::classes::{ClassId, ClassTree, Found};
use rtc::syntax::ast;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The `rtc` binary beside the running example program (`target/release/rtc`).
pub fn default_rtc() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|p| Some(p.parent()?.parent()?.join("rtc")))
        .unwrap_or_else(|| PathBuf::from("rtc"))
}

/// The qualified names of the non-partial models with an `experiment` annotation below each
/// package of `packages` (recursively, in name order), with the libraries of `libs` loaded.
pub fn examples_below(libs: &[PathBuf], packages: &[String]) -> Vec<String> {
    let arena = typed_arena::Arena::new();
    let mut tree = ClassTree::new(&arena);
    tree.add_library_paths(libs, None);
    let mut all = Vec::new();
    for p in packages {
        let parts: Vec<&str> = p.split('.').collect();
        let mut cur = tree.top_level(parts[0]);
        for part in &parts[1..] {
            cur = match cur.and_then(|c| tree.member(c, part, 0)) {
                Some(Found::Class(k)) => Some(k),
                _ => None,
            };
        }
        match cur {
            Some(c) => examples(&mut tree, c, &mut all),
            None => eprintln!("no package {p}"),
        }
    }
    all
}

/// Non-partial models below `pkg`, recursively, by qualified name.
fn examples(tree: &mut ClassTree, pkg: ClassId, out: &mut Vec<String>) {
    let mut names = tree.child_names(pkg);
    names.sort();
    for n in names {
        let Some(c) = tree.child(pkg, &n) else {
            continue;
        };
        let info = tree.info(c);
        let Some(def) = info.def else { continue };
        match def.restriction {
            ast::Restriction::Package => examples(tree, c, out),
            ast::Restriction::Model | ast::Restriction::Class | ast::Restriction::Block
                if !def.partial && has_experiment(def) =>
            {
                out.push(info.full_name.clone())
            }
            _ => {}
        }
    }
}

/// Examples carry `annotation(experiment(…))`; the other models below an Examples package are
/// parts of them.
fn has_experiment(def: &ast::ClassDef) -> bool {
    def.description.annotation.as_ref().is_some_and(|ann| {
        ann.args.iter().any(|a| match a {
            ast::Argument::Modify(m) => m.name.to_dotted() == "experiment",
            _ => false,
        })
    })
}

/// `--lib PATH` for every library.
pub fn lib_args(libs: &[PathBuf]) -> Vec<String> {
    libs.iter()
        .flat_map(|l| ["--lib".to_string(), l.display().to_string()])
        .collect()
}

/// Runs `rtc` with a time limit: (exit code, stderr), or `None` on timeout. Standard output
/// goes to `stdout` when given, else nowhere.
pub fn rtc(bin: &Path, args: &[String], timeout: f64) -> Option<(i32, String)> {
    let mut child = Command::new(bin)
        .args(args)
        .env_remove("MODELICAPATH")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start rtc");
    // Read stderr on a thread so a chatty run cannot fill the pipe and block.
    let mut pipe = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut err = String::new();
        let _ = std::io::Read::read_to_string(&mut pipe, &mut err);
        err
    });
    let t0 = Instant::now();
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            let err = reader.join().unwrap_or_default();
            return Some((status.code().unwrap_or(-1), err));
        }
        if t0.elapsed() > Duration::from_secs_f64(timeout) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The first error line of `rtc`'s short diagnostics, without its location (notes such as
/// what index reduction or the initial system did are skipped).
pub fn first_error(err: &str) -> String {
    let line = err
        .lines()
        .find(|l| l.contains("error["))
        .or_else(|| err.lines().find(|l| l.starts_with("rtc: run stopped")))
        .or_else(|| {
            err.lines().find(|l| {
                l.starts_with("rtc:")
                    && !l.starts_with("rtc: note:")
                    && !l.starts_with("rtc: warning:")
                    && !l.starts_with("rtc: events:")
                    && !l.starts_with("rtc: index reduction")
                    && !l.starts_with("rtc:   ")
                    && !l.starts_with("rtc: initial system")
            })
        })
        .unwrap_or("(no message)");
    match line.find("error[") {
        Some(i) => line[i..].to_string(),
        None => line.to_string(),
    }
}
