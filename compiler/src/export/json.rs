//! The JSON description of a compiled model (`rtc compile`): the same facts as the header for
//! tools (variables with slots, units and descriptions, events, symbols, work and stack).

use super::{json_number, json_string, kind_name, Description};
use crate::plan::SlotKind;
use crate::system::SVarKind;
use std::fmt::Write as _;

impl Description<'_> {
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
                "{{\"init\": \"{p}_init\", \"start\": \"{p}_start\", \"step\": \"{p}_step\", \"outputs\": \"{p}_outputs\", \"parameters\": \"{p}_parameters\"{}{}}}",
                if plan.events.is_empty() {
                    String::new()
                } else {
                    format!(", \"zc\": \"{p}_zc\", \"pre\": \"{p}_pre\", \"event\": \"{p}_event<k>\"")
                },
                if plan.all_assertions().next().is_none() {
                    String::new()
                } else {
                    format!(", \"asserts\": \"{p}_asserts\"")
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
            "assertions",
            format!(
                "[{}]",
                plan.assertions
                    .iter()
                    .map(|a| (a, false, "error"))
                    .chain(plan.initial_assertions.iter().map(|a| (a, true, "error")))
                    .chain(plan.warnings.iter().map(|a| (a, false, "warning")))
                    .map(|((_, m), initial, level)| format!(
                        "{{\"message\": {}, \"after_init_only\": {initial}, \"level\": \"{level}\"}}",
                        json_string(m)
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
            "external_functions",
            format!(
                "[{}]",
                self.code
                    .externals
                    .iter()
                    .map(|(s, n)| format!("{{\"name\": {}, \"arguments\": {n}}}", json_string(s)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        field(
            &mut j,
            "work_bound",
            format!(
                "{{\"flops\": {}, \"libm_calls\": {}, \"c_calls\": {}, \"newton_max_iterations\": {}}}",
                w.flops,
                w.libm_calls,
                w.c_calls,
                plan.newton.full_iterations()
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
