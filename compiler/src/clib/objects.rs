//! External objects (specification 12.9.7) in objects and FMUs.
//!
//! `rtc run` constructs an external object when the model is compiled (its constructor's
//! arguments are known then), and the step carries the object's address as a constant: the
//! bits of the pointer in this process. An object file runs in another process, so there the
//! constructor runs again, in the `<prefix>_ext_init()` that `<prefix>_ext.c` defines: each
//! object is made by its constructor's shim with the same arguments, in the order rtc made
//! them (an object given to another's constructor is made first), and kept in a table keyed
//! by the address the step carries. Every shim converts an object argument through
//! `rtc_ptr`, which in an object file looks the key up (a search over the model's few
//! objects) and passes the object made in this process. `<prefix>_ext_free()` calls the
//! destructors, the last made first; both count their callers, so the instances of an FMU
//! share one set of objects, destroyed when the last one is freed.

use std::fmt::Write as _;
use std::sync::Mutex;

/// An object made while the model was compiled.
#[derive(Clone, Debug)]
pub struct Made {
    /// The pointer's bits, as the step carries them.
    pub bits: f64,
    /// The constructor's shim, its known inputs and where the object is among its outputs.
    pub constructor: String,
    pub ins: Vec<f64>,
    pub at: usize,
    pub n_out: usize,
    /// The destructor's shim, where the class has one.
    pub destructor: Option<String>,
}

static MADE: Mutex<Vec<Made>> = Mutex::new(Vec::new());

/// Records an object the constructor shim `constructor` made from `ins` (its output `at` of
/// `n_out`).
pub fn made(bits: f64, constructor: &str, ins: Vec<f64>, at: usize, n_out: usize) {
    let mut m = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if !m.iter().any(|o| o.bits.to_bits() == bits.to_bits()) {
        m.push(Made {
            bits,
            constructor: constructor.to_string(),
            ins,
            at,
            n_out,
            destructor: None,
        });
    }
}

/// Records the destructor shim of the object `bits`.
pub fn destructor(bits: f64, symbol: &str) {
    let mut m = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(o) = m.iter_mut().find(|o| o.bits.to_bits() == bits.to_bits()) {
        o.destructor = Some(symbol.to_string());
    }
}

/// The objects made so far, in the order they were made.
pub fn all() -> Vec<Made> {
    MADE.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Whether shim `symbol` is an object's constructor or destructor (compiled into an object
/// file's C code although the step does not call it).
pub fn uses(symbol: &str) -> bool {
    all()
        .iter()
        .any(|o| o.constructor == symbol || o.destructor.as_deref() == Some(symbol))
}

/// A C literal of `x` (every finite double exactly; the non-finite by their macros).
fn c_double(x: f64) -> String {
    if x.is_nan() {
        "NAN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "INFINITY" } else { "-INFINITY" }.into()
    } else {
        format!("{x:e}")
    }
}

/// The data files the objects' constructors read (a String argument naming an existing file,
/// as the MSL's file tables have), each with its name in an FMU's `resources/` folder (its
/// own, numbered where two share one), in the order the constructors name them.
pub fn data_files() -> Vec<(String, std::path::PathBuf)> {
    let mut out: Vec<(String, std::path::PathBuf)> = Vec::new();
    for o in all() {
        let Some(r) = super::shim::get(&o.constructor) else {
            continue;
        };
        for a in &r.spec.args {
            let super::shim::Arg::Str(s) = a else {
                continue;
            };
            let path = std::path::PathBuf::from(s);
            if !path.is_absolute() || !path.is_file() || out.iter().any(|(_, p)| *p == path) {
                continue;
            }
            let base = path
                .file_name()
                .map_or_else(|| "data".to_string(), |n| n.to_string_lossy().into_owned());
            let name = if out.iter().any(|(n, _)| *n == base) {
                format!("{}_{base}", out.len())
            } else {
                base
            };
            out.push((name, path));
        }
    }
    out
}

/// The constructor call of `o` for an FMU: its shim's text with every data file read from
/// the resources folder instead (a shim of its own, `<symbol>_res`), or `None` where it reads
/// none.
fn resource_constructor(
    o: &Made,
    files: &[(String, std::path::PathBuf)],
) -> Option<(String, String)> {
    let r = super::shim::get(&o.constructor)?;
    let mut spec = r.spec.clone();
    let mut any = false;
    for a in &mut spec.args {
        if let super::shim::Arg::Str(s) = a {
            if let Some((name, _)) = files
                .iter()
                .find(|(_, p)| p.as_path() == std::path::Path::new(s))
            {
                *a = super::shim::Arg::Resource(name.clone());
                any = true;
            }
        }
    }
    let symbol = format!("{}_res", o.constructor);
    any.then(|| (symbol.clone(), spec.body(&symbol)))
}

/// The definitions the shims of an object file with objects read before theirs: the table of
/// keys and objects, and `rtc_ptr` looking a key up.
pub fn prelude(objects: &[Made]) -> String {
    let keys: Vec<String> = objects
        .iter()
        .map(|o| format!("0x{:016x}ULL", o.bits.to_bits()))
        .collect();
    format!(
        "#include <stdint.h>\n\
         static const uint64_t rtc_obj_key[{n}] = {{{}}};\n\
         static void* rtc_obj[{n}];\n\
         static int rtc_obj_users;\n\
         static char rtc_res_dir[4096];\n\
         static void* rtc_ptr(double d) {{\n    uint64_t b; void* p = 0; int i;\n    memcpy(&b, &d, sizeof b);\n    for (i = 0; i < {n}; i++) if (b == rtc_obj_key[i]) return rtc_obj[i];\n    memcpy(&p, &d, sizeof p);\n    return p;\n}}\n",
        keys.join(", "),
        n = objects.len()
    )
}

/// `<prefix>_ext_init()` and `<prefix>_ext_free()`; with `resources` (an FMU) also
/// `<prefix>_ext_resources(dir)`, and constructors that read their data files from `dir`.
pub fn init_and_free(prefix: &str, objects: &[Made], resources: bool) -> String {
    let files = if resources { data_files() } else { Vec::new() };
    let mut s = String::new();
    let mut ctors: Vec<String> = objects.iter().map(|o| o.constructor.clone()).collect();
    for (o, c) in objects.iter().zip(&mut ctors) {
        if let Some((symbol, text)) = resource_constructor(o, &files) {
            s.push_str(&text);
            *c = symbol;
        }
    }
    if resources {
        let _ = write!(
            s,
            "\n/* The folder the data files are read from (the FMU's resources, with a trailing\n * separator), set before {prefix}_ext_init(). */\nvoid {prefix}_ext_resources(const char* dir) {{\n    snprintf(rtc_res_dir, sizeof rtc_res_dir, \"%s\", dir);\n}}\n"
        );
    }
    let _ = write!(
        s,
        "\n/* The external objects, made as rtc made them when it compiled the model: 0 done, -1 a\n * constructor failed (its ModelicaError: rtc_ext_take_error). */\nint {prefix}_ext_init(void) {{\n    if (rtc_obj_users++ > 0) return 0;\n"
    );
    for (i, (o, ctor)) in objects.iter().zip(&ctors).enumerate() {
        let ins: Vec<String> = o.ins.iter().map(|&x| c_double(x)).collect();
        let ins = if ins.is_empty() {
            "0".to_string()
        } else {
            ins.join(", ")
        };
        let _ = write!(
            s,
            "    {{\n        static const double in[] = {{{ins}}};\n        double out[{n}];\n        {ctor}(in, out);\n        if (out[{at}] != out[{at}]) return -1;\n        memcpy(&rtc_obj[{i}], &out[{at}], sizeof rtc_obj[{i}]);\n        if (!rtc_obj[{i}]) return -1;\n    }}\n",
            n = o.n_out.max(1),
            at = o.at,
        );
    }
    s.push_str("    return 0;\n}\n");
    let _ = writeln!(
        s,
        "\n/* Destroys the objects when the last user is done, the last made first. */\nvoid {prefix}_ext_free(void) {{\n    if (rtc_obj_users == 0 || --rtc_obj_users > 0) return;"
    );
    for (i, o) in objects.iter().enumerate().rev() {
        if let Some(d) = &o.destructor {
            let _ = writeln!(
                s,
                "    if (rtc_obj[{i}]) {{\n        double in[1], out[1];\n        memcpy(in, &rtc_obj_key[{i}], sizeof in[0]);\n        {d}(in, out);\n    }}"
            );
        }
        let _ = writeln!(s, "    rtc_obj[{i}] = 0;");
    }
    s.push_str("}\n");
    s
}

/// The header's section of a model with objects: the two functions and the generic names the
/// harness and the FMU wrapper use.
pub fn header_section(prefix: &str, n: usize, resources: bool) -> String {
    let res = if resources {
        format!("/* The folder {prefix}_ext_init() reads the objects' data files from (an FMU's resources,\n * with a trailing separator). */\nvoid {prefix}_ext_resources(const char* dir);\n#ifdef RTC_MODEL_GENERIC\n#define RTC_MODEL_EXT_RESOURCES {prefix}_ext_resources\n#endif\n")
    } else {
        String::new()
    };
    res + &format!(
        "\n/* External objects (Modelica 3.6 §12.9.7): {n}, made by their library's constructors in\n * {prefix}_ext_init() (call it before {prefix}_init; 0 done, -1 a constructor failed) and\n * destroyed in {prefix}_ext_free() at the end of the run (on every way out of it). Both\n * are in the archive beside this header. */\nint {prefix}_ext_init(void);\nvoid {prefix}_ext_free(void);\n#ifdef RTC_MODEL_GENERIC\n#define RTC_MODEL_EXT_OBJECTS 1\n#define RTC_MODEL_EXT_INIT {prefix}_ext_init\n#define RTC_MODEL_EXT_FREE {prefix}_ext_free\n#endif\n"
    )
}

/// `header` with the objects' section before its include guard's end (unchanged without
/// objects); `resources`: an FMU's.
pub fn add_to_header(header: &mut String, prefix: &str, resources: bool) {
    let n = all().len();
    if n == 0 {
        return;
    }
    let section = header_section(prefix, n, resources);
    match header.rfind("#ifdef __cplusplus\n}") {
        Some(k) => header.insert_str(k, &section),
        None => header.push_str(&section),
    }
}
