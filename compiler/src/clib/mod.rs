//! The libraries an external C function needs (specification 12.9.4), found, compiled and
//! loaded before the model runs in this process.
//!
//! An `external "C"` declaration's annotation names `Library` (one name or several),
//! `Include` (C text: a header, or a source that defines the function), and where to look:
//! `IncludeDirectory`, `LibraryDirectory`, `SourceDirectory`, `modelica://` URIs resolved
//! against the top-level class that declares the function (its package directory, or the
//! directory of its single file; specification 13.5). The defaults are the specification's,
//! `Resources/Include`, `Resources/Library` and `Resources/Source`; the MSL keeps its sources in
//! `Resources/C-Sources`, which is looked at too.
//!
//! For each library `L`, in this order: a shared library `libL.so` in `LibraryDirectory`'s
//! platform folder (`linux64` and `x86_64-linux` on x86-64 Linux, `aarch64-linux` and
//! `riscv64-linux` on those; the specification names only the first) or in the directory
//! itself; the sources `L.c` or `L/*.c` in the source directory, compiled; the system's
//! `libL.so` (LAPACK: Debian's `liblapack3`). Where the function is still not defined and the
//! `Include` text is given, that text is compiled as a translation unit of its own (with the
//! include directories), so that a header or source that defines the function provides it.
//!
//! **Compiling.** With `$CC`, else `cc`: `-shared -fPIC -O2 -ffp-contract=off` (no fused
//! multiply-add: the same bits as the targets' builds), the include directories, `-lm`. The
//! result is cached in `$RTC_CACHE_DIR`, else `$XDG_CACHE_HOME/rtc`, else `~/.cache/rtc`, under
//! `c/<key>/`, the key a hash of the compiler (its path and `--version`), the flags, the
//! sources' and the include directories' headers' contents: a change to any of them builds
//! anew. The compiler writes a temporary file in that folder, renamed into place only when it
//! succeeds, so nothing half-built is cached and two runs that build at once both end with a
//! whole library. Loaded with `dlopen(RTLD_NOW | RTLD_GLOBAL)`: the JIT finds the functions by
//! name as it finds those of `--link` libraries.
//!
//! **Libraries of several sources.** Where the source folder's library has a gcc Makefile
//! beside it (the MSL's `Resources/BuildProjects/gcc/Makefile`), the sources and defines of
//! `libL.a` are read from it ([`makefile`]) and each source is compiled with its own flags.
//!
//! **Calls of every argument kind** go through C shims ([`shim`]), compiled together as one
//! more cached library after the support file `support.c` (rtc's `ModelicaUtilities.h`
//! callbacks and the `ModelicaError` catch), which is loaded first, and after each shim's
//! libraries, loaded in the reverse of their `Library` order (the MSL lists a library before
//! those it uses: `{"ModelicaStandardTables", "ModelicaIO", "ModelicaMatIO", "zlib"}`).

pub mod archive;
pub mod cost;
mod makefile;
pub mod objects;
pub mod shim;
pub mod text;

use crate::diag::{Diagnostic, Span};
use crate::symbolic::external::{load_library, ExtFn};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

/// Where an external function's C code comes from: its declaration's annotation, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalLibs {
    /// `Library`: the names of the libraries (`"ModelicaStandardTables"`, `"lapack"`).
    pub libraries: Vec<String>,
    /// `Include`: C text put before the call (a header, or a source defining the function).
    pub include: Option<String>,
    /// `IncludeDirectory`, resolved.
    pub include_dir: PathBuf,
    /// `LibraryDirectory`, resolved.
    pub library_dir: PathBuf,
    /// `SourceDirectory`, resolved (or the specification's default and the MSL's
    /// `Resources/C-Sources`).
    pub source_dirs: Vec<PathBuf>,
    /// The external clause, for diagnostics.
    pub span: Span,
}

/// Per external function name, where its C code comes from (its first declaration's
/// annotation), as flattening found it: process-wide, as the functions' registry
/// ([`crate::symbolic::external`]) is.
static DECLARED: Mutex<Vec<(String, Arc<ExternalLibs>)>> = Mutex::new(Vec::new());

/// Records where the C code of external function `name` comes from (the first declaration
/// that says is kept).
pub fn declare(name: &str, libs: ExternalLibs) {
    let mut d = DECLARED.lock().unwrap_or_else(|e| e.into_inner());
    if !d.iter().any(|(n, _)| n == name) {
        d.push((name.to_string(), Arc::new(libs)));
    }
}

fn declared(name: &str) -> Option<Arc<ExternalLibs>> {
    let d = DECLARED.lock().unwrap_or_else(|e| e.into_inner());
    d.iter().find(|(n, _)| n == name).map(|(_, l)| l.clone())
}

/// The platform folders below a `LibraryDirectory` for this machine, most specific first.
fn platform_dirs() -> &'static [&'static str] {
    if cfg!(all(target_arch = "x86_64", target_os = "linux")) {
        &["linux64", "x86_64-linux"]
    } else if cfg!(all(target_arch = "aarch64", target_os = "linux")) {
        &["aarch64-linux"]
    } else if cfg!(all(target_arch = "riscv64", target_os = "linux")) {
        &["riscv64-linux"]
    } else {
        &[]
    }
}

/// The cache's root folder.
fn cache_root() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("RTC_CACHE_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("rtc"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache").join("rtc"))
}

/// FNV-1a over bytes: the cache key (a collision only rebuilds where it should not reuse, and
/// the key covers text a user controls, not an adversary's).
#[derive(Clone, Copy)]
struct Key(u64);

/// Whether this process defines (has loaded) the C symbol `name`.
pub fn defined(name: &str) -> bool {
    let Ok(c) = std::ffi::CString::new(name) else {
        return false;
    };
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only reads.
    !unsafe { libc::dlsym(libc::RTLD_DEFAULT, c.as_ptr()) }.is_null()
}

impl Key {
    fn new() -> Key {
        Key(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        // A separator, so that ("ab", "c") and ("a", "bc") differ.
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }
}

const FLAGS: [&str; 5] = ["-shared", "-fPIC", "-O2", "-ffp-contract=off", "-w"];

/// The C compiler: `$CC`, else `cc`, and its `--version` line (part of the cache key).
fn compiler() -> (String, Option<String>) {
    let cc = std::env::var("CC")
        .ok()
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "cc".to_string());
    let version = Command::new(&cc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    (cc, version)
}

/// What [`provide`] did, for the run's notes.
#[derive(Debug, Default)]
pub struct Provided {
    pub notes: Vec<String>,
}

/// [`provide`] for every external function this process registered (a command compiles one
/// model).
pub fn provide_registered() -> Result<Provided, Box<Diagnostic>> {
    let mut out = provide(&crate::symbolic::external::registered())?;
    let runtime: Vec<shim::Registered> = shim::registered()
        .into_iter()
        .filter(|r| r.runtime)
        .collect();
    provide_shims(&runtime, &mut out)?;
    Ok(out)
}

/// The support file (`support.c`) compiled and loaded, once per process.
fn support(span: Span, out: &mut Provided) -> Result<(), Box<Diagnostic>> {
    if defined("rtc_ext_enter") {
        return Ok(());
    }
    let libs = ExternalLibs {
        libraries: Vec::new(),
        include: None,
        include_dir: PathBuf::new(),
        library_dir: PathBuf::new(),
        source_dirs: Vec::new(),
        span,
    };
    let note = build(
        "rtc's ModelicaUtilities callbacks",
        &Sources::Text(include_str!("support.c")),
        &libs,
        &mut Vec::new(),
    )?;
    out.notes.push(note);
    Ok(())
}

/// The shims not loaded yet: the support, their libraries, then the shims compiled together.
fn provide_shims(shims: &[shim::Registered], out: &mut Provided) -> Result<(), Box<Diagnostic>> {
    let missing: Vec<shim::Registered> = shims
        .iter()
        .filter(|r| !defined(&r.symbol))
        .cloned()
        .collect();
    let Some(first) = missing.first() else {
        return Ok(());
    };
    let span = first.libs.as_ref().map(|l| l.span).unwrap_or_default();
    support(span, out)?;
    let mut include_dirs: Vec<PathBuf> = Vec::new();
    for r in &missing {
        let Some(libs) = &r.libs else {
            if !defined(&r.spec.function) {
                return Err(Box::new(
                    Diagnostic::error(
                        "external",
                        format!(
                            "external function `{}` is not defined: its declaration names no library",
                            r.spec.function
                        ),
                    )
                    .at(r.span, "declared here")
                    .help("load a shared library that defines it with --link, or name its library in a Library annotation (Modelica 3.6 §12.9.4)"),
                ));
            }
            continue;
        };
        for d in std::iter::once(&libs.include_dir).chain(&libs.source_dirs) {
            if !include_dirs.contains(d) {
                include_dirs.push(d.clone());
            }
        }
        if defined(&r.spec.function) {
            continue;
        }
        let mut looked = Vec::new();
        for name in libs.libraries.iter().rev() {
            library(name, libs, &mut looked, out)?;
        }
        // An `Include` may define the function: it is part of the shims' unit.
        if !defined(&r.spec.function) && r.spec.include.is_none() {
            return Err(not_defined(&r.spec.function, libs.span, &looked));
        }
    }
    let text = shim::unit(&missing, None);
    let libs = ExternalLibs {
        libraries: Vec::new(),
        include: None,
        include_dir: include_dirs.first().cloned().unwrap_or_default(),
        library_dir: PathBuf::new(),
        source_dirs: include_dirs.iter().skip(1).cloned().collect(),
        span,
    };
    let note = build(
        &format!(
            "the C shims of {} external call{}",
            missing.len(),
            if missing.len() == 1 { "" } else { "s" }
        ),
        &Sources::Text(&text),
        &libs,
        &mut Vec::new(),
    )?;
    out.notes.push(note);
    Ok(())
}

/// Evaluates shim `symbol` now, on known arguments (a call the model's compilation computes:
/// its String outputs, its results that size arrays): the numbers and the strings it gives,
/// or the library's error message. Its libraries are built and loaded first.
pub fn call_now(symbol: &str, args: &[f64]) -> Result<(Vec<f64>, Vec<String>), Box<Diagnostic>> {
    let Some(r) = shim::get(symbol) else {
        return Ok((Vec::new(), Vec::new()));
    };
    let mut out = Provided::default();
    provide_shims(std::slice::from_ref(&r), &mut out)?;
    let name = std::ffi::CString::new(symbol).map_err(|_| {
        Box::new(Diagnostic::error("external", "a shim name with a NUL byte").at(r.span, "here"))
    })?;
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only reads.
    let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    if p.is_null() {
        return Err(not_defined(symbol, r.span, &[]));
    }
    let _ = take_error();
    let mut nums = vec![f64::NAN; r.spec.n_out.max(1)];
    let mut strs: Vec<*const libc::c_char> = vec![std::ptr::null(); r.spec.n_sout.max(1)];
    let a = if args.is_empty() {
        [0.0].as_slice()
    } else {
        args
    };
    if r.spec.n_sout > 0 {
        // SAFETY: the shim of a spec with String outputs has this signature; it reads
        // `n_in` inputs and writes `n_out` numbers and `n_sout` string pointers.
        let f: extern "C" fn(*const f64, *mut f64, *mut *const libc::c_char) =
            unsafe { std::mem::transmute(p) };
        f(a.as_ptr(), nums.as_mut_ptr(), strs.as_mut_ptr());
    } else {
        // SAFETY: every other shim is `void shim(const double*, double*)`.
        let f: extern "C" fn(*const f64, *mut f64) = unsafe { std::mem::transmute(p) };
        f(a.as_ptr(), nums.as_mut_ptr());
    }
    if let Some(e) = take_error() {
        return Err(Box::new(
            Diagnostic::error(
                "external",
                format!("the external C function raised an error when the model was compiled: {e}"),
            )
            .at(
                r.span,
                "this external call, on arguments known at compile time",
            ),
        ));
    }
    let strings = strs[..r.spec.n_sout]
        .iter()
        .map(|&s| {
            if s.is_null() {
                String::new()
            } else {
                // SAFETY: a NUL-terminated string the library returned (a literal, an input,
                // or allocated by ModelicaAllocateString, freed only when the process ends).
                unsafe { std::ffi::CStr::from_ptr(s) }
                    .to_string_lossy()
                    .into_owned()
            }
        })
        .collect();
    nums.truncate(r.spec.n_out);
    Ok((nums, strings))
}

/// Destroys the external objects constructed while the model was compiled (12.9.7: at the
/// end of the run, on every way out of it): each destructor's shim called on its object.
pub fn destroy_objects() {
    for (symbol, bits) in shim::take_objects() {
        let _ = call_now(&symbol, &[bits]);
    }
}

/// The message of the first `ModelicaError` a library raised since the last call (the shim
/// that caught it wrote NaN to its outputs).
pub fn take_error() -> Option<String> {
    let name = std::ffi::CString::new("rtc_ext_take_error").ok()?;
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only reads.
    let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    if p.is_null() {
        return None;
    }
    // SAFETY: support.c defines `int rtc_ext_take_error(char* buf, int n)`.
    let f: extern "C" fn(*mut u8, i32) -> i32 = unsafe { std::mem::transmute(p) };
    let mut buf = vec![0u8; 2048];
    if f(buf.as_mut_ptr(), buf.len() as i32) == 0 {
        return None;
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    Some(String::from_utf8_lossy(&buf[..end]).into_owned())
}

/// Makes every function of `fns` that no loaded object defines available: its libraries found,
/// compiled where they are sources, and loaded. A function still missing is a located error
/// (the external clause) saying where rtc looked.
pub fn provide(fns: &[ExtFn]) -> Result<Provided, Box<Diagnostic>> {
    let mut out = Provided::default();
    for &f in fns {
        if f.address().is_some() {
            continue;
        }
        let Some(libs) = declared(f.name()) else {
            continue;
        };
        let mut looked = Vec::new();
        for name in &libs.libraries {
            if f.address().is_some() {
                break;
            }
            library(name, &libs, &mut looked, &mut out)?;
        }
        if f.address().is_none() {
            if let Some(text) = &libs.include {
                let note = build(
                    &format!("the `Include` of `{}`", f.name()),
                    &Sources::Text(text),
                    &libs,
                    &mut looked,
                )?;
                out.notes.push(note);
            }
        }
        if f.address().is_none() {
            return Err(not_defined(f.name(), libs.span, &looked));
        }
    }
    Ok(out)
}

/// External function `name` defined by none of its libraries: where rtc looked.
fn not_defined(name: &str, span: Span, looked: &[String]) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::error(
            "external",
            format!(
                "external function `{name}` is not defined by its libraries{}",
                if looked.is_empty() {
                    String::new()
                } else {
                    format!(" (looked at {})", looked.join(", "))
                }
            ),
        )
        .at(span, "declared here")
        .help("Modelica 3.6 §12.9.4: give the library's sources in its SourceDirectory, a shared library in its LibraryDirectory, or load one with --link"),
    )
}

/// Library `name`: prebuilt, from sources, or the system's; `looked` collects the places tried.
fn library(
    name: &str,
    libs: &ExternalLibs,
    looked: &mut Vec<String>,
    out: &mut Provided,
) -> Result<(), Box<Diagnostic>> {
    // A library may call the ModelicaUtilities callbacks: rtc's are loaded first.
    support(libs.span, out)?;
    let file = format!("lib{name}.so");
    let mut dirs: Vec<PathBuf> = platform_dirs()
        .iter()
        .map(|p| libs.library_dir.join(p))
        .collect();
    dirs.push(libs.library_dir.clone());
    for d in &dirs {
        let p = d.join(&file);
        if p.is_file() {
            load(&p, libs.span)?;
            out.notes
                .push(format!("loaded `{name}` from {}", p.display()));
            return Ok(());
        }
        looked.push(p.display().to_string());
    }
    if let Some((d, found)) = lib_sources(name, libs, looked) {
        let note = match found {
            LibSources::Makefile(sources) => build(
                &format!(
                    "`{name}` (its sources by {})",
                    d.parent()
                        .unwrap_or(&d)
                        .join("BuildProjects/gcc/Makefile")
                        .display()
                ),
                &Sources::Objects(&sources),
                libs,
                looked,
            )?,
            LibSources::Files(sources) => build(
                &format!("`{name}`"),
                &Sources::Files(&sources),
                libs,
                looked,
            )?,
        };
        out.notes.push(note);
        return Ok(());
    }
    // The system's: the dynamic loader's search path.
    if load_library(Path::new(&file)).is_ok() {
        out.notes.push(format!("loaded the system's `{file}`"));
        return Ok(());
    }
    looked.push(format!("the system's {file}"));
    Ok(())
}

/// The C sources of a library.
enum LibSources {
    /// The MSL's, each with its flags, by the gcc Makefile beside the source folder.
    Makefile(Vec<makefile::Source>),
    /// `<name>.c`, or the `.c` files of folder `<name>`.
    Files(Vec<PathBuf>),
}

/// The sources of library `name` in the first of its source folders that has them, with that
/// folder; `looked` collects the places tried.
fn lib_sources(
    name: &str,
    libs: &ExternalLibs,
    looked: &mut Vec<String>,
) -> Option<(PathBuf, LibSources)> {
    for d in &libs.source_dirs {
        if let Some(sources) = makefile::sources(d, name) {
            return Some((d.clone(), LibSources::Makefile(sources)));
        }
        let single = d.join(format!("{name}.c"));
        let folder = d.join(name);
        let sources = if single.is_file() {
            vec![single]
        } else if folder.is_dir() {
            c_files(&folder)
        } else {
            looked.push(single.display().to_string());
            continue;
        };
        if sources.is_empty() {
            looked.push(folder.display().to_string());
            continue;
        }
        return Some((d.clone(), LibSources::Files(sources)));
    }
    None
}

/// The `.c` files of a folder, sorted.
fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "c"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn load(p: &Path, span: Span) -> Result<(), Box<Diagnostic>> {
    load_library(p).map_err(|e| {
        Box::new(
            Diagnostic::error("external", format!("{}: {e}", p.display())).at(span, "its library"),
        )
    })
}

enum Sources<'s> {
    Files(&'s [PathBuf]),
    /// Sources each compiled with its own flags, then linked together.
    Objects(&'s [makefile::Source]),
    /// C text compiled as a file of its own (an `Include` annotation).
    Text(&'s str),
}

/// Compiles `sources` into a shared library (or takes it from the cache) and loads it; the note
/// says which.
fn build(
    what: &str,
    sources: &Sources,
    libs: &ExternalLibs,
    looked: &mut Vec<String>,
) -> Result<String, Box<Diagnostic>> {
    let err = |msg: String, help: &str| {
        Box::new(
            Diagnostic::error("external", msg)
                .at(libs.span, "declared here")
                .help(help.to_string()),
        )
    };
    let (cc, version) = compiler();
    let Some(version) = version else {
        return Err(err(
            format!("no C compiler to build {what}: `{cc} --version` did not run"),
            "set CC to a C compiler, or install one (Debian: apt install gcc)",
        ));
    };
    let mut key = Key::new();
    key.add(cc.as_bytes());
    key.add(version.as_bytes());
    for f in FLAGS {
        key.add(f.as_bytes());
    }
    let mut include_dirs = vec![libs.include_dir.clone()];
    include_dirs.extend(libs.source_dirs.iter().cloned());
    include_dirs.retain(|d| d.is_dir());
    for d in &include_dirs {
        key.add(d.as_os_str().as_encoded_bytes());
        let mut headers: Vec<PathBuf> = std::fs::read_dir(d)
            .map(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "h"))
                    .collect()
            })
            .unwrap_or_default();
        headers.sort();
        for h in headers {
            key.add(h.as_os_str().as_encoded_bytes());
            key.add(&std::fs::read(&h).unwrap_or_default());
        }
    }
    let read = |p: &Path| {
        std::fs::read(p).map_err(|e| {
            err(
                format!("cannot read {}: {e}", p.display()),
                "the library's sources must be readable",
            )
        })
    };
    match sources {
        Sources::Files(files) => {
            for f in *files {
                key.add(f.as_os_str().as_encoded_bytes());
                key.add(&read(f)?);
            }
        }
        Sources::Text(t) => key.add(t.as_bytes()),
        Sources::Objects(files) => {
            for f in *files {
                key.add(f.file.as_os_str().as_encoded_bytes());
                key.add(&read(&f.file)?);
                for flag in &f.flags {
                    key.add(flag.as_bytes());
                }
            }
        }
    }
    let Some(root) = cache_root() else {
        return Err(err(
            format!("no cache folder to build {what} in"),
            "set RTC_CACHE_DIR (or XDG_CACHE_HOME or HOME)",
        ));
    };
    let dir = root.join("c").join(format!("{:016x}", key.0));
    let lib = dir.join("lib.so");
    if lib.is_file() {
        load(&lib, libs.span)?;
        return Ok(format!(
            "{what}: compiled before, from the cache ({})",
            lib.display()
        ));
    }
    std::fs::create_dir_all(&dir).map_err(|e| {
        err(
            format!("cannot create the cache folder {}: {e}", dir.display()),
            "set RTC_CACHE_DIR to a writable folder",
        )
    })?;
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let tmp = dir.join(format!("tmp-{}-{nonce}.so", std::process::id()));
    let mut cmd = Command::new(&cc);
    cmd.args(FLAGS);
    for d in &include_dirs {
        cmd.arg("-I").arg(d);
    }
    let text_file = dir.join(format!("tmp-{}-{nonce}.c", std::process::id()));
    let mut objects = Vec::new();
    match sources {
        Sources::Files(files) => {
            cmd.args(*files);
        }
        Sources::Objects(files) => {
            for (k, f) in files.iter().enumerate() {
                let o = dir.join(format!("tmp-{}-{nonce}-{k}.o", std::process::id()));
                let mut c = Command::new(&cc);
                c.args(&FLAGS[1..]).arg("-c").args(&f.flags);
                for d in &include_dirs {
                    c.arg("-I").arg(d);
                }
                c.arg(&f.file).arg("-o").arg(&o);
                let r = c.output();
                objects.push(o.clone());
                let failed = match &r {
                    Ok(x) if x.status.success() => None,
                    Ok(x) => Some(
                        String::from_utf8_lossy(&x.stderr)
                            .lines()
                            .take(6)
                            .collect::<Vec<_>>()
                            .join("\n"),
                    ),
                    Err(e) => Some(e.to_string()),
                };
                if let Some(msg) = failed {
                    for o in &objects {
                        let _ = std::fs::remove_file(o);
                    }
                    return Err(err(
                        format!(
                            "the C compiler `{cc}` could not compile {} for {what}:\n{msg}",
                            f.file.display()
                        ),
                        "the library's C code must compile as C with the flags -fPIC -O2",
                    ));
                }
            }
            cmd.args(&objects);
        }
        Sources::Text(t) => {
            std::fs::write(&text_file, t).map_err(|e| {
                err(
                    format!("cannot write {}: {e}", text_file.display()),
                    "set RTC_CACHE_DIR to a writable folder",
                )
            })?;
            cmd.arg(&text_file);
        }
    }
    cmd.arg("-o").arg(&tmp).arg("-lm");
    let result = cmd.output();
    let _ = std::fs::remove_file(&text_file);
    for o in &objects {
        let _ = std::fs::remove_file(o);
    }
    let output = match result {
        Ok(o) => o,
        Err(e) => {
            return Err(err(
                format!("cannot run the C compiler `{cc}` to build {what}: {e}"),
                "set CC to a C compiler, or install one (Debian: apt install gcc)",
            ))
        }
    };
    if !output.status.success() {
        let _ = std::fs::remove_file(&tmp);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first: Vec<&str> = stderr.lines().take(6).collect();
        return Err(err(
            format!(
                "the C compiler `{cc}` could not build {what}:\n{}",
                first.join("\n")
            ),
            "the library's C code must compile as C with the flags -shared -fPIC -O2",
        ));
    }
    // Renamed into place whole: a second run building at once renames its own whole copy.
    std::fs::rename(&tmp, &lib).map_err(|e| {
        err(
            format!("cannot move {} into the cache: {e}", tmp.display()),
            "set RTC_CACHE_DIR to a writable folder",
        )
    })?;
    looked.clear();
    load(&lib, libs.span)?;
    Ok(format!(
        "{what}: compiled with `{cc}` into the cache ({})",
        lib.display()
    ))
}
