//! `rtc compile`: a model as a relocatable object, a C header and a JSON description, for a
//! user's firmware or real-time program (`examples/embedded/` is the minimal harness).
//!
//! The header is self-contained C99: prototypes, status codes, sizes, the slot of every
//! parameter, state, input and output, their default and start values, the step size the code
//! was compiled for, the work bound and the stack use per step. Defining `RTC_MODEL_GENERIC`
//! before including it adds model-independent names (`RTC_MODEL_STEP`, …) so that one harness
//! source serves every model.

use crate::cli::{load_model, CompileArgs};
use crate::codegen::{self, Target, TARGETS};
use crate::diag::Diagnostic;
use crate::flat::{FlatModel, VarKind};
use crate::plan::interp::Interp;
use crate::plan::{self, Plan, SlotKind};
use crate::run::{fail, method_of, step_of};
use crate::sim;
use crate::system::SVarKind;
use rustc_hash::FxHashSet;
use std::fmt::Write as _;
use std::path::Path;

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

fn c_string(s: &str) -> String {
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

fn json_string(s: &str) -> String {
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
fn c_double(x: f64) -> String {
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

fn json_number(x: f64) -> String {
    if x.is_finite() {
        format!("{x:e}")
    } else {
        "null".into()
    }
}

/// Comment text that cannot close the comment.
fn comment(s: &str) -> String {
    s.replace("*/", "* /")
}

fn kind_name(k: SlotKind) -> &'static str {
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
        SlotKind::Hoisted => "hoisted",
    }
}

impl Description<'_> {
    fn flat_var(&self, name: &str) -> Option<&crate::flat::Variable> {
        self.flat.vars.iter().find(|v| v.name == name)
    }

    fn slots_of(&self, kind: SVarKind) -> Vec<usize> {
        self.plan
            .vars
            .iter()
            .enumerate()
            .filter(|(_, v)| v.kind == SlotKind::System(kind))
            .map(|(i, _)| i)
            .collect()
    }

    fn mem_slots(&self) -> usize {
        self.plan.vars.len() + self.plan.scratch_slots()
    }

    /// The outputs `rtc run` prints by default: states and top-level outputs.
    fn default_output(&self, i: usize) -> bool {
        let o = &self.plan.outputs[i];
        o.is_output || o.kind == VarKind::State
    }

    pub fn header(&self) -> String {
        let p = &self.prefix;
        let plan = self.plan;
        let mut h = String::new();
        let w = plan.work_bound();
        let guard = format!("RTC_{}_H", p.to_ascii_uppercase());
        let _ = writeln!(
            h,
            "/* {p}.h: generated by rtc {} from {} (model {}). Do not edit.\n * Method {}, step size {} s, target {} ({}).\n */",
            env!("CARGO_PKG_VERSION"),
            comment(&self.source),
            comment(&plan.name),
            comment(&self.method),
            self.step,
            self.target.triple,
            self.target.note
        );
        let _ = writeln!(
            h,
            "#ifndef {guard}\n#define {guard}\n\n#include <stdint.h>\n"
        );
        h.push_str("#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
        h.push_str(
            "/* Calling sequence: write the inputs (start values below) into mem, call init once\n\
             * at the start time, then step at the fixed step size, writing the inputs before\n\
             * every step; read results from mem or through outputs. A nonzero status stops\n\
             * the run: its low 4 bits are the kind, the bits above the block (1, 3) or the\n\
             * slot of the variable (2). The code allocates nothing, makes no system calls and\n\
             * touches only mem (and out) and its own constants. */\n",
        );
        let _ = writeln!(
            h,
            "int32_t {p}_init(double *mem, double t0);\nint32_t {p}_step(double *mem, double t, double h);\nint32_t {p}_outputs(const double *mem, double *out);\n/* After writing new values into tunable parameter slots (below): recompute what depends on them. */\nint32_t {p}_parameters(double *mem);\n"
        );
        for (name, code) in [
            ("OK", 0),
            ("NOT_CONVERGED", 1),
            ("NON_FINITE", 2),
            ("SINGULAR", 3),
        ] {
            let _ = writeln!(h, "#define {p}_{name} {code}");
        }
        let _ = writeln!(
            h,
            "#define {p}_STATUS_KIND(code) ((code) & 15)\n#define {p}_STATUS_DETAIL(code) ((code) >> 4)\n"
        );
        let stop = self.flat.experiment.stop_time;
        let start = self.flat.experiment.start_time.unwrap_or(0.0);
        let defs: Vec<(String, String, String)> = vec![
            (
                "MEM_SLOTS".into(),
                format!("{}", self.mem_slots()),
                format!(
                    "doubles in the memory block ({} bytes): variables, then Newton scratch",
                    8 * self.mem_slots()
                ),
            ),
            (
                "VAR_SLOTS".into(),
                format!("{}", plan.vars.len()),
                "slots of named variables at the start of the block".into(),
            ),
            (
                "OUTPUT_COUNT".into(),
                format!("{}", plan.outputs.len()),
                "values written by outputs()".into(),
            ),
            (
                "STEP_SIZE".into(),
                c_double(self.step),
                "the step size the code was compiled for (s)".into(),
            ),
            (
                "START_TIME".into(),
                c_double(start),
                "from the experiment annotation, else 0".into(),
            ),
            (
                "STOP_TIME".into(),
                c_double(stop.unwrap_or(start)),
                if stop.is_some() {
                    "from the experiment annotation".into()
                } else {
                    "no experiment annotation: the start time".into()
                },
            ),
            (
                "WORK_FLOPS".into(),
                format!("{}", w.flops),
                "work bound per step: floating-point operations".into(),
            ),
            (
                "WORK_LIBM_CALLS".into(),
                format!("{}", w.libm_calls),
                "work bound per step: C math library calls".into(),
            ),
            (
                "NEWTON_MAX_ITERATIONS".into(),
                format!("{}", plan.newton.max_iterations),
                "per nonlinear algebraic loop".into(),
            ),
            (
                "STACK_BYTES_STEP".into(),
                format!("{}", self.code.stack_step),
                if self.code.step_calls_libm {
                    "stack use of step (generated frames; add the C math library's own)".into()
                } else {
                    "stack use of step (it calls no library function)".into()
                },
            ),
            (
                "STACK_BYTES_INIT".into(),
                format!("{}", self.code.stack_init),
                "stack use of init (generated frames)".into(),
            ),
            (
                "STACK_BYTES_OUTPUTS".into(),
                format!("{}", self.code.stack_outputs),
                "stack use of outputs (generated frames)".into(),
            ),
        ];
        for (k, v, c) in &defs {
            let _ = writeln!(h, "#define {p}_{k} {v} /* {} */", comment(c));
        }
        // Named slots.
        let mut used = FxHashSet::default();
        let mut ident = |section: &str, name: &str| -> String {
            let base = format!(
                "{p}_{section}_{}",
                c_identifier(name).trim_start_matches('_')
            );
            let mut id = base.clone();
            let mut k = 2;
            while !used.insert(id.clone()) {
                id = format!("{base}_{k}");
                k += 1;
            }
            id
        };
        for (title, kind, what) in [
            (
                "Parameters (default values as init computes them; tunable ones may be written while running, then call parameters())",
                SVarKind::Parameter,
                "default",
            ),
            ("States (start values)", SVarKind::State, "start"),
            (
                "Inputs: write before init and before every step (start values)",
                SVarKind::Input,
                "start",
            ),
        ] {
            let slots = self.slots_of(kind);
            let tunable = plan.tunable_parameters();
            let _ = writeln!(h, "\n/* {title}: slot in mem. */");
            for s in slots {
                let note = match kind {
                    SVarKind::Parameter if tunable.iter().any(|v| v.index() == s) => ", tunable",
                    SVarKind::Parameter => ", computed from other parameters",
                    _ => "",
                };
                let name = &plan.vars[s].name;
                let value = match kind {
                    SVarKind::Input => self.input_start(s),
                    _ => self.defaults[s],
                };
                let id = ident("SLOT", name);
                let _ = writeln!(
                    h,
                    "#define {id} {s} /* {}, {what} {}{note} */",
                    comment(name),
                    comment(&format!("{value:e}"))
                );
            }
        }
        let _ = writeln!(
            h,
            "#define {p}_SLOT_time {} /* time at the end of the last step */",
            plan.time.index()
        );
        let _ = writeln!(h, "\n/* Outputs of outputs(): index in out. */");
        for (i, o) in plan.outputs.iter().enumerate() {
            let id = ident("OUT", &o.name);
            let _ = writeln!(h, "#define {id} {i} /* {} */", comment(&o.name));
        }
        // Tables for generic harnesses.
        // One entry per slot the environment writes: an input's main slot (read at the end of
        // the step, offset 1) and, for multi-stage formulas, its stage slots.
        let inputs = crate::sim::input_slots(plan);
        let nonempty = |n: usize| n.max(1);
        let table = |empty: &str, f: &dyn Fn(&rtc_runtime::Slot) -> String| -> String {
            if inputs.is_empty() {
                empty.into()
            } else {
                inputs.iter().map(f).collect::<Vec<_>>().join(", ")
            }
        };
        let _ = writeln!(
            h,
            "\n/* Tables (arrays have at least one element; the counts are exact). Input entries:\n * write input_names[i]'s value at t + input_offsets[i]*h into mem[input_slots[i]]\n * before the step from t (offset 1: the end of the step, where the step's equations\n * hold; other offsets: stage times), and at t0 (any offset) before init. */\n#define {p}_INPUT_COUNT {}",
            inputs.len()
        );
        let _ = writeln!(
            h,
            "static const char *const {p}_input_names[{}] = {{{}}};",
            nonempty(inputs.len()),
            table("0", &|s| c_string(&s.name))
        );
        let _ = writeln!(
            h,
            "static const int32_t {p}_input_slots[{}] = {{{}}};",
            nonempty(inputs.len()),
            table("0", &|s| s.slot.to_string())
        );
        let _ = writeln!(
            h,
            "static const double {p}_input_offsets[{}] = {{{}}};",
            nonempty(inputs.len()),
            table("0.0", &|s| c_double(s.offset))
        );
        let _ = writeln!(
            h,
            "static const double {p}_input_starts[{}] = {{{}}};",
            nonempty(inputs.len()),
            table("0.0", &|s| c_double(self.input_start(s.slot)))
        );
        let _ = writeln!(
            h,
            "static const char *const {p}_output_names[{}] = {{\n{}\n}};",
            nonempty(plan.outputs.len()),
            if plan.outputs.is_empty() {
                "  0".into()
            } else {
                plan.outputs
                    .iter()
                    .map(|o| format!("  {}", c_string(&o.name)))
                    .collect::<Vec<_>>()
                    .join(",\n")
            }
        );
        let _ = writeln!(
            h,
            "/* 1 for the outputs rtc run prints by default (states and top-level outputs). */\nstatic const unsigned char {p}_output_default[{}] = {{{}}};",
            nonempty(plan.outputs.len()),
            if plan.outputs.is_empty() {
                "0".into()
            } else {
                (0..plan.outputs.len())
                    .map(|i| if self.default_output(i) { "1" } else { "0" })
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        );
        self.event_section(&mut h);
        // Generic names.
        h.push_str("\n#ifdef RTC_MODEL_GENERIC\n");
        let _ = writeln!(h, "#define RTC_MODEL_NAME {}", c_string(&plan.name));
        for (g, s) in [
            ("INIT", "init"),
            ("STEP", "step"),
            ("OUTPUTS", "outputs"),
            ("MEM_SLOTS", "MEM_SLOTS"),
            ("OUTPUT_COUNT", "OUTPUT_COUNT"),
            ("INPUT_COUNT", "INPUT_COUNT"),
            ("STEP_SIZE", "STEP_SIZE"),
            ("START_TIME", "START_TIME"),
            ("STOP_TIME", "STOP_TIME"),
            ("input_names", "input_names"),
            ("input_slots", "input_slots"),
            ("input_starts", "input_starts"),
            ("input_offsets", "input_offsets"),
            ("output_names", "output_names"),
            ("output_default", "output_default"),
            ("EVENT_COUNT", "EVENT_COUNT"),
        ] {
            let _ = writeln!(h, "#define RTC_MODEL_{g} {p}_{s}");
        }
        if !plan.events.is_empty() {
            for (g, s) in [
                ("ZC", "zc"),
                ("PRE", "pre"),
                ("EVENT", "event"),
                ("event_kind", "event_kind"),
                ("event_chain", "event_chain"),
                ("event_branch", "event_branch"),
                ("event_sample", "event_sample"),
                ("event_terminates", "event_terminates"),
                ("event_cubic", "event_cubic"),
                ("event_conditions", "event_conditions"),
            ] {
                let _ = writeln!(h, "#define RTC_MODEL_{g} {p}_{s}");
            }
        }
        h.push_str("#endif\n\n#ifdef __cplusplus\n}\n#endif\n\n");
        let _ = writeln!(h, "#endif /* {guard} */");
        h
    }

    /// The events: count, functions and tables for an event stepper (`examples/embedded/
    /// rtc_events.c` implements Cellier & Kofman §10.8 over them, as `rtc run` does).
    fn event_section(&self, h: &mut String) {
        let p = &self.prefix;
        let ev = &self.plan.events;
        let _ = writeln!(
            h,
            "\n/* Events: {} (when-equations, relations in if-expressions). */\n#define {p}_EVENT_COUNT {}",
            ev.len(),
            ev.len()
        );
        if ev.is_empty() {
            return;
        }
        let _ = writeln!(
            h,
            "/* Step with events through rtc_events.c, not step alone. zc writes every event's\n * zero-crossing function (or discrete condition as 0/1) into z[k] and, for events located\n * by a cubic, its time derivative into z[EVENT_COUNT + k] (z has 2*EVENT_COUNT elements);\n * pre copies the values events read as pre(v) (at an instant's start); event<k> runs event\n * k's actions. Stack use of these: {} bytes (generated frames). */\nint32_t {p}_zc(const double *mem, double *z);\nint32_t {p}_pre(double *mem);",
            self.code.stack_events
        );
        for (k, e) in ev.iter().enumerate() {
            let _ = writeln!(
                h,
                "int32_t {p}_event{k}(double *mem); /* {} */",
                comment(&e.text)
            );
        }
        let _ = writeln!(
            h,
            "static inline int32_t {p}_event(double *mem, int32_t k) {{\n    switch (k) {{"
        );
        for k in 0..ev.len() {
            let _ = writeln!(h, "    case {k}: return {p}_event{k}(mem);");
        }
        h.push_str("    default: return 0;\n    }\n}\n");
        for (name, code) in [("CHATTERING", 4), ("EVENT_ITERATION", 5), ("TERMINATED", 6)] {
            let _ = writeln!(h, "#define {p}_{name} {code}");
        }
        let _ = writeln!(
            h,
            "/* Event kinds: 0 state event z <= 0, 1 state event z > 0, 2 relation switching\n * both ways (no actions), 3 sample(start, interval), 4 initial(), 5 condition of discrete\n * variables (checked at instants), 6 a relation of time alone: a time event at the time zc\n * writes for it. Chains: when/elsewhen branches share a chain (-1: none);\n * of the branches of a chain that fire at one instant only the first acts. */"
        );
        let list = |f: &dyn Fn(&crate::system::Event) -> String| -> String {
            ev.iter().map(f).collect::<Vec<_>>().join(", ")
        };
        let _ = writeln!(
            h,
            "static const int32_t {p}_event_kind[{}] = {{{}}};",
            ev.len(),
            list(&|e| {
                let k = if e.both {
                    2
                } else if e.at {
                    6
                } else if e.sample.is_some() {
                    3
                } else if e.initial {
                    4
                } else if e.discrete.is_some() {
                    5
                } else if e.below {
                    0
                } else {
                    1
                };
                k.to_string()
            })
        );
        let _ = writeln!(
            h,
            "static const int32_t {p}_event_chain[{}] = {{{}}};",
            ev.len(),
            list(&|e| if e.chain.0 == usize::MAX {
                "-1".into()
            } else {
                e.chain.0.to_string()
            })
        );
        let _ = writeln!(
            h,
            "static const int32_t {p}_event_branch[{}] = {{{}}};",
            ev.len(),
            list(&|e| e.chain.1.to_string())
        );
        let _ = writeln!(
            h,
            "/* sample(start, interval) of kind-3 events, {{0, 0}} otherwise. */\nstatic const double {p}_event_sample[{}][2] = {{{}}};",
            ev.len(),
            list(&|e| {
                let (a, b) = e.sample.unwrap_or((0.0, 0.0));
                format!("{{{}, {}}}", c_double(a), c_double(b))
            })
        );
        let _ = writeln!(
            h,
            "/* 1: located by the inverse cubic Hermite interpolation (zc also writes dz/dt at\n * z[EVENT_COUNT + k]); 0: regula falsi. */\nstatic const unsigned char {p}_event_cubic[{}] = {{{}}};",
            ev.len(),
            list(&|e| if e.dz.is_some() { "1" } else { "0" }.into())
        );
        let _ = writeln!(
            h,
            "static const unsigned char {p}_event_terminates[{}] = {{{}}};",
            ev.len(),
            list(&|e| if e.terminate.is_some() { "1" } else { "0" }.into())
        );
        let _ = writeln!(
            h,
            "static const char *const {p}_event_conditions[{}] = {{{}}};",
            ev.len(),
            list(&|e| c_string(&e.text))
        );
    }

    /// Ends one JSON entry: the flat variable's unit and description, the brace, a comma
    /// unless it is the last.
    fn close_entry(&self, j: &mut String, mut e: String, name: &str, more: bool) {
        if let Some(fv) = self.flat_var(name) {
            if let Some(u) = &fv.unit {
                let _ = write!(e, ", \"unit\": {}", json_string(u));
            }
            if let Some(d) = &fv.description {
                let _ = write!(e, ", \"description\": {}", json_string(d));
            }
        }
        e.push('}');
        if more {
            e.push(',');
        }
        let _ = writeln!(j, "{e}");
    }

    /// The start value of the input in `slot`.
    fn input_start(&self, slot: usize) -> f64 {
        self.input_starts
            .iter()
            .find(|x| x.0 == slot)
            .map_or(0.0, |x| x.1)
    }

    pub fn json(&self) -> String {
        let plan = self.plan;
        let p = &self.prefix;
        let w = plan.work_bound();
        let mut j = String::from("{\n");
        let field = |j: &mut String, k: &str, v: String| {
            let _ = writeln!(j, "  {}: {v},", json_string(k));
        };
        field(&mut j, "model", json_string(&plan.name));
        field(&mut j, "prefix", json_string(p));
        field(
            &mut j,
            "generator",
            json_string(&format!("rtc {}", env!("CARGO_PKG_VERSION"))),
        );
        field(&mut j, "source", json_string(&self.source));
        field(&mut j, "method", json_string(&self.method));
        field(&mut j, "step_size", json_number(self.step));
        field(
            &mut j,
            "start_time",
            json_number(self.flat.experiment.start_time.unwrap_or(0.0)),
        );
        field(
            &mut j,
            "stop_time",
            self.flat
                .experiment
                .stop_time
                .map_or("null".into(), json_number),
        );
        field(&mut j, "target", json_string(self.target.triple));
        field(
            &mut j,
            "functions",
            format!(
                "{{\"init\": \"{p}_init\", \"step\": \"{p}_step\", \"outputs\": \"{p}_outputs\", \"parameters\": \"{p}_parameters\"{}}}",
                if plan.events.is_empty() {
                    String::new()
                } else {
                    format!(", \"zc\": \"{p}_zc\", \"pre\": \"{p}_pre\", \"event\": \"{p}_event<k>\"")
                }
            ),
        );
        field(
            &mut j,
            "events",
            format!(
                "[{}]",
                plan.events
                    .iter()
                    .map(|e| format!(
                        "{{\"condition\": {}, \"terminates\": {}}}",
                        json_string(&e.text),
                        e.terminate.is_some()
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        field(
            &mut j,
            "memory",
            format!(
                "{{\"slots\": {}, \"variable_slots\": {}, \"bytes\": {}}}",
                self.mem_slots(),
                plan.vars.len(),
                8 * self.mem_slots()
            ),
        );
        field(
            &mut j,
            "stack_bytes",
            format!(
                "{{\"init\": {}, \"step\": {}, \"outputs\": {}, \"plus_libm\": {}}}",
                self.code.stack_init,
                self.code.stack_step,
                self.code.stack_outputs,
                self.code.step_calls_libm
            ),
        );
        field(
            &mut j,
            "libm",
            format!(
                "[{}]",
                self.code
                    .libm
                    .iter()
                    .map(|s| json_string(s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        field(
            &mut j,
            "work_bound",
            format!(
                "{{\"flops\": {}, \"libm_calls\": {}, \"newton_max_iterations\": {}}}",
                w.flops, w.libm_calls, plan.newton.max_iterations
            ),
        );
        j.push_str("  \"variables\": [\n");
        let n = plan.vars.len();
        for (i, v) in plan.vars.iter().enumerate() {
            let mut e = format!(
                "    {{\"name\": {}, \"kind\": \"{}\", \"slot\": {i}, \"offset\": {}",
                json_string(&v.name),
                kind_name(v.kind),
                8 * i
            );
            let value = match v.kind {
                SlotKind::System(SVarKind::Parameter) => Some(("default", self.defaults[i])),
                SlotKind::System(SVarKind::State) => Some(("start", self.defaults[i])),
                SlotKind::System(SVarKind::Input) => self
                    .input_starts
                    .iter()
                    .find(|x| x.0 == i)
                    .map(|x| ("start", x.1)),
                _ => None,
            };
            if let Some((k, x)) = value {
                let _ = write!(e, ", \"{k}\": {}", json_number(x));
            }
            self.close_entry(&mut j, e, &v.name, i + 1 < n);
        }
        j.push_str("  ],\n  \"outputs\": [\n");
        let n = plan.outputs.len();
        for (i, o) in plan.outputs.iter().enumerate() {
            let e = format!(
                "    {{\"name\": {}, \"index\": {i}, \"kind\": \"{}\", \"default\": {}",
                json_string(&o.name),
                o.kind.name(),
                self.default_output(i)
            );
            self.close_entry(&mut j, e, &o.name, i + 1 < n);
        }
        j.push_str("  ]\n}\n");
        j
    }
}

fn unsupported_target(t: &str) -> Box<Diagnostic> {
    let list: Vec<&str> = TARGETS.iter().map(|t| t.triple).collect();
    Box::new(
        Diagnostic::error("command-line", format!("unsupported target `{t}`"))
            .help(format!("the supported targets are {}", list.join(", "))),
    )
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Box<Diagnostic>> {
    std::fs::write(path, bytes).map_err(|e| {
        Box::new(Diagnostic::error(
            "file",
            format!("cannot write {}: {e}", path.display()),
        ))
    })
}

pub fn compile(a: &CompileArgs) -> u8 {
    let Some((flat, sources)) = load_model(&a.model) else {
        return 1;
    };
    let short = a.model.short_diagnostics;
    match compile_inner(a, &flat) {
        Ok(files) => {
            for f in files {
                eprintln!("rtc: wrote {}", f.display());
            }
            0
        }
        Err(d) => fail(d, &sources, short),
    }
}

fn compile_inner(
    a: &CompileArgs,
    flat: &FlatModel,
) -> Result<Vec<std::path::PathBuf>, Box<Diagnostic>> {
    let method = method_of(&a.method)?;
    let h = step_of(&a.method, flat)?;
    let (method, note) = crate::run::resolve_mixed(flat, method, Some(h))?;
    if let Some(n) = note {
        eprintln!("rtc: {n}");
    }
    let target = match &a.target {
        Some(t) => Target::find(t).ok_or_else(|| unsupported_target(t))?,
        None => Target::host().ok_or_else(|| {
            unsupported_target(&format!(
                "{}-{} (this machine)",
                std::env::consts::ARCH,
                std::env::consts::OS
            ))
        })?,
    };
    let newton = plan::Newton {
        max_iterations: a.method.newton_iterations,
        ..plan::Newton::default()
    };
    let (p, _, _) = sim::compile(flat, &method, newton)?;
    let prefix = match &a.name {
        Some(n) => {
            if c_identifier(n) != *n {
                return Err(Box::new(Diagnostic::error(
                    "command-line",
                    format!("--name `{n}` is not a C identifier"),
                )));
            }
            n.clone()
        }
        None => c_identifier(&p.name),
    };
    let code = codegen::object(&p, target, &prefix, false).map_err(|e| {
        Box::new(
            Diagnostic::error("codegen", format!("code generation failed: {e}"))
                .help("this is a bug in rtc; please report it with the model"),
        )
    })?;
    // Default parameters and start values, as init computes them.
    let mut it = Interp::new(&p);
    let mut mem = it.memory();
    let start = flat.experiment.start_time.unwrap_or(0.0);
    let _ = it.init(&mut mem, start);
    let input_starts = sim::input_starts(&p, &mem);
    let desc = Description {
        plan: &p,
        flat,
        prefix: prefix.clone(),
        source: a.model.file.display().to_string(),
        method: match &method {
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
    let dir = a.out_dir.clone().unwrap_or_else(|| ".".into());
    std::fs::create_dir_all(&dir).map_err(|e| {
        Box::new(Diagnostic::error(
            "file",
            format!("cannot create {}: {e}", dir.display()),
        ))
    })?;
    let files = [
        (dir.join(format!("{prefix}.o")), code.bytes.clone()),
        (dir.join(format!("{prefix}.h")), desc.header().into_bytes()),
        (dir.join(format!("{prefix}.json")), desc.json().into_bytes()),
    ];
    for (path, bytes) in &files {
        write_file(path, bytes)?;
    }
    Ok(files.into_iter().map(|f| f.0).collect())
}
