//! SVG plots: `rtc run --plot`, `rtc plot`, `rtc analyze --errors --plot`. The SVG parses as
//! XML and holds the series it should: one line per variable with one point per recorded row,
//! the legend's names, the events, the model's hλ.

use crate::common;
use std::process::Command;

fn rtc() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rtc"));
    c.current_dir(common::repo_root())
        .env_remove("MODELICAPATH");
    c
}

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("rtc-plot-{}-{name}", std::process::id()))
}

/// Legend and label texts, and the data lines (stroke width 2) with their point counts.
fn svg_parts(path: &std::path::Path) -> (Vec<String>, Vec<usize>, usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG parses");
    let texts = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect();
    let lines = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some("2"))
        .map(|n| {
            n.attribute("points")
                .unwrap_or("")
                .split_whitespace()
                .count()
        })
        .collect();
    let circles = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .count();
    (texts, lines, circles)
}

#[test]
fn run_plot_has_every_recorded_row_and_the_events() {
    let (svg, csv, events) = (tmp("ball.svg"), tmp("ball.csv"), tmp("ball-events.csv"));
    let o = rtc()
        .args(["run", "examples/BouncingBall.mo", "--stop", "3", "--plot"])
        .arg(&svg)
        .arg("--out")
        .arg(&csv)
        .arg("--event-log")
        .arg(&events)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = std::fs::read_to_string(&csv).unwrap().lines().count() - 1;
    let n_events = std::fs::read_to_string(&events).unwrap().lines().count() - 1;
    assert!(n_events > 3);
    let (texts, lines, _) = svg_parts(&svg);
    for name in ["h", "v", &format!("events ({n_events})"), "BouncingBall"] {
        assert!(
            texts.iter().any(|t| t == name),
            "no text `{name}` in {texts:?}"
        );
    }
    // Two variables; each line has a point per row (the plotters line may drop points that
    // fall on the same pixel, never add).
    let data: Vec<usize> = lines.iter().copied().filter(|&n| n > 2).collect();
    assert_eq!(data.len(), 2, "{lines:?}");
    for n in data {
        assert!(n <= rows && n * 2 >= rows, "{n} points for {rows} rows");
    }
    // `rtc plot` of the same CSV, one variable, with the event log.
    let one = tmp("ball-v.svg");
    let o = rtc()
        .arg("plot")
        .arg(&csv)
        .args(["--vars", "v", "--events"])
        .arg(&events)
        .arg("-o")
        .arg(&one)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (texts, lines, _) = svg_parts(&one);
    assert!(texts.iter().any(|t| t == "v") && !texts.iter().any(|t| t == "h"));
    assert_eq!(lines.iter().filter(|&&n| n > 2).count(), 1);
    // A column that is not there: a diagnostic that names the closest one, exit 1.
    let o = rtc()
        .arg("plot")
        .arg(&csv)
        .args(["--vars", "vv", "-o"])
        .arg(&one)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no column `vv`") && err.contains("did you mean `v`"),
        "{err}"
    );
}

#[test]
fn accuracy_plot_marks_every_mode() {
    let svg = tmp("dc.svg");
    let o = rtc()
        .args([
            "analyze",
            "examples/DCMotor.mo",
            "--errors",
            "--method",
            "rk4",
            "--step",
            "0.02",
            "--plot",
        ])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (texts, lines, circles) = svg_parts(&svg);
    for name in ["stability boundary", "model hλ", "h = 0.02"] {
        assert!(texts.iter().any(|t| t == name), "no `{name}` in {texts:?}");
    }
    // Two real modes: two λ curves, two hλ markers (and the legend's marker).
    assert_eq!(
        texts.iter().filter(|t| t.starts_with("λ = ")).count(),
        2,
        "{texts:?}"
    );
    assert_eq!(circles, 3);
    assert!(
        lines.len() > 20,
        "boundary segments and curves: {}",
        lines.len()
    );
}
