//! Shared helpers for the end-to-end tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Files with extension `ext` in `dir`, sorted.
pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}

/// Compares `actual` with the file at `expected_path`; with `UPDATE_GOLDEN=1` rewrites it.
/// Returns a description of the difference, if any.
pub fn golden(expected_path: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(expected_path, actual).expect("write golden file");
        return None;
    }
    let expected = std::fs::read_to_string(expected_path).unwrap_or_default();
    if expected == actual {
        return None;
    }
    let mut diff = format!("--- {} (expected)\n+++ actual\n", expected_path.display());
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    for i in 0..e.len().max(a.len()) {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if x == y => {}
            (x, y) => {
                if let Some(x) = x {
                    diff.push_str(&format!("-{i:4}: {x}\n"));
                }
                if let Some(y) = y {
                    diff.push_str(&format!("+{i:4}: {y}\n"));
                }
            }
        }
    }
    diff.push_str("(run with UPDATE_GOLDEN=1 to accept)\n");
    Some(diff)
}
