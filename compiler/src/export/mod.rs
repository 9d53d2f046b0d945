//! What rtc writes besides code: the C header and the JSON description of a compiled model
//! (`rtc compile`; `header.rs`, `json.rs`), the `rtc analyze` report (`analysis.rs`) and the
//! SVG plots (`plot.rs`).
//!
//! The header is self-contained C99: prototypes, status codes, sizes, the slot of every
//! parameter, state, input and output, their default and start values, the step size the code
//! was compiled for, the work bound and the stack use per step. Defining `RTC_MODEL_GENERIC`
//! before including it adds model-independent names (`RTC_MODEL_STEP`, …) so that one harness
//! source serves every model. The JSON describes the same for tools.

pub mod analysis;
pub mod fmu;
mod header;
mod json;
pub mod plot;

use crate::codegen;
pub use crate::codegen::{Cpu, Target, TARGETS};
use crate::diag::Diagnostic;
use crate::flat::{FlatModel, VarKind};
use crate::pipeline::{self, Method};
use crate::plan::interp::Interp;
use crate::plan::{Plan, SlotKind};
use crate::sim;
use crate::system::SVarKind;
use std::fmt::Write as _;

/// Everything the header and the JSON describe.
pub struct Description<'a> {
    pub plan: &'a Plan,
    pub flat: &'a FlatModel,
    pub prefix: String,
    pub source: String,
    pub method: String,
    pub step: f64,
    pub target: &'static Target,
    pub code: &'a codegen::ObjectCode,
    /// Memory after `init` at the start time with default parameters.
    pub defaults: Vec<f64>,
    /// (slot, start value) of every input.
    pub input_starts: Vec<(usize, f64)>,
}

/// A C identifier for a symbol prefix: the model name with every other character as `_`.
pub fn c_identifier(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

pub(crate) fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            c => {
                // Outside ASCII: UTF-8 bytes as octal escapes (hex escapes would swallow digits).
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(out, "\\{b:03o}");
                }
            }
        }
    }
    out.push('"');
    out
}

pub(crate) fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A double as a C literal that reads back to the same value.
pub(crate) fn c_double(x: f64) -> String {
    if x.is_nan() {
        "(0.0 / 0.0)".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "(1.0 / 0.0)".into()
        } else {
            "(-1.0 / 0.0)".into()
        }
    } else {
        // The shortest form that reads back exactly; `1e-4` is a double literal in C.
        format!("{x:e}")
    }
}

pub(crate) fn json_number(x: f64) -> String {
    if x.is_finite() {
        format!("{x:e}")
    } else {
        "null".into()
    }
}

/// Comment text that cannot close the comment.
pub(crate) fn comment(s: &str) -> String {
    s.replace("*/", "* /")
}

pub(crate) fn kind_name(k: SlotKind) -> &'static str {
    match k {
        SlotKind::System(SVarKind::State) => "state",
        SlotKind::System(SVarKind::Derivative) => "derivative",
        SlotKind::System(SVarKind::Algebraic) => "algebraic",
        SlotKind::System(SVarKind::Pre) => "pre",
        SlotKind::System(SVarKind::Parameter) => "parameter",
        SlotKind::System(SVarKind::Input) => "input",
        SlotKind::System(SVarKind::Time) => "time",
        SlotKind::System(SVarKind::StepStart) => "step_start",
        SlotKind::System(SVarKind::StepSize) => "step_size",
        SlotKind::System(SVarKind::Stage) => "stage",
        SlotKind::System(SVarKind::Discrete) => "discrete",
        SlotKind::Tangent => "tangent",
        SlotKind::Slide => "slide",
        SlotKind::Hoisted => "hoisted",
    }
}

impl Description<'_> {
    pub(crate) fn flat_var(&self, name: &str) -> Option<&crate::flat::Variable> {
        self.flat.vars.iter().find(|v| v.name == name)
    }

    pub(crate) fn slots_of(&self, kind: SVarKind) -> Vec<usize> {
        self.plan
            .vars
            .iter()
            .enumerate()
            .filter(|(_, v)| v.kind == SlotKind::System(kind))
            .map(|(i, _)| i)
            .collect()
    }

    pub(crate) fn mem_slots(&self) -> usize {
        self.plan.vars.len() + self.plan.scratch_slots()
    }

    /// The outputs `rtc run` prints by default: states and top-level outputs.
    pub(crate) fn default_output(&self, i: usize) -> bool {
        let o = &self.plan.outputs[i];
        o.is_output || o.kind == VarKind::State
    }

    pub(crate) fn input_start(&self, slot: usize) -> f64 {
        self.input_starts
            .iter()
            .find(|x| x.0 == slot)
            .map_or(0.0, |x| x.1)
    }
}

/// What `rtc compile` writes for one model: the object code, the header and the JSON.
pub struct ObjectFiles {
    /// The symbol prefix (the C identifier of the model, or the name asked for).
    pub prefix: String,
    pub object: Vec<u8>,
    /// The memory after `init` from the defaults: parameters and start values by slot.
    pub defaults: Vec<f64>,
    pub header: String,
    pub json: String,
}

/// Compiles `flat` with `method` at step `h` for `target`: the plan, its object code, and the
/// header and JSON that describe it (defaults and start values as `init` computes them).
pub fn object_files(
    flat: &FlatModel,
    settings: &pipeline::Settings,
    h: f64,
    target: &'static Target,
    cpu: &codegen::Cpu,
    name: Option<&str>,
    source: &str,
) -> Result<ObjectFiles, Box<Diagnostic>> {
    let p = pipeline::plan(flat, settings)?.plan;
    object_files_of(&p, flat, &settings.method, h, target, cpu, name, source)
}

/// [`object_files`] of a plan already built.
#[allow(clippy::too_many_arguments)]
pub fn object_files_of(
    p: &crate::plan::Plan,
    flat: &FlatModel,
    method: &Method,
    h: f64,
    target: &'static Target,
    cpu: &codegen::Cpu,
    name: Option<&str>,
    source: &str,
) -> Result<ObjectFiles, Box<Diagnostic>> {
    let prefix = match name {
        Some(n) => {
            if c_identifier(n) != *n {
                return Err(Box::new(Diagnostic::error(
                    "command-line",
                    format!("--name `{n}` is not a C identifier"),
                )));
            }
            n.to_string()
        }
        None => c_identifier(&p.name),
    };
    let code = codegen::object(p, target, cpu, &prefix, false).map_err(|e| match e {
        codegen::CodegenError::Cpu(c) => Box::new(
            Diagnostic::error("command-line", format!("--target-cpu: {c}"))
                .help("give `baseline`, `native` (this machine's target only), or the target's CPU presets and features, comma-separated"),
        ),
        e => Box::new(
            Diagnostic::error("codegen", format!("code generation failed: {e}"))
                .help("this is a bug in rtc; please report it with the model"),
        ),
    })?;
    // Default parameters and start values, as init computes them.
    let mut it = Interp::new(p);
    let mut mem = it.memory();
    let start = flat.experiment.start_time.unwrap_or(0.0);
    let _ = it.init(&mut mem, start);
    let input_starts = sim::input_starts(p, &mem);
    let defaults = mem.clone();
    let desc = Description {
        plan: p,
        flat,
        prefix: prefix.clone(),
        source: source.to_string(),
        method: match method {
            crate::system::Method::Mixed { implicit } if !implicit.is_empty() => {
                format!("mixed (implicit {})", implicit.join(", "))
            }
            m => m.name().to_string(),
        },
        step: h,
        target,
        code: &code,
        defaults: mem,
        input_starts,
    };
    Ok(ObjectFiles {
        object: code.bytes.clone(),
        defaults,
        header: desc.header(),
        json: desc.json(),
        prefix,
    })
}
