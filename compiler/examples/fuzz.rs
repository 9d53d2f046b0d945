//! The long fuzzing campaign over the front end (parser, flattener, structural check) and the
//! step-system builder, with structure-aware mutations of the examples, the standard library
//! and the test models (`tests/fuzz/mutator.rs`).
//!
//!     cargo run --release -p rtc --example fuzz -- [--execs N] [--jobs J] [--seed S]
//!                                                   [--timeout SECONDS] [--out DIR]
//!
//! Each job is a worker process (this program with `--worker`), so a stack overflow or an
//! abort ends only that worker: the parent saves the input it was running (the worker writes
//! each input to `DIR/current-<job>.mo` before running it) as `DIR/crash-<hash>.mo` and starts
//! the worker again with the next seed. A panic is caught in the worker and saved as
//! `DIR/panic-<hash>.mo`; an input that runs longer than the timeout (default 2 s) is saved
//! as `DIR/hang-<hash>.mo` by the worker's watchdog, which then ends the worker. At the end the
//! parent prints executions, executions per second, and the findings by kind.
//!
//!     cargo run --release -p rtc --example fuzz -- --replay FILE…
//!
//! runs saved findings again (with the `--model` their first line names) and prints how each
//! ends and how long it takes.

#[path = "../../tests/fuzz/mutator.rs"]
mod mutator;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Args {
    execs: u64,
    jobs: usize,
    seed: u64,
    timeout: f64,
    out: PathBuf,
    worker: Option<usize>,
}

fn args() -> Args {
    let mut a = Args {
        execs: 100_000,
        jobs: 2,
        seed: 1,
        timeout: 2.0,
        out: PathBuf::from("target/fuzz"),
        worker: None,
    };
    let v: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < v.len() {
        let val = v.get(i + 1).cloned().unwrap_or_default();
        match v[i].as_str() {
            "--execs" => a.execs = val.parse().expect("--execs N"),
            "--jobs" => a.jobs = val.parse().expect("--jobs J"),
            "--seed" => a.seed = val.parse().expect("--seed S"),
            "--timeout" => a.timeout = val.parse().expect("--timeout SECONDS"),
            "--out" => a.out = PathBuf::from(val),
            "--worker" => a.worker = Some(val.parse().expect("--worker K")),
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    a
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("repository root")
        .to_path_buf()
}

fn hash(text: &str) -> u64 {
    // FNV-1a: names findings by content, so a finding found twice is one file.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

fn save(out: &Path, kind: &str, text: &str, model: &Option<String>, note: &str) -> PathBuf {
    let p = out.join(format!("{kind}-{:016x}.mo", hash(text)));
    let header = format!(
        "// rtc fuzz finding: {kind}{}; {note}\n",
        model
            .as_ref()
            .map(|m| format!(" (rtc check FILE --model {m})"))
            .unwrap_or_default()
    );
    let _ = std::fs::write(&p, format!("{header}{text}"));
    p
}

/// One worker: runs `execs` inputs from its seed, printing progress lines for the parent.
fn worker(a: &Args, job: usize) {
    let seeds = mutator::corpus(&repo_root());
    let mut rng = mutator::Rng::new(a.seed);
    let current = a.out.join(format!("current-{job}.mo"));
    let started = Arc::new(AtomicU64::new(0));
    let epoch = Instant::now();
    let timeout = Duration::from_secs_f64(a.timeout);
    // The watchdog: an input running past the timeout is a hang.
    {
        let started = started.clone();
        let current = current.clone();
        let out = a.out.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(100));
            let s = started.load(Ordering::Relaxed);
            if s == 0 {
                continue;
            }
            let since = epoch.elapsed().as_micros() as u64 - s;
            if since > timeout.as_micros() as u64 {
                let text = std::fs::read_to_string(&current).unwrap_or_default();
                let (model, body) = split_model(&text);
                let p = save(
                    &out,
                    "hang",
                    body,
                    &model,
                    &format!("ran over {:.1} s", since as f64 / 1e6),
                );
                println!("finding hang {}", p.display());
                let _ = std::io::stdout().flush();
                std::process::exit(3);
            }
        });
    }
    std::panic::set_hook(Box::new(|_| {}));
    for k in 0..a.execs {
        let target = rng.below(seeds.len());
        let (text, model) = mutator::mutate(&seeds, target, &mut rng);
        let _ = std::fs::write(
            &current,
            format!(
                "{}{text}",
                model
                    .as_ref()
                    .map(|m| format!("//@model {m}\n"))
                    .unwrap_or_default()
            ),
        );
        started.store(epoch.elapsed().as_micros().max(1) as u64, Ordering::Relaxed);
        let r = mutator::exercise(text.clone(), model.clone());
        started.store(0, Ordering::Relaxed);
        match r {
            Ok(checked) => {
                if checked {
                    println!("checked");
                }
            }
            // Nesting deeper than any stack the machine gives is refused with a diagnostic
            // by the command line; only a panic is a finding.
            Err("too deep") => {}
            Err(kind) => {
                let p = save(&a.out, "panic", &text, &model, kind);
                println!("finding panic {}", p.display());
            }
        }
        if k % 200 == 199 {
            println!("progress 200");
            let _ = std::io::stdout().flush();
        }
    }
    println!("progress {}", a.execs % 200);
    println!("done");
}

/// The `//@model M` line a worker writes before an input, and the input.
fn split_model(text: &str) -> (Option<String>, &str) {
    match text.strip_prefix("//@model ") {
        Some(rest) => {
            let (m, body) = rest.split_once('\n').unwrap_or((rest, ""));
            (Some(m.to_string()), body)
        }
        None => (None, text),
    }
}

/// Runs saved findings again, in process.
fn replay(files: &[String]) {
    for f in files {
        let text = std::fs::read_to_string(f).expect("read finding");
        let first = text.lines().next().unwrap_or("");
        let model = first.split("--model ").nth(1).map(|m| {
            m.trim_end_matches([')', ';'])
                .split(')')
                .next()
                .unwrap_or("")
                .to_string()
        });
        let body = if first.starts_with("// rtc fuzz finding") {
            text.split_once('\n').map_or("", |(_, b)| b).to_string()
        } else {
            text.clone()
        };
        let t0 = Instant::now();
        let r = mutator::exercise(body, model.clone());
        println!(
            "{f}: {} in {:.3} s (model {model:?})",
            match r {
                Ok(true) => "checks".to_string(),
                Ok(false) => "diagnostics".to_string(),
                Err(e) => e.to_string(),
            },
            t0.elapsed().as_secs_f64()
        );
    }
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().is_some_and(|a| a == "--replay") {
        replay(&raw[1..]);
        return;
    }
    let a = args();
    std::fs::create_dir_all(&a.out).expect("output directory");
    if let Some(job) = a.worker {
        worker(&a, job);
        return;
    }
    let exe = std::env::current_exe().expect("own path");
    let per_job = a.execs.div_ceil(a.jobs as u64);
    let t0 = Instant::now();
    let total = Arc::new(AtomicU64::new(0));
    let checked = Arc::new(AtomicU64::new(0));
    let findings = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let mut handles = Vec::new();
    for job in 0..a.jobs {
        let (exe, out, total, checked, findings) = (
            exe.clone(),
            a.out.clone(),
            total.clone(),
            checked.clone(),
            findings.clone(),
        );
        let timeout = a.timeout;
        let base_seed = a
            .seed
            .wrapping_mul(1_000_003)
            .wrapping_add(job as u64 * 7919);
        handles.push(std::thread::spawn(move || {
            let mut remaining = per_job;
            let mut restart = 0u64;
            while remaining > 0 {
                let seed = base_seed.wrapping_add(restart * 104_729);
                let mut child = Command::new(&exe)
                    .args([
                        "--worker",
                        &job.to_string(),
                        "--execs",
                        &remaining.to_string(),
                        "--seed",
                        &seed.to_string(),
                        "--timeout",
                        &timeout.to_string(),
                        "--out",
                        &out.display().to_string(),
                    ])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("start worker");
                let stdout = child.stdout.take().expect("worker output");
                let mut done_here = 0u64;
                let mut finished = false;
                for line in std::io::BufReader::new(stdout)
                    .lines()
                    .map_while(Result::ok)
                {
                    if let Some(n) = line.strip_prefix("progress ") {
                        let n: u64 = n.parse().unwrap_or(0);
                        done_here += n;
                        total.fetch_add(n, Ordering::Relaxed);
                    } else if line == "checked" {
                        checked.fetch_add(1, Ordering::Relaxed);
                    } else if let Some(f) = line.strip_prefix("finding ") {
                        findings.lock().expect("lock").push(f.to_string());
                    } else if line == "done" {
                        finished = true;
                    }
                }
                let status = child.wait().expect("worker status");
                if finished {
                    break;
                }
                // The worker died: a crash (stack overflow, abort) or a hang it reported.
                if status.code() != Some(3) {
                    let cur = out.join(format!("current-{job}.mo"));
                    let text = std::fs::read_to_string(&cur).unwrap_or_default();
                    let (model, body) = split_model(&text);
                    let p = save(
                        &out,
                        "crash",
                        body,
                        &model,
                        &format!("worker ended with {status}"),
                    );
                    findings
                        .lock()
                        .expect("lock")
                        .push(format!("crash {}", p.display()));
                }
                // The input that ended it counts as executed; go on from the next seed.
                done_here += 1;
                total.fetch_add(1, Ordering::Relaxed);
                remaining = remaining.saturating_sub(done_here);
                restart += 1;
            }
        }));
    }
    // Progress on stderr while the workers run.
    let reporter = {
        let total = total.clone();
        let target = a.execs;
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_secs(10));
            let n = total.load(Ordering::Relaxed);
            eprintln!(
                "fuzz: {n} executions, {:.0}/s",
                n as f64 / t0.elapsed().as_secs_f64()
            );
            if n >= target {
                break;
            }
        })
    };
    for h in handles {
        let _ = h.join();
    }
    drop(reporter);
    let n = total.load(Ordering::Relaxed);
    let secs = t0.elapsed().as_secs_f64();
    let f = findings.lock().expect("lock");
    println!(
        "fuzz: {n} executions in {secs:.0} s ({:.0}/s) with {} jobs, seed {}; {} inputs checked (balanced and regular models that reached the step-system builder); {} findings",
        n as f64 / secs,
        a.jobs,
        a.seed,
        checked.load(Ordering::Relaxed),
        f.len()
    );
    for kind in ["crash", "panic", "hang"] {
        let k: Vec<&String> = f.iter().filter(|x| x.starts_with(kind)).collect();
        if !k.is_empty() {
            println!("  {kind}: {}", k.len());
            for x in k.iter().take(20) {
                println!("    {x}");
            }
        }
    }
    if !f.is_empty() {
        std::process::exit(1);
    }
}
