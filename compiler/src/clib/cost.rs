//! What is known of the work of one external C call (issue 29, deliverable 5): `rtc analyze`
//! lists it beside the work bound, which counts the calls.
//!
//! The C code is the library's, so its work is not in the bound's flops; what rtc can say is
//! stated per call: a lookup in one of the MSL's tables is a bisection over the table's rows
//! (`ModelicaStandardTables.c`, `findRowIndex`: at most ⌈log2 n⌉ + 1 comparisons) and one
//! interpolation whose coefficients the constructor computed; a LAPACK routine's work grows
//! with the cube of its largest dimension, which its arguments give; any other call is
//! described by the numbers it passes.

use super::shim::{Arg, CTy, Spec};
use std::path::Path;
use std::sync::Mutex;

/// The tables the library's constructors made while the model was compiled: the object's
/// bits and what a lookup in it costs.
static TABLES: Mutex<Vec<(u64, String)>> = Mutex::new(Vec::new());

/// ⌈log2 n⌉ + 1: the comparisons of a bisection over `n` rows.
fn bisection(n: usize) -> usize {
    (usize::BITS - n.saturating_sub(1).leading_zeros()) as usize + 1
}

/// The rows and columns of table `name` in `file`, where rtc can read them cheaply: the
/// `double name(rows, cols)` header of the MSL's text format, the lines of a CSV file (after
/// its `header` lines, columns split at `delimiter`).
fn file_table_size(
    file: &str,
    name: &str,
    delimiter: &str,
    header: usize,
) -> Option<(usize, usize)> {
    let text = std::fs::read_to_string(file).ok()?;
    let ext = Path::new(file).extension()?.to_str()?.to_ascii_lowercase();
    if ext == "csv" {
        let rows: Vec<&str> = text
            .lines()
            .skip(header)
            .filter(|l| !l.trim().is_empty())
            .collect();
        let cols = rows.first()?.split(delimiter).count();
        return Some((rows.len(), cols));
    }
    for line in text.lines() {
        let l = line.trim_start();
        let Some(rest) = l
            .strip_prefix("double ")
            .or_else(|| l.strip_prefix("float "))
        else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(inner) = rest
            .strip_prefix(name)
            .and_then(|d| d.trim_start().strip_prefix('('))
        else {
            continue;
        };
        let inner = inner.split(')').next()?;
        let mut it = inner.split(',').map(|v| v.trim().parse::<usize>().ok());
        return Some((it.next()??, it.next()??));
    }
    None
}

/// Records the table a constructor call (`ModelicaStandardTables_…_init3(fileName,
/// tableName, table, size(table, 1), size(table, 2), …, delimiter, nHeaderLines)`, or
/// `_init2` without the last two) made as object `bits`, with the inputs it was given
/// (`ins`: the values of the call's numeric inputs).
pub fn constructed_table(spec: &Spec, ins: &[f64], bits: f64) {
    let f = &spec.function;
    let two = f.contains("CombiTable2D");
    if !f.starts_with("ModelicaStandardTables_") || !f.contains("_init") {
        return;
    }
    let strs: Vec<&str> = spec
        .args
        .iter()
        .filter_map(|a| match a {
            Arg::Str(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    let sizes: Vec<usize> = spec
        .args
        .iter()
        .filter_map(|a| match a {
            Arg::In {
                ty: CTy::SizeT, at, ..
            } => ins.get(*at).map(|&v| v as usize),
            _ => None,
        })
        .collect();
    let (file, name) = (strs.first().copied(), strs.get(1).copied());
    let delimiter = strs.get(2).copied().unwrap_or(",");
    // `nHeaderLines`, the last Integer argument of `_init3`.
    let header = match spec.args.last() {
        Some(Arg::In {
            ty: CTy::Int, at, ..
        }) if f.ends_with("_init3") => ins.get(*at).map_or(0, |&v| v as usize),
        _ => 0,
    };
    let from_model = sizes.first().is_some_and(|&r| r > 0);
    let (size, source) = match (file, name) {
        (Some(file), Some(name)) if !from_model && file != "NoName" => (
            file_table_size(file, name, delimiter, header),
            format!("table `{name}` of {file}"),
        ),
        _ => (
            sizes.first().zip(sizes.get(1)).map(|(&r, &c)| (r, c)),
            "the table given in the model".to_string(),
        ),
    };
    let what = match size {
        Some((r, c)) if two => format!(
            "bisections over the {} rows and {} columns of {source} (at most {} and {} comparisons) and one interpolation",
            r.saturating_sub(1),
            c.saturating_sub(1),
            bisection(r.saturating_sub(1)),
            bisection(c.saturating_sub(1))
        ),
        Some((r, _)) => format!(
            "a bisection over the {r} rows of {source} (at most {} comparisons) and one interpolation",
            bisection(r)
        ),
        None => format!(
            "a bisection over the rows of {source} (a MAT file: its size is not read by rtc; at most ⌈log2 rows⌉ + 1 comparisons) and one interpolation"
        ),
    };
    TABLES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((bits.to_bits(), what));
}

/// What one call of `spec` with inputs `ins` (`None`: known only while the model runs)
/// costs, as far as rtc knows. `lapack`: the function is LAPACK's.
pub fn describe(spec: &Spec, ins: &[Option<f64>], lapack: bool) -> String {
    let tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    for a in &spec.args {
        if let Arg::In {
            ty: CTy::Ptr, at, ..
        } = a
        {
            let bits = ins.get(*at).copied().flatten().map(f64::to_bits);
            if let Some((_, what)) = tables.iter().find(|(b, _)| Some(*b) == bits) {
                return what.clone();
            }
        }
    }
    let arrays: Vec<String> = spec
        .args
        .iter()
        .filter_map(|a| match a {
            Arg::In { n, array: true, .. } => Some(n.to_string()),
            _ => None,
        })
        .collect();
    if lapack {
        let dims: Vec<usize> = spec
            .args
            .iter()
            .filter_map(|a| match a {
                Arg::In {
                    ty: CTy::Int | CTy::SizeT,
                    at,
                    array: false,
                    ..
                } => ins.get(*at).copied().flatten().map(|v| v as usize),
                _ => None,
            })
            .collect();
        let n = dims.iter().copied().max().unwrap_or(0);
        return format!(
            "LAPACK: work of order n³ in its largest dimension, n = {n} (arrays of {} numbers)",
            arrays.join(", ")
        );
    }
    let text = if spec.args.iter().any(|a| matches!(a, Arg::Text(_))) {
        ", a String formatted by the shim"
    } else {
        ""
    };
    let numbers = |n: usize| format!("{n} number{}", if n == 1 { "" } else { "s" });
    format!(
        "the C code's own work ({} in{}; {} out{text})",
        numbers(spec.n_in),
        if arrays.is_empty() {
            String::new()
        } else {
            format!(": arrays of {}", arrays.join(", "))
        },
        numbers(spec.n_out)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bisection_counts_its_comparisons() {
        assert_eq!(bisection(1), 1);
        assert_eq!(bisection(2), 2);
        assert_eq!(bisection(6), 4);
        assert_eq!(bisection(1024), 11);
    }

    #[test]
    fn text_tables_give_their_size_in_their_header() {
        let dir = std::env::temp_dir().join(format!("rtc-cost-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("t.txt");
        std::fs::write(
            &f,
            "#1\ndouble other(2,2)\n0 0\n1 1\ndouble tab1( 6 , 3 ) # x\n",
        )
        .unwrap();
        assert_eq!(
            file_table_size(f.to_str().unwrap(), "tab1", ",", 0),
            Some((6, 3))
        );
        assert_eq!(file_table_size(f.to_str().unwrap(), "tab", ",", 0), None);
        let c = dir.join("t.csv");
        std::fs::write(&c, "t;u\n0;1\n1;2\n\n2;3\n").unwrap();
        assert_eq!(
            file_table_size(c.to_str().unwrap(), "", ";", 1),
            Some((3, 2))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
