//! `rtc analyze`: the step system's blocks, tearing and work bound (the report is
//! [`crate::export::analysis`]), the linearisation with `--eigenvalues`.

use super::args::resolve;
use super::{fail, load_model, out, AnalyzeArgs};
use crate::diag::Diagnostic;
use crate::flat::FlatModel;
use crate::pipeline;

pub fn analyze(a: &AnalyzeArgs) -> u8 {
    let Some((flat, sources)) = load_model(&a.model) else {
        return 1;
    };
    // The external functions' C libraries, as `rtc run` loads them: the start-time evaluation
    // (the method's choice, the linearisation, the start of the plan) calls them. Without them
    // the structure is still analysed, and what needs their values says it could not.
    match crate::clib::provide_registered() {
        Ok(p) => {
            for n in p.notes {
                eprintln!("rtc: note: {n}");
            }
        }
        Err(d) => eprintln!(
            "rtc: warning: the external functions' C code is not loaded ({}): what evaluates the model cannot call it",
            d.message
        ),
    }
    let code = analyze_loaded(a, &flat, &sources);
    crate::clib::destroy_objects();
    code
}

fn analyze_loaded(a: &AnalyzeArgs, flat: &FlatModel, sources: &crate::diag::SourceMap) -> u8 {
    let short = a.model.short_diagnostics;
    // The method and step a run would take (the default chooser's when not given); a model
    // without a step is still analysed.
    let (settings, h, tolerance) = match resolve(&a.method, flat, None) {
        Ok(r) => {
            for n in &r.notes {
                eprintln!("rtc: note: {n}");
            }
            for w in &r.warnings {
                eprintln!("rtc: warning: {w}");
            }
            (r.settings, Some(r.step), Some(r.tolerance))
        }
        Err(_) => match super::args::method_of(&a.method) {
            Ok(m) => (
                pipeline::Settings::of(&m)
                    .step(super::args::delay_grid(flat, &a.method))
                    .newton(super::args::newton_of(&a.method)),
                None,
                None,
            ),
            Err(d) => return fail(d, sources, short),
        },
    };
    let given = (a.method.method.is_some(), a.method.step.is_some());
    out(&settings_line(
        flat,
        &settings.method,
        (h, tolerance),
        given,
        &settings.newton,
    ));
    if a.errors || a.advise {
        return match accuracy(a, flat, &settings, h) {
            Ok(text) => {
                out(&text);
                0
            }
            Err(d) => fail(d, sources, short),
        };
    }
    let automatic = pipeline::needs_partition(flat, &settings.method);
    if a.eigenvalues || automatic {
        match pipeline::eigenvalue_report(flat, h) {
            Ok(text) => out(&text),
            Err(d) => return fail(d, sources, short),
        }
    }
    let settings = match pipeline::resolve_method(flat, settings.method.clone(), h) {
        Ok((m, _)) => settings.with_method(m),
        Err(d) => return fail(d, sources, short),
    };
    match crate::export::analysis::report(
        flat,
        sources,
        &settings,
        h,
        a.min_tearing,
        a.emit.as_deref(),
    ) {
        Ok(text) => {
            out(&text);
            0
        }
        Err(d) => fail(d, sources, short),
    }
}

/// The settings a run of the model would take, resolved as `rtc run` resolves them: the
/// method and step (given, or chosen and from what), the tolerance, Newton's bounds, the
/// experiment's times.
fn settings_line(
    flat: &FlatModel,
    method: &pipeline::Method,
    (h, tolerance): (Option<f64>, Option<f64>),
    (method_given, step_given): (bool, bool),
    newton: &pipeline::Newton,
) -> String {
    let chosen = |given: bool| if given { "given" } else { "chosen by rtc" };
    let e = &flat.experiment;
    let opt = |x: Option<f64>| x.map_or("none".to_string(), |v| format!("{v}"));
    format!(
        "settings: method {} ({}), step {} ({}), tolerance {}, Newton at most {} iterations per loop ({} while the residual keeps falling), then {} damped evaluations (rtol {:e}, accepted at the limit within {:e}); experiment start {}, stop {}, interval {}, tolerance {}\n",
        method.name(),
        chosen(method_given),
        h.map_or("none".to_string(), |h| format!("{h} s")),
        if h.is_none() {
            "give --step or an experiment Interval"
        } else {
            chosen(step_given)
        },
        tolerance.map_or("none".to_string(), |t| format!("{} %", t * 100.0)),
        newton.max_iterations,
        newton.full_iterations(),
        newton.damped,
        newton.rtol,
        newton.final_rtol,
        opt(e.start_time),
        opt(e.stop_time),
        opt(e.interval),
        opt(e.tolerance),
    )
}

fn cmdline(msg: String) -> Box<Diagnostic> {
    Box::new(Diagnostic::error("command-line", msg))
}

/// `--errors` and `--advise`: Howe's measures at the step, and the step each method allows.
fn accuracy(
    a: &AnalyzeArgs,
    flat: &FlatModel,
    settings: &pipeline::Settings,
    h: Option<f64>,
) -> Result<String, Box<Diagnostic>> {
    let method = &settings.method;
    if let Some(f) = a.freqs.iter().find(|f| !(f.is_finite() && **f > 0.0)) {
        return Err(cmdline(format!(
            "--freq {f}: a frequency in Hz must be positive"
        )));
    }
    let mut text = String::new();
    if a.errors {
        let h = h.ok_or_else(|| {
            cmdline(
                "--errors needs a step: give --step or an experiment(Interval = …) annotation"
                    .into(),
            )
        })?;
        let (method, note) = pipeline::resolve_method(flat, method.clone(), Some(h))?;
        if let Some(n) = note {
            text.push_str(&format!("{n}\n"));
        }
        text.push_str(&pipeline::error_report(flat, &method, h, &a.freqs)?);
        if let Some(path) = &a.plot {
            let curves = pipeline::accuracy_curves(flat, &method, h)?;
            super::plot::write_svg(
                path,
                crate::export::plot::accuracy(method.name(), h, &curves),
            )?;
        }
    }
    if a.advise {
        let tol = super::args::parse_tolerance(a.method.tolerance.as_deref().unwrap_or("1%"))?;
        if let Some(bw) = a.bandwidth.filter(|b| !(b.is_finite() && *b > 0.0)) {
            return Err(cmdline(format!(
                "--bandwidth {bw}: a frequency in Hz must be positive"
            )));
        }
        let advice = pipeline::advise(flat, &a.freqs, tol, settings, a.bandwidth)?;
        if let Some(bw) = a.bandwidth {
            text.push_str(&format!(
                "only the modes with |λ| <= 2π·{bw} Hz = {:.4e} rad/s count; faster modes are neither held to the tolerance nor checked for stability\n",
                2.0 * std::f64::consts::PI * bw
            ));
        }
        text.push_str(&advice_table(&advice, tol, &a.freqs));
    }
    Ok(text)
}

/// A libm call counted as this many floating-point operations when ranking methods.
const LIBM_FLOPS: u64 = 20;

fn advice_table(advice: &[pipeline::Advice], tol: f64, freqs: &[f64]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let what = if freqs.is_empty() {
        "every characteristic-root error e_|λ|".to_string()
    } else {
        let f: Vec<String> = freqs.iter().map(|f| format!("{f} Hz")).collect();
        format!(
            "every characteristic-root error e_|λ| and the gain and phase errors at {}",
            f.join(", ")
        )
    };
    let _ = writeln!(
        s,
        "largest step keeping {what} below {} (Howe §1.3), and the work per step from each plan's work bound:",
        tol
    );
    let _ = writeln!(
        s,
        "  {:<10} {:>13} {:>11} {:>10} {:>22}",
        "method", "largest step", "flops/step", "libm/step", "flops per second sim."
    );
    let cost = |a: &pipeline::Advice| {
        a.step
            .filter(|h| h.is_finite() && a.note.is_none())
            .map(|h| (a.flops + LIBM_FLOPS * a.libm) as f64 / h)
    };
    for a in advice {
        let step = match a.step {
            Some(h) if h.is_finite() => format!("{h:.4e}"),
            Some(_) => "any".to_string(),
            None => "none".to_string(),
        };
        match &a.note {
            Some(n) => {
                let _ = writeln!(s, "  {:<10} {step:>13}   (no plan: {n})", a.method.name());
            }
            None => {
                let _ = writeln!(
                    s,
                    "  {:<10} {step:>13} {:>11} {:>10} {:>22}",
                    a.method.name(),
                    a.flops,
                    a.libm,
                    cost(a).map_or("-".to_string(), |c| format!("{c:.4e}"))
                );
            }
        }
    }
    if let Some(best) = advice
        .iter()
        .filter_map(|a| cost(a).map(|c| (a, c)))
        .min_by(|x, y| x.1.total_cmp(&y.1))
    {
        let _ = writeln!(
            s,
            "cheapest for this accuracy: {} at h = {:.4e} ({:.4e} flops per simulated second, a libm call counted as {LIBM_FLOPS} flops)",
            best.0.method.name(),
            best.0.step.unwrap_or(0.0),
            best.1
        );
    }
    s
}
