//! The C shim around one external call (specification 12.9.1–12.9.3): every argument kind
//! of the C mapping converted from and to the doubles rtc computes with.
//!
//! rtc's expressions are doubles; a C function takes `int`, `size_t`, `const char*`, arrays
//! behind pointers, and gives results through pointers. For each call shape (the C function,
//! each argument's kind, type and size, the String constants) rtc writes a shim
//!
//! ```c
//! void rtc_x_<hash>(const double* in, double* out);
//! ```
//!
//! which copies `in` into C locals of the declared types (`int` for Integer, Boolean and
//! enumerations, `size_t` for `size(…)` arguments, row-major arrays), calls the function with
//! outputs through pointers (12.9.1.1, 12.9.3: one returned value where the clause is an
//! equation or the default mapping has one output), and copies the outputs back to `out`.
//! Generated code calls it as it calls a function compiled out of line (the same signature),
//! so interpreter, JIT and objects share it.
//!
//! **Errors.** `ModelicaError` is declared no-return: the shim sets a `jmp_buf` with `setjmp`
//! and registers it (`support.c`); the error longjmps back into the shim (crossing only C
//! frames), which writes NaN to its outputs; rtc reads the message and stops the run there.
//!
//! **Derivatives.** Each shim has a companion `<symbol>_dot(in[2n], out)`, the directional
//! derivative by central differences in C (as for `double f(double)` externals), used where
//! no `derivative` annotation gives one and a Jacobian needs it.

use super::text::Conv;
use super::ExternalLibs;
use std::fmt::Write;
use std::sync::{Arc, Mutex};

/// A C scalar type of the mapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CTy {
    Double,
    /// Integer, Boolean, enumerations.
    Int,
    /// A `size(a, k)` argument.
    SizeT,
    /// A String output (`const char*`, in the shim's string outputs `sout`).
    Str,
    /// An external object (`void*`), its bits carried in a double (12.9.7).
    Ptr,
}

impl CTy {
    fn name(self) -> &'static str {
        match self {
            CTy::Double => "double",
            CTy::Int => "int",
            CTy::SizeT => "size_t",
            CTy::Str => "const char*",
            CTy::Ptr => "void*",
        }
    }
}

/// One argument of the C call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    /// `n` values from `in[at..]`: a scalar, or an array passed by address.
    In {
        ty: CTy,
        at: usize,
        n: usize,
        array: bool,
    },
    /// `n` values written to `out[at..]` through a pointer; `init`: the values the storage
    /// holds before the call (a protected variable assigned before), from `in[init..]`.
    Out {
        ty: CTy,
        at: usize,
        n: usize,
        init: Option<usize>,
    },
    /// A record passed by reference (12.9.1.3): a C struct of its components in declaration
    /// order, nested records as nested structs; `out`: the function writes it (an output or
    /// a protected variable), its numbers read back after the call.
    Rec { fields: Vec<RecField>, out: bool },
    /// A String known at compile time.
    Str(String),
    /// A data file an FMU carries in its `resources/` folder: its name there, joined to the
    /// folder the FMU is given when instantiated (`rtc_res_dir`, objects.rs).
    Resource(String),
    /// A String known only while the model runs: literal text and values from `in`,
    /// formatted as `String(x, <options>)` formats them (text.rs).
    Text(Vec<TextPiece>),
}

/// A component of a record passed to a C function.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RecField {
    /// A number (`double`, or `int` for Integer, Boolean and enumerations): of an input
    /// record from `in[at]`; of an output record written to `out[at]`, holding `in[init]`
    /// (its value before the call) or zero when called.
    Num {
        ty: CTy,
        at: usize,
        init: Option<usize>,
    },
    /// A String component known at compile time (input records only).
    Str(String),
    /// A nested record.
    Rec(Vec<RecField>),
}

/// The C struct type of a record's components: `struct { double m0; int m1; … }`.
fn struct_type(fields: &[RecField]) -> String {
    let mut s = String::from("struct {");
    for (i, f) in fields.iter().enumerate() {
        match f {
            RecField::Num { ty, .. } => {
                let _ = write!(s, " {} m{i};", ty.name());
            }
            RecField::Str(_) => {
                let _ = write!(s, " const char* m{i};");
            }
            RecField::Rec(inner) => {
                let _ = write!(s, " {} m{i};", struct_type(inner));
            }
        }
    }
    s.push_str(" }");
    s
}

/// Statements setting the components of the struct at `path` before the call.
fn struct_set(s: &mut String, path: &str, fields: &[RecField], out: bool) {
    for (i, f) in fields.iter().enumerate() {
        match f {
            RecField::Num { ty, at, init } => {
                let v = match (out, init) {
                    (false, _) => format!("({})in[{at}]", ty.name()),
                    (true, Some(k)) => format!("({})in[{k}]", ty.name()),
                    (true, None) => "0".to_string(),
                };
                let _ = writeln!(s, "    {path}.m{i} = {v};");
            }
            RecField::Str(t) => {
                let _ = writeln!(s, "    {path}.m{i} = {};", c_string(t));
            }
            RecField::Rec(inner) => struct_set(s, &format!("{path}.m{i}"), inner, out),
        }
    }
}

/// Statements reading an output record's numbers back into `out` after the call.
fn struct_get(s: &mut String, path: &str, fields: &[RecField]) {
    for (i, f) in fields.iter().enumerate() {
        match f {
            RecField::Num { at, .. } => {
                let _ = writeln!(s, "    out[{at}] = (double){path}.m{i};");
            }
            RecField::Str(_) => {}
            RecField::Rec(inner) => struct_get(s, &format!("{path}.m{i}"), inner),
        }
    }
}

/// A piece of a String made while the model runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TextPiece {
    Lit(String),
    /// `in[at]` formatted by `conv`.
    Value {
        at: usize,
        conv: Conv,
    },
}

/// A call shape: what the shim is written from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    /// The C function.
    pub function: String,
    pub args: Vec<Arg>,
    /// The returned value and where it goes in `out`.
    pub ret: Option<(CTy, usize)>,
    pub n_in: usize,
    pub n_out: usize,
    /// String outputs: with any, the shim is `void shim(const double* in, double* out, const
    /// char** sout)`, called only when the model is compiled (strings are not step values).
    pub n_sout: usize,
    /// A call made for its effect under a condition: the last input is the condition, and
    /// the call is made only where it is true.
    pub guarded: bool,
    /// The `Include` text: it declares the function (no prototype is written then, 12.9).
    pub include: Option<String>,
}

/// The text of a String made while the model runs into `a{k}`, a buffer as long as the
/// longest text its pieces can give (one `snprintf`: bounded work, nothing allocated).
fn text_arg(s: &mut String, k: usize, pieces: &[TextPiece]) {
    let mut format = String::new();
    let mut values = String::new();
    let mut n = 1;
    for p in pieces {
        match p {
            TextPiece::Lit(t) => {
                format.push_str(&super::text::c_literal_format(t));
                n += t.len();
            }
            TextPiece::Value { at, conv } => {
                format.push_str(&conv.c_spec());
                let _ = write!(values, ", {}", conv.c_arg(&format!("in[{at}]")));
                n += conv.bound();
            }
        }
    }
    let _ = writeln!(
        s,
        "    char a{k}[{n}]; snprintf(a{k}, sizeof a{k}, {}{values});",
        c_string(&format)
    );
}

/// A string as a C literal.
fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    out
}

impl Spec {
    /// The prototype 12.9.1 gives the call (used where no `Include` declares the function).
    fn prototype(&self) -> String {
        let params: Vec<String> = self
            .args
            .iter()
            .map(|a| match a {
                Arg::In {
                    ty, array: true, ..
                } => format!("const {}*", ty.name()),
                Arg::In { ty, .. } => ty.name().to_string(),
                Arg::Out { ty: CTy::Str, .. } => "const char**".to_string(),
                Arg::Out { ty, .. } => format!("{}*", ty.name()),
                Arg::Str(_) | Arg::Text(_) | Arg::Resource(_) => "const char*".to_string(),
                // The library's struct type is its own: the address as `void*`.
                Arg::Rec { .. } => "void*".to_string(),
            })
            .collect();
        let ret = self.ret.map_or("void", |(t, _)| t.name());
        let params = if params.is_empty() {
            "void".to_string()
        } else {
            params.join(", ")
        };
        format!("extern {ret} {}({params});\n", self.function)
    }

    /// The shim's body (without its name): the call and the conversions.
    pub(super) fn body(&self, symbol: &str) -> String {
        let mut s = String::new();
        if self.n_sout > 0 {
            let _ = writeln!(
                s,
                "void {symbol}(const double* in, double* out, const char** sout) {{"
            );
        } else {
            let _ = writeln!(s, "void {symbol}(const double* in, double* out) {{");
        }
        s.push_str("    jmp_buf rtc_jb;\n");
        let mut call = Vec::new();
        for (k, a) in self.args.iter().enumerate() {
            match a {
                Arg::In { ty, at, n, array } => {
                    if *array {
                        let _ = writeln!(
                            s,
                            "    {t} a{k}[{m}]; for (int i = 0; i < {n}; i++) a{k}[i] = ({t})in[{at} + i];",
                            t = ty.name(),
                            m = n.max(&1)
                        );
                        call.push(format!("a{k}"));
                    } else if *ty == CTy::Ptr {
                        call.push(format!("rtc_ptr(in[{at}])"));
                    } else {
                        call.push(format!("({})in[{at}]", ty.name()));
                    }
                }
                Arg::Out {
                    ty: CTy::Str, n, ..
                } => {
                    let _ = writeln!(s, "    const char* a{k}[{}] = {{0}};", n.max(&1));
                    call.push(format!("a{k}"));
                }
                Arg::Out { ty, n, init, .. } => {
                    let _ = write!(s, "    {} a{k}[{}]", ty.name(), n.max(&1));
                    match init {
                        Some(i) => {
                            let _ = writeln!(
                                s,
                                "; for (int i = 0; i < {n}; i++) a{k}[i] = ({})in[{i} + i];",
                                ty.name()
                            );
                        }
                        None => s.push_str(" = {0};\n"),
                    }
                    call.push(format!("a{k}"));
                }
                Arg::Str(v) => call.push(c_string(v)),
                Arg::Resource(name) => {
                    let _ = writeln!(
                        s,
                        "    char a{k}[4096]; snprintf(a{k}, sizeof a{k}, \"%s%s\", rtc_res_dir, {});",
                        c_string(name)
                    );
                    call.push(format!("a{k}"));
                }
                Arg::Rec { fields, out } => {
                    let _ = writeln!(s, "    {} a{k};", struct_type(fields));
                    struct_set(&mut s, &format!("a{k}"), fields, *out);
                    call.push(format!("(void*)&a{k}"));
                }
                Arg::Text(pieces) => {
                    text_arg(&mut s, k, pieces);
                    call.push(format!("a{k}"));
                }
            }
        }
        if self.guarded {
            let _ = writeln!(
                s,
                "    if (in[{}] == 0.0) {{ out[0] = 0.0; return; }}",
                self.n_in - 1
            );
        }
        let _ = writeln!(
            s,
            "    if (setjmp(rtc_jb)) {{ rtc_ext_leave(); for (int i = 0; i < {}; i++) out[i] = NAN; return; }}",
            self.n_out
        );
        let _ = writeln!(
            s,
            "    rtc_ext_enter(&rtc_jb, {});",
            c_string(&self.function)
        );
        let invocation = format!("{}({})", self.function, call.join(", "));
        match self.ret {
            Some((CTy::Str, at)) => {
                let _ = writeln!(s, "    sout[{at}] = {invocation};");
            }
            Some((CTy::Ptr, at)) => {
                let _ = writeln!(s, "    out[{at}] = rtc_bits({invocation});");
            }
            Some((_, at)) => {
                let _ = writeln!(s, "    out[{at}] = (double){invocation};");
            }
            None => {
                let _ = writeln!(s, "    {invocation};");
            }
        }
        s.push_str("    rtc_ext_leave();\n");
        for (k, a) in self.args.iter().enumerate() {
            match a {
                Arg::Out {
                    ty: CTy::Str,
                    at,
                    n,
                    ..
                } => {
                    let _ = writeln!(
                        s,
                        "    for (int i = 0; i < {n}; i++) sout[{at} + i] = a{k}[i];"
                    );
                }
                Arg::Out { at, n, .. } => {
                    let _ = writeln!(
                        s,
                        "    for (int i = 0; i < {n}; i++) out[{at} + i] = (double)a{k}[i];"
                    );
                }
                Arg::Rec { fields, out: true } => struct_get(&mut s, &format!("a{k}"), fields),
                _ => {}
            }
        }
        if self.n_out == 1
            && self.ret.is_none()
            && !self
                .args
                .iter()
                .any(|a| matches!(a, Arg::Out { .. } | Arg::Rec { out: true, .. }))
        {
            // A call made for its effect: its one output is the token that orders it.
            s.push_str("    out[0] = 0.0;\n");
        }
        s.push_str("}\n");
        if self.n_sout > 0 {
            return s;
        }
        // The directional derivatives by central differences: the first, and the derivative
        // of that one (a Jacobian of a derivative: index reduction through a table).
        let first = format!("{symbol}_dot");
        central(&mut s, &first, symbol, self.n_in, self.n_out);
        central(
            &mut s,
            &format!("{first}_dot"),
            &first,
            2 * self.n_in,
            self.n_out,
        );
        s
    }

    /// The shim's symbol and C text (a function of the call shape only).
    pub fn text(&self) -> (String, String) {
        let probe = self.body("SHIM");
        let mut key = super::Key::new();
        key.add(probe.as_bytes());
        key.add(self.include.as_deref().unwrap_or("").as_bytes());
        let symbol = format!("rtc_x_{:016x}", key.0);
        (symbol.clone(), self.body(&symbol))
    }
}

/// `name(in[2n], out[m])`: the derivative of `callee(in[n], out[m])` along `in[n..2n]` by a
/// central difference (the step scaled to the arguments, zero along a zero direction).
fn central(s: &mut String, name: &str, callee: &str, n_in: usize, n_out: usize) {
    let (n, m) = (n_in.max(1), n_out.max(1));
    let _ = writeln!(
        s,
        "void {name}(const double* in, double* out) {{
    double xp[{n}], xm[{n}], fp[{m}], fm[{m}], s = 0.0, d = 0.0;
    for (int i = 0; i < {n_in}; i++) {{ s = fmax(s, fabs(in[i])); d = fmax(d, fabs(in[{n_in} + i])); }}
    if (d == 0.0) {{ for (int k = 0; k < {n_out}; k++) out[k] = 0.0; return; }}
    double h = 6.0554544523933395e-06 * (1.0 + s) / d;
    for (int i = 0; i < {n_in}; i++) {{ xp[i] = in[i] + h * in[{n_in} + i]; xm[i] = in[i] - h * in[{n_in} + i]; }}
    {callee}(xp, fp); {callee}(xm, fm);
    for (int k = 0; k < {n_out}; k++) out[k] = (fp[k] - fm[k]) / (2.0 * h);
}}"
    );
}

/// A shim written for this process's model: its symbol, its text and the C code it needs.
#[derive(Clone, Debug)]
pub struct Registered {
    pub symbol: String,
    pub spec: Spec,
    pub text: String,
    pub libs: Option<Arc<ExternalLibs>>,
    /// The external clause, for diagnostics.
    pub span: crate::diag::Span,
    /// Called while the model runs (else only evaluated when it was compiled).
    pub runtime: bool,
}

static SHIMS: Mutex<Vec<Registered>> = Mutex::new(Vec::new());

/// Registers the shim of call shape `spec` (once per shape): its symbol.
pub fn register(spec: Spec, libs: Option<ExternalLibs>, span: crate::diag::Span) -> String {
    let (symbol, text) = spec.text();
    let mut reg = SHIMS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(r) = reg.iter_mut().find(|r| r.symbol == symbol) {
        // Registered again (its declaration, then a call): the place a diagnostic names is the
        // first in the file, whichever registration came first.
        if r.span.file == span.file && span.start < r.span.start {
            r.span = span;
        }
    } else {
        reg.push(Registered {
            symbol: symbol.clone(),
            spec,
            text,
            libs: libs.map(Arc::new),
            span,
            runtime: false,
        });
    }
    symbol
}

/// External objects constructed while the model was compiled: their destructor's shim and
/// the object's bits, destroyed when the run ends ([`super::destroy_objects`]).
static OBJECTS: Mutex<Vec<(String, f64)>> = Mutex::new(Vec::new());

/// Records an object to destroy with shim `destructor` at the end of the run.
pub fn constructed(destructor: &str, object: f64) {
    let mut o = OBJECTS.lock().unwrap_or_else(|e| e.into_inner());
    if !o.iter().any(|(_, b)| b.to_bits() == object.to_bits()) {
        o.push((destructor.to_string(), object));
    }
}

/// The objects to destroy, emptied.
pub fn take_objects() -> Vec<(String, f64)> {
    std::mem::take(&mut *OBJECTS.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Whether the model holds objects constructed while it was compiled (their addresses mean
/// nothing in an object file).
pub fn any_objects() -> bool {
    !OBJECTS.lock().unwrap_or_else(|e| e.into_inner()).is_empty()
        || !super::objects::all().is_empty()
}

/// Marks shim `symbol` as called while the model runs.
pub fn mark_runtime(symbol: &str) {
    let mut reg = SHIMS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(r) = reg.iter_mut().find(|r| r.symbol == symbol) {
        r.runtime = true;
    }
}

/// The registered shim `symbol`.
pub fn get(symbol: &str) -> Option<Registered> {
    registered().into_iter().find(|r| r.symbol == symbol)
}

/// For an object (`rtc compile`): the C file that defines the shims its step calls — rtc's
/// `ModelicaUtilities.h` callbacks (`support.c`) and the shims — with a comment naming the
/// libraries it calls into and where their sources are; `None` without runtime shims.
///
/// `resources`: an FMU's, whose external objects read their data files from the folder the
/// FMU is given (objects.rs).
pub fn object_source(prefix: &str, resources: bool) -> Option<String> {
    let runtime: Vec<Registered> = registered()
        .into_iter()
        .filter(|r| r.runtime || super::objects::uses(&r.symbol))
        .collect();
    if runtime.is_empty() {
        return None;
    }
    let objects = super::objects::all();
    let mut libs: Vec<String> = Vec::new();
    for r in &runtime {
        if let Some(l) = &r.libs {
            for name in &l.libraries {
                let dirs: Vec<String> = l
                    .source_dirs
                    .iter()
                    .filter(|d| d.is_dir())
                    .map(|d| d.display().to_string())
                    .collect();
                let line = format!(
                    " *   {name} (sources in {})",
                    if dirs.is_empty() {
                        "its LibraryDirectory".to_string()
                    } else {
                        dirs.join(", ")
                    }
                );
                if !libs.contains(&line) {
                    libs.push(line);
                }
            }
        }
    }
    let mut s = format!(
        "/* {prefix}_ext.c: the C shims of the {} external call{} the step of {prefix}.o makes, and\n \
         * rtc's ModelicaUtilities callbacks, written by rtc compile. Compile it with the object and\n \
         * the libraries the calls go to (each as its own build describes it):\n{}\n \
         *   cc -c -O2 -ffp-contract=off {prefix}_ext.c   (the same flags as rtc run's cache)\n */\n",
        runtime.len(),
        if runtime.len() == 1 { "" } else { "s" },
        if libs.is_empty() { " *   (none: the functions come from --link libraries)".to_string() } else { libs.join("\n") }
    );
    s.push_str(include_str!("support.c"));
    if objects.is_empty() {
        s.push_str(&unit(&runtime, None));
    } else {
        let ptr = super::objects::prelude(&objects);
        s.push_str(&unit(&runtime, Some(&ptr)));
        s.push_str(&super::objects::init_and_free(prefix, &objects, resources));
    }
    Some(s)
}

/// Refuses a bare-metal object where the step calls C through shims: rtc's ModelicaUtilities
/// callbacks and the `ModelicaError` catch need a C library (`setjmp`, `stdio`), and the
/// MSL's C code a file system and an allocator.
pub fn refuse_bare_metal() -> Result<(), Box<crate::diag::Diagnostic>> {
    refuse_objects("a bare-metal object")?;
    let Some(r) = registered().into_iter().find(|r| r.runtime) else {
        return Ok(());
    };
    Err(Box::new(
        crate::diag::Diagnostic::error(
            "unsupported",
            format!(
                "not yet supported: a bare-metal object of a model calling the external function `{}` through a C shim",
                r.spec.function
            ),
        )
        .at(r.span, "this external call")
        .help("rtc's ModelicaUtilities callbacks need a C library (setjmp, stdio); compile for a hosted target (x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu, riscv64gc-unknown-linux-gnu), whose archive rtc builds"),
    ))
}

/// Refuses external objects where the target has no C library for their constructors (a
/// bare-metal object; hosted objects and FMUs make them again, objects.rs).
pub fn refuse_objects(what: &str) -> Result<(), Box<crate::diag::Diagnostic>> {
    if !any_objects() {
        return Ok(());
    }
    Err(Box::new(
        crate::diag::Diagnostic::error(
            "unsupported",
            format!("not yet supported: {what} of a model with external objects its library constructs (rtc run constructs them when it compiles the model)"),
        )
        .help("a hosted object or FMU makes them in its <name>_ext_init(); compile for a hosted target (x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu, riscv64gc-unknown-linux-gnu)"),
    ))
}

/// Every shim registered in this process.
pub fn registered() -> Vec<Registered> {
    SHIMS.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The translation unit of `shims`: the support's declarations, each distinct `Include`
/// text, the prototypes of functions no `Include` declares, and the shims.
///
/// `ptr`: the definition of `rtc_ptr` (an object's address from the double a shim is given)
/// where it is not the plain conversion (an object file's external objects, objects.rs).
pub fn unit(shims: &[Registered], ptr: Option<&str>) -> String {
    let mut s = String::from(
        "#include <math.h>\n#include <setjmp.h>\n#include <stddef.h>\n#include <stdio.h>\n#include <string.h>\n\
         void rtc_ext_enter(jmp_buf* b, const char* function);\nvoid rtc_ext_leave(void);\n\
         static double rtc_bits(void* p) { double d = 0.0; memcpy(&d, &p, sizeof p); return d; }\n",
    );
    s.push_str(ptr.unwrap_or(
        "static void* rtc_ptr(double d) { void* p = 0; memcpy(&p, &d, sizeof p); return p; }\n",
    ));
    let mut seen: Vec<&str> = Vec::new();
    for r in shims {
        match &r.spec.include {
            Some(inc) => {
                if !seen.contains(&inc.as_str()) {
                    seen.push(inc);
                    s.push_str(inc);
                    s.push('\n');
                }
            }
            None => s.push_str(&r.spec.prototype()),
        }
    }
    for r in shims {
        s.push_str(&r.text);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shim of `ModelicaRandom_xorshift64star(stateIn, stateOut, result)`-like call:
    /// Integer arrays converted, outputs copied back, the error catch around the call.
    #[test]
    fn a_shim_converts_each_argument_kind() {
        let spec = Spec {
            function: "f".into(),
            args: vec![
                Arg::In {
                    ty: CTy::Int,
                    at: 0,
                    n: 2,
                    array: true,
                },
                Arg::In {
                    ty: CTy::SizeT,
                    at: 2,
                    n: 1,
                    array: false,
                },
                Arg::Str("a\"b".into()),
                Arg::Out {
                    ty: CTy::Int,
                    at: 0,
                    n: 2,
                    init: None,
                },
            ],
            ret: Some((CTy::Double, 2)),
            n_in: 3,
            n_out: 3,
            n_sout: 0,
            guarded: false,
            include: None,
        };
        let (symbol, text) = spec.text();
        assert!(symbol.starts_with("rtc_x_"));
        assert!(text.contains("a0[i] = (int)in[0 + i]"), "{text}");
        assert!(
            text.contains("out[2] = (double)f(a0, (size_t)in[2], \"a\\\"b\", a3);"),
            "{text}"
        );
        assert!(text.contains("out[0 + i] = (double)a3[i]"), "{text}");
        assert_eq!(
            spec.prototype(),
            "extern double f(const int*, size_t, const char*, int*);\n"
        );
        // The same shape, the same symbol; another shape, another.
        assert_eq!(spec.text().0, symbol);
        let mut other = spec.clone();
        other.args[2] = Arg::Str("c".into());
        assert_ne!(other.text().0, symbol);
    }
}
