//! `rtc plot`: a CSV that `rtc run` wrote, drawn as SVG ([`crate::export::plot`]); and the
//! helpers `rtc run --plot` shares.

use super::PlotArgs;
use crate::diag::Diagnostic;
use std::path::Path;

fn file_error(msg: String) -> Box<Diagnostic> {
    Box::new(Diagnostic::error("file", msg))
}

/// A results CSV: the `time` column and the others by name.
pub struct Table {
    pub time: Vec<f64>,
    pub columns: Vec<(String, Vec<f64>)>,
}

/// Reads a CSV with a header `time,<names>` and numbers (as rtc writes them: `NaN`, `inf`
/// included); errors name the file and line.
pub fn read_table(path: &Path) -> Result<Table, Box<Diagnostic>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| file_error(format!("cannot read {}: {e}", path.display())))?;
    let at = |line: usize, msg: String| file_error(format!("{}:{line}: {msg}", path.display()));
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, head)) = lines.next() else {
        return Err(at(
            1,
            "empty file; expected a header `time,<variable>,...`".into(),
        ));
    };
    let fields = rtc_runtime::io::csv_fields(head);
    let names: Vec<&str> = fields.iter().map(String::as_str).collect();
    if names.first() != Some(&"time") {
        return Err(at(1, "the first column must be `time`".into()));
    }
    let mut time = Vec::new();
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); names.len() - 1];
    for (i, line) in lines {
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        if cells.len() != names.len() {
            return Err(at(
                i + 1,
                format!("{} values, the header has {}", cells.len(), names.len()),
            ));
        }
        let mut row = Vec::with_capacity(cells.len());
        for c in cells {
            row.push(
                c.parse::<f64>()
                    .map_err(|_| at(i + 1, format!("`{c}` is not a number")))?,
            );
        }
        time.push(row[0]);
        for (k, col) in cols.iter_mut().enumerate() {
            col.push(row[k + 1]);
        }
    }
    Ok(Table {
        time,
        columns: names[1..].iter().map(|n| n.to_string()).zip(cols).collect(),
    })
}

/// The times (first column) of an event log `rtc run --event-log` wrote.
fn event_times(path: &Path) -> Result<Vec<f64>, Box<Diagnostic>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| file_error(format!("cannot read {}: {e}", path.display())))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let first = line.split(',').next().unwrap_or("").trim();
        if first.is_empty() {
            continue;
        }
        out.push(first.parse::<f64>().map_err(|_| {
            file_error(format!(
                "{}:{}: `{first}` is not an event time",
                path.display(),
                i + 1
            ))
        })?);
    }
    Ok(out)
}

/// Writes `svg` to `path`.
pub fn write_svg(
    path: &Path,
    svg: Result<String, crate::export::plot::PlotError>,
) -> Result<(), Box<Diagnostic>> {
    let svg = svg.map_err(|e| Box::new(Diagnostic::error("plot", e.to_string())))?;
    std::fs::write(path, svg)
        .map_err(|e| file_error(format!("cannot write {}: {e}", path.display())))
}

fn plot_inner(a: &PlotArgs) -> Result<(), Box<Diagnostic>> {
    let table = read_table(&a.csv)?;
    let mut series = Vec::new();
    if a.vars.is_empty() {
        series = table.columns;
    } else {
        for v in &super::args::names(&a.vars) {
            let Some(col) = table.columns.iter().find(|(n, _)| n == v) else {
                let names: Vec<&str> = table.columns.iter().map(|(n, _)| n.as_str()).collect();
                let mut d = Diagnostic::error(
                    "command-line",
                    format!("--vars: {} has no column `{v}`", a.csv.display()),
                );
                let owned: Vec<String> = names.iter().map(|n| n.to_string()).collect();
                if let Some(s) = crate::diag::suggest(v, &owned) {
                    d = d.help(format!("did you mean `{s}`?"));
                } else {
                    d = d.help(format!("its columns: {}", names.join(", ")));
                }
                return Err(Box::new(d));
            };
            series.push(col.clone());
        }
    }
    let events = match &a.events {
        Some(p) => event_times(p)?,
        None => Vec::new(),
    };
    let title = a.title.clone().unwrap_or_else(|| {
        a.csv
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    write_svg(
        &a.out,
        crate::export::plot::time_series(&title, &table.time, &series, &events),
    )
}

pub fn plot(a: &PlotArgs) -> u8 {
    match plot_inner(a) {
        Ok(()) => 0,
        Err(d) => {
            super::print_diagnostics(&[*d], &crate::diag::SourceMap::default(), false);
            1
        }
    }
}
