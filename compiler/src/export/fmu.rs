//! `rtc fmu`: an FMI 3.0 Co-Simulation FMU of a model.
//!
//! The FMU's binary is the step object of `rtc compile` linked with a wrapper (`fmi/fmi3.c`,
//! embedded here) and the event stepper of the embedded harness (`rtc_events.c`), so that
//! `fmi3DoStep` runs rtc's bounded-work inline step with events located inside it, as
//! `rtc run` does. This module writes what the wrapper and the master need to agree on: the
//! variable table (`rtc_fmu.h`: value reference → what it is and where it lives) and
//! `modelDescription.xml` (written with quick-xml), from the same list; then it links the
//! shared library with the system C compiler and packs the FMU (zip).

use super::{c_string, object_files_of, Target};
use crate::diag::Diagnostic;
use crate::flat::{FlatModel, VarKind};
use crate::plan::{Plan, Slot, SlotKind};
use crate::system::{Method, SVarKind};
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, Event};
use rtc_runtime::door::Admissible;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The wrappers and the files they are compiled with.
const FMI3_C: &str = include_str!("../../fmi/fmi3.c");
const FMI2_C: &str = include_str!("../../fmi/fmi2.c");
const FMI2_HEADERS: [(&str, &str); 3] = [
    (
        "fmi2Functions.h",
        include_str!("../../fmi/fmi2/fmi2Functions.h"),
    ),
    (
        "fmi2FunctionTypes.h",
        include_str!("../../fmi/fmi2/fmi2FunctionTypes.h"),
    ),
    (
        "fmi2TypesPlatform.h",
        include_str!("../../fmi/fmi2/fmi2TypesPlatform.h"),
    ),
];
const FMI3_HEADERS: [(&str, &str); 3] = [
    (
        "fmi3Functions.h",
        include_str!("../../fmi/fmi3/fmi3Functions.h"),
    ),
    (
        "fmi3FunctionTypes.h",
        include_str!("../../fmi/fmi3/fmi3FunctionTypes.h"),
    ),
    (
        "fmi3PlatformTypes.h",
        include_str!("../../fmi/fmi3/fmi3PlatformTypes.h"),
    ),
];
const CORE_C: &str = include_str!("../../fmi/rtc_fmu_core.c");
const CORE_H: &str = include_str!("../../fmi/rtc_fmu_core.h");
const EVENTS_C: &str = include_str!("../../../examples/embedded/rtc_events.c");
const EVENTS_H: &str = include_str!("../../../examples/embedded/rtc_events.h");

/// What a value reference stands for (the wrapper's `RTC_FMU_*` kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Time,
    /// A tunable parameter: its slot.
    Parameter(usize),
    /// A parameter computed from others: its slot.
    Calculated(usize),
    /// An input: its ordinal among the inputs.
    Input(usize),
    /// A recorded variable: its index in `outputs()`; whether it is a top-level output.
    Output(usize, bool),
}

struct FmuVar {
    name: String,
    kind: Kind,
    /// Start value (parameters, inputs).
    start: Option<f64>,
    discrete: bool,
    unit: Option<String>,
    description: Option<String>,
    /// What a setter may write (tunable parameters, inputs; `ANY` for the rest): declared in
    /// the model description as `min`/`max` and checked by the setters.
    door: Admissible,
}

/// The FMI version of an FMU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    Fmi2,
    Fmi3,
}

/// The FMU of a plan: every file of it, before linking.
pub struct Fmu {
    pub version: Version,
    pub model_identifier: String,
    pub model_description: String,
    pub object: Vec<u8>,
    pub header: String,
    /// `rtc_fmu.h`, the variable table the wrapper reads.
    pub table: String,
    pub platform: &'static str,
    pub target: &'static Target,
    /// Static archives of the external calls' C code, linked after the object with their
    /// symbols kept local to the FMU's library.
    pub c_archives: Vec<PathBuf>,
    /// Data files the external objects' constructors read, copied into `resources/` (name
    /// there, file).
    pub resources: Vec<(String, PathBuf)>,
}

/// The platform name of a target for an FMI version (FMI 3: `<arch>-<os>`; FMI 2 names
/// only `linux64` among the targets rtc has), where one is defined.
fn platform(target: &Target, version: Version) -> Option<&'static str> {
    match (version, target.triple) {
        (Version::Fmi3, "x86_64-unknown-linux-gnu") => Some("x86_64-linux"),
        (Version::Fmi3, "aarch64-unknown-linux-gnu") => Some("aarch64-linux"),
        (Version::Fmi2, "x86_64-unknown-linux-gnu") => Some("linux64"),
        _ => None,
    }
}

/// Builds the FMU's parts for `plan` (compiled with `method` at step `h`).
pub fn fmu(
    plan: &Plan,
    flat: &FlatModel,
    method: &Method,
    h: f64,
    target: &'static Target,
    version: Version,
    source: &str,
) -> Result<Fmu, Box<Diagnostic>> {
    let platform = platform(target, version).ok_or_else(|| {
        Box::new(
            Diagnostic::error(
                "command-line",
                format!(
                    "no FMI {} platform for target `{}`",
                    if version == Version::Fmi2 { 2 } else { 3 },
                    target.triple
                ),
            )
            .help("FMI 3 FMUs are built for x86_64-unknown-linux-gnu and aarch64-unknown-linux-gnu, FMI 2 FMUs (platform linux64) for x86_64-unknown-linux-gnu"),
        )
    })?;
    // An FMU's binary runs wherever the importing tool runs: the target's baseline.
    let files = object_files_of(
        plan,
        flat,
        method,
        h,
        target,
        &crate::codegen::Cpu::Baseline,
        None,
        source,
    )?;
    let (vars, inputs) = variables(plan, flat, &files.defaults);
    let body = match version {
        Version::Fmi3 => description_body(plan, flat, &vars, &files.prefix, h, method),
        Version::Fmi2 => description_body_2(plan, flat, &vars, &files.prefix, h, method),
    };
    // The method is part of the identity even where the description does not name it.
    let token = token(&body, &format!("{method:?} {h:?} {}", target.triple));
    let model_description = description(&body, &token, version)?;
    let table = table(plan, &vars, &inputs, &token);
    Ok(Fmu {
        version,
        model_identifier: files.prefix,
        model_description,
        object: files.object,
        header: files.header,
        table,
        platform,
        target,
        c_archives: Vec::new(),
        resources: Vec::new(),
    })
}

/// The variables the FMU declares, in value-reference order (time first), and the slots of
/// each input (an input is read at every stage time a formula has).
fn variables(plan: &Plan, flat: &FlatModel, defaults: &[f64]) -> (Vec<FmuVar>, Vec<Vec<usize>>) {
    let attrs = |name: &str| {
        flat.vars
            .iter()
            .find(|v| v.name == name)
            .map(|v| (v.unit.clone(), v.description.clone()))
            .unwrap_or((None, None))
    };
    let mut vars = vec![FmuVar {
        name: "time".into(),
        kind: Kind::Time,
        start: None,
        discrete: false,
        unit: Some("s".into()),
        description: Some("simulation time".into()),
        door: Admissible::ANY,
    }];
    let tunable = plan.tunable_parameters();
    for (i, v) in plan.vars.iter().enumerate() {
        if v.kind != SlotKind::System(SVarKind::Parameter)
            || v.name == "initial()"
            || v.name == "homotopy()"
        {
            continue;
        }
        let (unit, description) = attrs(&v.name);
        let kind = if tunable.contains(&Slot::new(i)) {
            Kind::Parameter(i)
        } else {
            Kind::Calculated(i)
        };
        vars.push(FmuVar {
            name: v.name.clone(),
            start: matches!(kind, Kind::Parameter(_)).then(|| defaults[i]),
            door: match kind {
                Kind::Parameter(_) => v.admissible,
                _ => Admissible::ANY,
            },
            kind,
            discrete: false,
            unit,
            description,
        });
    }
    let mut inputs: Vec<(String, Vec<usize>, f64)> = Vec::new();
    let mut doors = Vec::new();
    for s in crate::sim::input_slots(plan) {
        match inputs.iter_mut().find(|x| x.0 == s.name) {
            Some(x) => x.1.push(s.slot),
            None => {
                inputs.push((s.name.clone(), vec![s.slot], defaults[s.slot]));
                doors.push(s.admissible);
            }
        }
    }
    for (k, (name, _, start)) in inputs.iter().enumerate() {
        let (unit, description) = attrs(name);
        vars.push(FmuVar {
            door: doors[k],
            name: name.clone(),
            kind: Kind::Input(k),
            start: Some(*start),
            discrete: false,
            unit,
            description,
        });
    }
    for (i, o) in plan.outputs.iter().enumerate() {
        if o.kind == VarKind::Parameter
            || inputs.iter().any(|x| x.0 == o.name)
            || vars.iter().any(|v| v.name == o.name)
        {
            continue;
        }
        let (unit, description) = attrs(&o.name);
        vars.push(FmuVar {
            name: o.name.clone(),
            kind: Kind::Output(i, o.is_output),
            start: None,
            door: Admissible::ANY,
            discrete: matches!(o.kind, VarKind::Discrete | VarKind::Sampled),
            unit,
            description,
        });
    }
    (vars, inputs.into_iter().map(|x| x.1).collect())
}

/// An element of the model description.
struct El {
    name: &'static str,
    attrs: Vec<(&'static str, String)>,
    children: Vec<El>,
}

impl El {
    fn new(name: &'static str) -> El {
        El {
            name,
            attrs: Vec::new(),
            children: Vec::new(),
        }
    }

    fn attr(mut self, k: &'static str, v: impl Into<String>) -> El {
        self.attrs.push((k, v.into()));
        self
    }

    fn child(mut self, c: El) -> El {
        self.children.push(c);
        self
    }

    fn write(&self, w: &mut quick_xml::Writer<Vec<u8>>) -> std::io::Result<()> {
        let mut start = BytesStart::new(self.name);
        for (k, v) in &self.attrs {
            start.push_attribute((*k, v.as_str()));
        }
        if self.children.is_empty() {
            return w.write_event(Event::Empty(start));
        }
        w.write_event(Event::Start(start))?;
        for c in &self.children {
            c.write(w)?;
        }
        w.write_event(Event::End(BytesEnd::new(self.name)))
    }
}

fn real(x: f64) -> String {
    // Shortest text that reads back to the same double.
    let s = format!("{x:?}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// The model description without its instantiation token (which is a hash of it).
fn description_body(
    plan: &Plan,
    flat: &FlatModel,
    vars: &[FmuVar],
    id: &str,
    h: f64,
    method: &Method,
) -> El {
    let mut root = El::new("fmiModelDescription")
        .attr("fmiVersion", "3.0")
        .attr("modelName", plan.name.clone())
        .attr(
            "description",
            flat.description
                .clone()
                .unwrap_or_else(|| format!("{} ({} at h = {})", plan.name, method.name(), h)),
        )
        .attr(
            "generationTool",
            format!("rtc {}", env!("CARGO_PKG_VERSION")),
        )
        .attr("variableNamingConvention", "flat");
    root = root.child(
        El::new("CoSimulation")
            .attr("modelIdentifier", id)
            .attr("canHandleVariableCommunicationStepSize", "true")
            .attr("fixedInternalStepSize", real(h))
            .attr("canGetAndSetFMUState", "true")
            .attr("canSerializeFMUState", "true")
            .attr("canReturnEarlyAfterIntermediateUpdate", "false")
            .attr("hasEventMode", "false")
            .attr("providesIntermediateUpdate", "false")
            .attr("providesEvaluateDiscreteStates", "false"),
    );
    let mut units: Vec<String> = vars.iter().filter_map(|v| v.unit.clone()).collect();
    units.sort();
    units.dedup();
    if !units.is_empty() {
        let mut ud = El::new("UnitDefinitions");
        for u in units {
            ud = ud.child(El::new("Unit").attr("name", u));
        }
        root = root.child(ud);
    }
    let mut exp = El::new("DefaultExperiment")
        .attr("startTime", real(flat.experiment.start_time.unwrap_or(0.0)))
        .attr("stepSize", real(h));
    if let Some(stop) = flat.experiment.stop_time {
        exp = exp.attr("stopTime", real(stop));
    }
    root = root.child(exp);
    let mut mv = El::new("ModelVariables");
    let mut structure = El::new("ModelStructure");
    for (vr, v) in vars.iter().enumerate() {
        let mut e = El::new("Float64")
            .attr("name", v.name.clone())
            .attr("valueReference", vr.to_string());
        if let Some(d) = &v.description {
            e = e.attr("description", d.clone());
        }
        let (causality, variability) = match v.kind {
            Kind::Time => ("independent", "continuous"),
            Kind::Parameter(_) => ("parameter", "tunable"),
            Kind::Calculated(_) => ("calculatedParameter", "tunable"),
            Kind::Input(_) => ("input", "continuous"),
            Kind::Output(_, true) => ("output", if v.discrete { "discrete" } else { "continuous" }),
            Kind::Output(_, false) => ("local", if v.discrete { "discrete" } else { "continuous" }),
        };
        e = e
            .attr("causality", causality)
            .attr("variability", variability);
        if matches!(v.kind, Kind::Calculated(_) | Kind::Output(..)) {
            e = e.attr("initial", "calculated");
        }
        if let Some(u) = &v.unit {
            e = e.attr("unit", u.clone());
        }
        if let Some(s) = v.start {
            e = e.attr("start", real(s));
        }
        if v.door.min.is_finite() {
            e = e.attr("min", real(v.door.min));
        }
        if v.door.max.is_finite() {
            e = e.attr("max", real(v.door.max));
        }
        mv = mv.child(e);
        if let Kind::Output(_, true) = v.kind {
            structure = structure.child(El::new("Output").attr("valueReference", vr.to_string()));
        }
    }
    // Initial unknowns: the outputs and the calculated parameters (what initialisation
    // computes that a master may read), by value reference.
    for (vr, v) in vars.iter().enumerate() {
        if matches!(v.kind, Kind::Output(_, true) | Kind::Calculated(_)) {
            structure =
                structure.child(El::new("InitialUnknown").attr("valueReference", vr.to_string()));
        }
    }
    root.child(mv).child(structure)
}

/// The FMI 2.0 model description without its GUID: the same variables as ScalarVariables.
fn description_body_2(
    plan: &Plan,
    flat: &FlatModel,
    vars: &[FmuVar],
    id: &str,
    h: f64,
    method: &Method,
) -> El {
    let fmi3 = description_body(plan, flat, vars, id, h, method);
    let mut root = El::new("fmiModelDescription")
        .attr("fmiVersion", "2.0")
        .attr("modelName", plan.name.clone());
    for (k, v) in fmi3.attrs.iter().skip(2) {
        root = root.attr(k, v.clone());
    }
    root = root.attr("numberOfEventIndicators", "0");
    root = root.child(
        El::new("CoSimulation")
            .attr("modelIdentifier", id)
            .attr("canHandleVariableCommunicationStepSize", "true")
            .attr("canInterpolateInputs", "false")
            .attr("maxOutputDerivativeOrder", "0")
            .attr("canRunAsynchronuously", "false")
            .attr("canGetAndSetFMUstate", "true")
            .attr("canSerializeFMUstate", "true")
            .attr("providesDirectionalDerivative", "false"),
    );
    for c in fmi3
        .children
        .iter()
        .filter(|c| c.name == "UnitDefinitions" || c.name == "DefaultExperiment")
    {
        root = root.child(clone_el(c));
    }
    let mut mv = El::new("ModelVariables");
    let mut outputs = El::new("Outputs");
    let mut initial = El::new("InitialUnknowns");
    let fmi3_vars = fmi3
        .children
        .iter()
        .find(|c| c.name == "ModelVariables")
        .map(|c| c.children.as_slice())
        .unwrap_or_default();
    for (k, e) in fmi3_vars.iter().enumerate() {
        let get = |key: &str| {
            e.attrs
                .iter()
                .find(|(a, _)| *a == key)
                .map(|(_, v)| v.clone())
        };
        let mut sv = El::new("ScalarVariable");
        for key in [
            "name",
            "valueReference",
            "description",
            "causality",
            "variability",
            "initial",
        ] {
            if let Some(v) = get(key) {
                sv = sv.attr(
                    match key {
                        "name" => "name",
                        "valueReference" => "valueReference",
                        "description" => "description",
                        "causality" => "causality",
                        "variability" => "variability",
                        _ => "initial",
                    },
                    v,
                );
            }
        }
        let mut real = El::new("Real");
        for key in ["unit", "min", "max", "start"] {
            if let Some(v) = get(key) {
                real = real.attr(
                    match key {
                        "unit" => "unit",
                        "min" => "min",
                        "max" => "max",
                        _ => "start",
                    },
                    v,
                );
            }
        }
        mv = mv.child(sv.child(real));
        // The index is the variable's position in ModelVariables, from 1.
        let index = (k + 1).to_string();
        match get("causality").as_deref() {
            Some("output") => {
                outputs = outputs.child(El::new("Unknown").attr("index", index.clone()));
                initial = initial.child(El::new("Unknown").attr("index", index));
            }
            Some("calculatedParameter") => {
                initial = initial.child(El::new("Unknown").attr("index", index));
            }
            _ => {}
        }
    }
    let mut structure = El::new("ModelStructure");
    if !outputs.children.is_empty() {
        structure = structure.child(outputs);
    }
    if !initial.children.is_empty() {
        structure = structure.child(initial);
    }
    root.child(mv).child(structure)
}

/// A token from a hash of the description and the options (FNV-1a, 128 bits, as a GUID).
fn token(body: &El, options: &str) -> String {
    let mut w = quick_xml::Writer::new(Vec::new());
    let _ = body.write(&mut w);
    let mut bytes = w.into_inner();
    bytes.extend_from_slice(options.as_bytes());
    let mut h: u128 = 0x6c62272e07bb014262b821756295c58d;
    for b in bytes {
        h ^= b as u128;
        h = h.wrapping_mul(0x0000000001000000000000000000013B);
    }
    let x = format!("{h:032x}");
    format!(
        "{{{}-{}-{}-{}-{}}}",
        &x[0..8],
        &x[8..12],
        &x[12..16],
        &x[16..20],
        &x[20..32]
    )
}

fn description(body: &El, token: &str, version: Version) -> Result<String, Box<Diagnostic>> {
    let mut root = El {
        name: body.name,
        attrs: body.attrs.clone(),
        children: Vec::new(),
    };
    let key = match version {
        Version::Fmi3 => "instantiationToken",
        Version::Fmi2 => "guid",
    };
    root.attrs.insert(2, (key, token.to_string()));
    root.children = body.children.iter().map(clone_el).collect();
    let mut w = quick_xml::Writer::new_with_indent(Vec::new(), b' ', 2);
    let io = |e: std::io::Error| {
        Box::new(Diagnostic::error(
            "fmu",
            format!("cannot write modelDescription.xml: {e}"),
        ))
    };
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))
        .map_err(io)?;
    root.write(&mut w).map_err(io)?;
    let mut s = String::from_utf8(w.into_inner()).expect("XML of UTF-8 strings");
    s.push('\n');
    Ok(s)
}

fn clone_el(e: &El) -> El {
    El {
        name: e.name,
        attrs: e.attrs.clone(),
        children: e.children.iter().map(clone_el).collect(),
    }
}

/// `rtc_fmu.h`: the value-reference table the wrapper reads.
fn table(plan: &Plan, vars: &[FmuVar], inputs: &[Vec<usize>], token: &str) -> String {
    let mut h = String::new();
    let _ = writeln!(
        h,
        "/* rtc_fmu.h: the FMU's variables by value reference (written by `rtc fmu` with\n * modelDescription.xml). */\n#ifndef RTC_FMU_H\n#define RTC_FMU_H\n#include <math.h>\n#include <stdint.h>\n"
    );
    let _ = writeln!(h, "#define RTC_FMU_TOKEN {}", c_string(token));
    let _ = writeln!(h, "#define RTC_FMU_VAR_COUNT {}", vars.len());
    h.push_str("enum { RTC_FMU_TIME, RTC_FMU_PARAMETER, RTC_FMU_CALCULATED, RTC_FMU_INPUT, RTC_FMU_OUTPUT };\n");
    let kinds: Vec<String> = vars
        .iter()
        .map(|v| {
            match v.kind {
                Kind::Time => "RTC_FMU_TIME",
                Kind::Parameter(_) => "RTC_FMU_PARAMETER",
                Kind::Calculated(_) => "RTC_FMU_CALCULATED",
                Kind::Input(_) => "RTC_FMU_INPUT",
                Kind::Output(..) => "RTC_FMU_OUTPUT",
            }
            .to_string()
        })
        .collect();
    let index: Vec<String> = vars
        .iter()
        .map(|v| match v.kind {
            Kind::Time => 0,
            Kind::Parameter(s) | Kind::Calculated(s) => s,
            Kind::Input(k) => k,
            Kind::Output(i, _) => i,
        })
        .map(|x| x.to_string())
        .collect();
    let names: Vec<String> = vars.iter().map(|v| c_string(&v.name)).collect();
    // The doors of what a setter writes: the declaration's min/max and type
    // (`rtc_runtime::door`, as `rtc run` checks its inputs and commands).
    let doors: Vec<Admissible> = vars.iter().map(|v| v.door).collect();
    let bound = |x: f64| {
        if x == f64::INFINITY {
            "HUGE_VAL".to_string()
        } else if x == f64::NEG_INFINITY {
            "-HUGE_VAL".to_string()
        } else {
            format!("{x:?}")
        }
    };
    let _ = writeln!(
        h,
        "/* What a setter may write (else fmi3Error/fmi2Error, the value kept): min, max, and\n * the type (0 Real, 1 Integer, 2 Boolean). */\nstatic const double rtc_fmu_min[{n}] = {{{}}};\nstatic const double rtc_fmu_max[{n}] = {{{}}};\nstatic const int32_t rtc_fmu_type[{n}] = {{{}}};",
        doors.iter().map(|d| bound(d.min)).collect::<Vec<_>>().join(", "),
        doors.iter().map(|d| bound(d.max)).collect::<Vec<_>>().join(", "),
        doors
            .iter()
            .map(|d| match d.kind {
                rtc_runtime::door::ValueKind::Real => "0",
                rtc_runtime::door::ValueKind::Integer => "1",
                rtc_runtime::door::ValueKind::Boolean => "2",
            })
            .collect::<Vec<_>>()
            .join(", "),
        n = vars.len()
    );
    let _ = writeln!(
        h,
        "static const int32_t rtc_fmu_kind[{}] = {{{}}};",
        vars.len(),
        kinds.join(", ")
    );
    let _ = writeln!(
        h,
        "static const int32_t rtc_fmu_index[{}] = {{{}}};",
        vars.len(),
        index.join(", ")
    );
    let _ = writeln!(
        h,
        "static const char *const rtc_fmu_names[{}] = {{{}}};",
        vars.len(),
        names.join(", ")
    );
    // Inputs: the slots of input k are rtc_fmu_input_slots[first[k] .. first[k + 1]].
    let mut first = vec![0usize];
    let mut slots = Vec::new();
    for s in inputs {
        slots.extend(s.iter().map(|x| x.to_string()));
        first.push(slots.len());
    }
    if slots.is_empty() {
        slots.push("0".into());
    }
    let _ = writeln!(
        h,
        "static const int32_t rtc_fmu_input_first[{}] = {{{}}};",
        first.len(),
        first
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        h,
        "static const int32_t rtc_fmu_input_slots[{}] = {{{}}};",
        slots.len(),
        slots.join(", ")
    );
    // Slot names, for messages naming a variable that became non-finite.
    let _ = writeln!(h, "#define RTC_FMU_SLOT_COUNT {}", plan.vars.len());
    let _ = writeln!(
        h,
        "static const char *const rtc_fmu_slot_names[{}] = {{{}}};",
        plan.vars.len().max(1),
        if plan.vars.is_empty() {
            "\"\"".to_string()
        } else {
            plan.vars
                .iter()
                .map(|v| c_string(&v.name))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    h.push_str("#endif\n");
    h
}

/// Writes the FMU: `out` ending in `.fmu` is the zip; otherwise a directory with the FMU's
/// tree unpacked. Links with the C compiler `cc` (or `CC`); where there is none, writes the
/// object, the wrapper sources and the XML into `out` (a directory) and says so.
pub fn write(fmu: &Fmu, out: &Path) -> Result<Vec<String>, Box<Diagnostic>> {
    let file_err = |p: &Path, e: std::io::Error| {
        Box::new(Diagnostic::error(
            "file",
            format!("cannot write {}: {e}", p.display()),
        ))
    };
    let build = tempdir()?;
    let id = &fmu.model_identifier;
    let mut sources: Vec<(String, Vec<u8>)> = vec![
        (format!("{id}.o"), fmu.object.clone()),
        (format!("{id}.h"), fmu.header.clone().into_bytes()),
        ("rtc_fmu.h".into(), fmu.table.clone().into_bytes()),
        (
            wrapper(fmu.version).0.into(),
            wrapper(fmu.version).1.as_bytes().to_vec(),
        ),
        ("rtc_fmu_core.c".into(), CORE_C.as_bytes().to_vec()),
        ("rtc_fmu_core.h".into(), CORE_H.as_bytes().to_vec()),
        ("rtc_events.c".into(), EVENTS_C.as_bytes().to_vec()),
        ("rtc_events.h".into(), EVENTS_H.as_bytes().to_vec()),
    ];
    let headers = match fmu.version {
        Version::Fmi3 => FMI3_HEADERS,
        Version::Fmi2 => FMI2_HEADERS,
    };
    for (n, t) in headers {
        sources.push((n.into(), t.as_bytes().to_vec()));
    }
    for a in &fmu.c_archives {
        let name = a
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let bytes = std::fs::read(a).map_err(|e| {
            Box::new(Diagnostic::error(
                "file",
                format!("cannot read {}: {e}", a.display()),
            ))
        })?;
        sources.push((name, bytes));
    }
    for (n, b) in &sources {
        let p = build.join(n);
        std::fs::write(&p, b).map_err(|e| file_err(&p, e))?;
    }
    let lib = build.join(format!("{id}.so"));
    let linked = link(fmu, &build, &lib);
    let mut notes = Vec::new();
    let so = match linked {
        Ok(()) => std::fs::read(&lib).map_err(|e| file_err(&lib, e))?,
        Err(why) => {
            // No toolchain: the parts, for the user's own.
            let dir = if out.extension().is_some_and(|e| e == "fmu") {
                out.with_extension("")
            } else {
                out.to_path_buf()
            };
            std::fs::create_dir_all(&dir).map_err(|e| file_err(&dir, e))?;
            for (n, b) in &sources {
                let p = dir.join(n);
                std::fs::write(&p, b).map_err(|e| file_err(&p, e))?;
            }
            let p = dir.join("modelDescription.xml");
            std::fs::write(&p, &fmu.model_description).map_err(|e| file_err(&p, e))?;
            let _ = std::fs::remove_dir_all(&build);
            return Err(Box::new(
                Diagnostic::error("fmu", format!("cannot link the FMU's library: {why}"))
                    .help(format!(
                        "wrote the object, the wrapper sources and modelDescription.xml to {}; link them as a shared library with: cc -shared -fPIC -O2 -std=c99 -DRTC_MODEL_HEADER='\"{id}.h\"' {} rtc_fmu_core.c rtc_events.c {id}.o -lm -o {id}.so",
                        dir.display(),
                        wrapper(fmu.version).0
                    )),
            ));
        }
    };
    let _ = std::fs::remove_dir_all(&build);
    let binary = format!("binaries/{}/{id}.so", fmu.platform);
    if out.extension().is_some_and(|e| e == "fmu") {
        let f = std::fs::File::create(out).map_err(|e| file_err(out, e))?;
        let mut z = zip::ZipWriter::new(f);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        let zerr = |e: zip::result::ZipError| {
            Box::new(Diagnostic::error(
                "file",
                format!("cannot write {}: {e}", out.display()),
            ))
        };
        use std::io::Write as _;
        for (name, bytes) in [
            (
                "modelDescription.xml".to_string(),
                fmu.model_description.as_bytes(),
            ),
            (binary.clone(), so.as_slice()),
        ] {
            z.start_file(name, opts).map_err(zerr)?;
            z.write_all(bytes).map_err(|e| file_err(out, e))?;
        }
        for (name, path) in &fmu.resources {
            let bytes = std::fs::read(path).map_err(|e| file_err(path, e))?;
            z.start_file(format!("resources/{name}"), opts)
                .map_err(zerr)?;
            z.write_all(&bytes).map_err(|e| file_err(out, e))?;
        }
        z.finish().map_err(zerr)?;
        notes.push(format!("wrote {}", out.display()));
    } else {
        let bin = out.join("binaries").join(fmu.platform);
        std::fs::create_dir_all(&bin).map_err(|e| file_err(&bin, e))?;
        let p = out.join("modelDescription.xml");
        std::fs::write(&p, &fmu.model_description).map_err(|e| file_err(&p, e))?;
        let p = bin.join(format!("{id}.so"));
        std::fs::write(&p, &so).map_err(|e| file_err(&p, e))?;
        if !fmu.resources.is_empty() {
            let res = out.join("resources");
            std::fs::create_dir_all(&res).map_err(|e| file_err(&res, e))?;
            for (name, path) in &fmu.resources {
                let p = res.join(name);
                std::fs::copy(path, &p).map_err(|e| file_err(&p, e))?;
            }
        }
        notes.push(format!("wrote {} (an unpacked FMU)", out.display()));
    }
    Ok(notes)
}

/// The wrapper's file name and text.
fn wrapper(version: Version) -> (&'static str, &'static str) {
    match version {
        Version::Fmi3 => ("fmi3.c", FMI3_C),
        Version::Fmi2 => ("fmi2.c", FMI2_C),
    }
}

/// The C compiler for a target: `CC` for the host, else `cc`; the GNU cross compiler for
/// AArch64 Linux.
fn compiler(target: &Target) -> String {
    match target.triple {
        "aarch64-unknown-linux-gnu" if std::env::consts::ARCH != "aarch64" => {
            "aarch64-linux-gnu-gcc".into()
        }
        _ => std::env::var("CC").unwrap_or_else(|_| "cc".into()),
    }
}

/// Why the FMU's shared library did not link.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LinkError {
    #[error("`{cc}` not found ({why})")]
    NoCompiler { cc: String, why: String },
    #[error("`{cc}` failed: {stderr}")]
    Failed { cc: String, stderr: String },
}

fn link(fmu: &Fmu, dir: &Path, lib: &Path) -> Result<(), LinkError> {
    let cc = compiler(fmu.target);
    let header = format!("-DRTC_MODEL_HEADER=\"{}.h\"", fmu.model_identifier);
    let out = std::process::Command::new(&cc)
        .current_dir(dir)
        .args([
            "-shared",
            "-fPIC",
            "-O2",
            "-std=c99",
            "-I.",
            &header,
            wrapper(fmu.version).0,
            "rtc_fmu_core.c",
            "rtc_events.c",
            &format!("{}.o", fmu.model_identifier),
        ])
        .args(fmu.c_archives.iter().filter_map(|a| a.file_name()))
        .args(if fmu.c_archives.is_empty() {
            &[][..]
        } else {
            // Two FMUs in one process must not share rtc's callbacks or a library's state.
            &["-Wl,--exclude-libs,ALL"][..]
        })
        .args(["-lm", "-o"])
        .arg(lib)
        .output()
        .map_err(|e| LinkError::NoCompiler {
            cc: cc.clone(),
            why: e.to_string(),
        })?;
    if out.status.success() {
        Ok(())
    } else {
        Err(LinkError::Failed {
            cc,
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        })
    }
}

fn tempdir() -> Result<PathBuf, Box<Diagnostic>> {
    let base = std::env::temp_dir().join(format!(
        "rtc-fmu-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&base).map_err(|e| {
        Box::new(Diagnostic::error(
            "file",
            format!("cannot create {}: {e}", base.display()),
        ))
    })?;
    Ok(base)
}
