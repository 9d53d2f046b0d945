//! The external calls' C code for an object or an FMU: one static archive per model, built
//! for the target.
//!
//! `rtc compile --target T` writes `<name>_ext.c` (rtc's ModelicaUtilities callbacks and the
//! shims the step calls, [`super::shim::object_source`]) and compiles it, with the sources of
//! every library those calls name (found as for `rtc run`: the MSL's by their gcc Makefile,
//! each source with its own defines; else `L.c` or `L/*.c`), into `lib<name>_ext.a` beside
//! the object, with T's C compiler and `-O2 -fPIC -ffp-contract=off` (no fused multiply-add:
//! the bits of `rtc run`'s cached build, whose flags are the same). The header's comment
//! gives the link line. A library without sources is taken from a static `libL.a` in its
//! `LibraryDirectory`'s folder for T, else named on the link line as the system's (`-lL`,
//! LAPACK: `-llapack`), which an FMU refuses (it must not need a library installed where
//! it runs).
//!
//! **Compilers.** `CC_<triple>` (dashes as underscores) if set; for this machine's triple
//! `$CC`, else `cc`; else the GNU cross compiler of Debian's `gcc-<arch>-linux-gnu`
//! (`aarch64-linux-gnu-gcc`, `riscv64-linux-gnu-gcc`). The archiver is the compiler's
//! (`aarch64-linux-gnu-ar`), else `ar`; `AR_<triple>` if set.
//!
//! **Library folders.** Below a `LibraryDirectory`, rtc looks for T's libraries in
//! `linux64` or `x86_64-linux` (x86-64 Linux; the specification's 12.9.4 names only
//! `linux64`), `aarch64-linux` (AArch64 Linux), `riscv64-linux` (RISC-V 64 Linux).
//!
//! Bare-metal targets are refused where the step calls C: rtc's callbacks need a C library
//! (`setjmp`, `stdio`).

use super::{lib_sources, shim, LibSources};
use crate::diag::Diagnostic;
use std::path::{Path, PathBuf};
use std::process::Command;

/// An archive built for a target, and how to link it.
pub struct Archive {
    pub path: PathBuf,
    /// Static libraries found prebuilt for the target (linked after the archive).
    pub static_libs: Vec<PathBuf>,
    /// Libraries the target's system must provide (`-l<name>`).
    pub system_libs: Vec<String>,
    /// What was compiled, with which compiler.
    pub note: String,
}

impl Archive {
    /// The link line of an application `app.c` with the object `<prefix>.o`.
    pub fn link_line(&self, cc: &str, prefix: &str) -> String {
        let mut s = format!("{cc} app.c {prefix}.o {}", file_name(&self.path));
        for l in &self.static_libs {
            s.push(' ');
            s.push_str(&l.display().to_string());
        }
        for l in &self.system_libs {
            s.push_str(&format!(" -l{l}"));
        }
        s.push_str(" -lm");
        s
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// The triple of this machine, among rtc's hosted targets.
fn host_triple() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "x86_64-unknown-linux-gnu",
        "aarch64" => "aarch64-unknown-linux-gnu",
        "riscv64" => "riscv64gc-unknown-linux-gnu",
        _ => "",
    }
}

/// The C compiler for `triple` ([module docs](self)).
pub fn compiler_for(triple: &str) -> String {
    if let Ok(cc) = std::env::var(format!("CC_{}", triple.replace('-', "_"))) {
        return cc;
    }
    if triple == host_triple() {
        return std::env::var("CC").unwrap_or_else(|_| "cc".into());
    }
    match triple {
        "x86_64-unknown-linux-gnu" => "x86_64-linux-gnu-gcc",
        "aarch64-unknown-linux-gnu" => "aarch64-linux-gnu-gcc",
        "riscv64gc-unknown-linux-gnu" => "riscv64-linux-gnu-gcc",
        _ => "cc",
    }
    .into()
}

/// The Debian package of a cross compiler.
fn package(triple: &str) -> &'static str {
    match triple {
        "aarch64-unknown-linux-gnu" => "gcc-aarch64-linux-gnu",
        "riscv64gc-unknown-linux-gnu" => "gcc-riscv64-linux-gnu",
        "x86_64-unknown-linux-gnu" => "gcc-x86-64-linux-gnu",
        _ => "gcc",
    }
}

fn archiver(triple: &str, cc: &str) -> String {
    if let Ok(ar) = std::env::var(format!("AR_{}", triple.replace('-', "_"))) {
        return ar;
    }
    match cc.strip_suffix("gcc") {
        Some(p) if p.ends_with('-') => format!("{p}ar"),
        _ => "ar".into(),
    }
}

/// The platform folders of a `LibraryDirectory` for `triple`.
fn platform_dirs(triple: &str) -> &'static [&'static str] {
    match triple {
        "x86_64-unknown-linux-gnu" => &["linux64", "x86_64-linux"],
        "aarch64-unknown-linux-gnu" => &["aarch64-linux"],
        "riscv64gc-unknown-linux-gnu" => &["riscv64-linux"],
        _ => &[],
    }
}

/// A source to compile: file, its flags, the include folders.
struct Unit {
    file: PathBuf,
    flags: Vec<String>,
    includes: Vec<PathBuf>,
}

/// Builds `dir/lib<prefix>_ext.a` for `triple` from `ext_c` (the text of `<prefix>_ext.c`)
/// and the libraries of the shims the step calls; `None` where it calls none.
pub fn build(
    prefix: &str,
    ext_c: &str,
    triple: &str,
    dir: &Path,
) -> Result<Option<Archive>, Box<Diagnostic>> {
    let runtime: Vec<shim::Registered> = shim::registered()
        .into_iter()
        .filter(|r| r.runtime)
        .collect();
    let Some(first) = runtime.first() else {
        return Ok(None);
    };
    let span = first.span;
    let cc = compiler_for(triple);
    let err = |msg: String, help: String| {
        Box::new(
            Diagnostic::error("external", msg)
                .at(span, "an external call of the step")
                .help(help),
        )
    };
    if Command::new(&cc).arg("--version").output().is_err() {
        return Err(err(
            format!("no C compiler for {triple} to build the C code of the step's external calls: `{cc}` did not run"),
            format!(
                "install one (Debian: apt install {}), or set CC_{} to one",
                package(triple),
                triple.replace('-', "_")
            ),
        ));
    }
    let work = dir.join(format!(".{prefix}_ext-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| {
        err(
            format!("cannot create {}: {e}", work.display()),
            "the output folder must be writable".into(),
        )
    })?;
    let result = build_in(prefix, ext_c, triple, &cc, dir, &work, &runtime);
    let _ = std::fs::remove_dir_all(&work);
    result.map(Some).map_err(|(msg, help)| err(msg, help))
}

/// The archive's units: `<prefix>_ext.c`, then each library's sources (or its prebuilt or
/// system library).
fn units(
    ext: &Path,
    triple: &str,
    runtime: &[shim::Registered],
    archive: &mut Archive,
    names: &mut Vec<String>,
) -> Vec<Unit> {
    let mut all_includes: Vec<PathBuf> = Vec::new();
    let mut units = Vec::new();
    for r in runtime {
        let Some(libs) = &r.libs else { continue };
        let mut includes = vec![libs.include_dir.clone()];
        includes.extend(libs.source_dirs.iter().cloned());
        includes.retain(|d| d.is_dir());
        for d in &includes {
            if !all_includes.contains(d) {
                all_includes.push(d.clone());
            }
        }
        for name in &libs.libraries {
            if names.contains(name) {
                continue;
            }
            names.push(name.clone());
            let mut looked = Vec::new();
            match lib_sources(name, libs, &mut looked) {
                Some((_, LibSources::Makefile(sources))) => {
                    units.extend(sources.into_iter().map(|s| Unit {
                        file: s.file,
                        flags: s.flags,
                        includes: includes.clone(),
                    }))
                }
                Some((_, LibSources::Files(files))) => {
                    units.extend(files.into_iter().map(|file| Unit {
                        file,
                        flags: Vec::new(),
                        includes: includes.clone(),
                    }))
                }
                None => {
                    let prebuilt = platform_dirs(triple)
                        .iter()
                        .map(|p| libs.library_dir.join(p).join(format!("lib{name}.a")))
                        .find(|p| p.is_file());
                    match prebuilt {
                        Some(p) => archive.static_libs.push(p),
                        None => archive.system_libs.push(name.clone()),
                    }
                }
            }
        }
    }
    units.insert(
        0,
        Unit {
            file: ext.to_path_buf(),
            flags: Vec::new(),
            includes: all_includes,
        },
    );
    units
}

fn build_in(
    prefix: &str,
    ext_c: &str,
    triple: &str,
    cc: &str,
    dir: &Path,
    work: &Path,
    runtime: &[shim::Registered],
) -> Result<Archive, (String, String)> {
    let ext = work.join(format!("{prefix}_ext.c"));
    std::fs::write(&ext, ext_c).map_err(|e| {
        (
            format!("cannot write {}: {e}", ext.display()),
            "the output folder must be writable".to_string(),
        )
    })?;
    let mut archive = Archive {
        path: dir.join(format!("lib{prefix}_ext.a")),
        static_libs: Vec::new(),
        system_libs: Vec::new(),
        note: String::new(),
    };
    let mut names = Vec::new();
    let units = units(&ext, triple, runtime, &mut archive, &mut names);
    let mut objects = Vec::new();
    for (k, u) in units.iter().enumerate() {
        let stem = u
            .file
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let o = work.join(format!("{k:03}_{stem}.o"));
        let mut c = Command::new(cc);
        c.args(["-c", "-O2", "-fPIC", "-ffp-contract=off", "-w"])
            .args(&u.flags);
        for d in &u.includes {
            c.arg("-I").arg(d);
        }
        c.arg(&u.file).arg("-o").arg(&o);
        let out = c
            .output()
            .map_err(|e| (format!("cannot run `{cc}`: {e}"), String::new()))?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let first: Vec<&str> = stderr.lines().take(6).collect();
            return Err((
                format!(
                    "`{cc}` could not compile {} for {triple}:\n{}",
                    u.file.display(),
                    first.join("\n")
                ),
                "the library's C code must compile for the target with -O2 -fPIC".into(),
            ));
        }
        objects.push(o);
    }
    let ar = archiver(triple, cc);
    let tmp = work.join("lib.a");
    let out = Command::new(&ar)
        .arg("rcs")
        .arg(&tmp)
        .args(&objects)
        .output()
        .map_err(|e| {
            (
                format!("cannot run the archiver `{ar}`: {e}"),
                format!(
                    "install binutils for {triple}, or set AR_{}",
                    triple.replace('-', "_")
                ),
            )
        })?;
    if !out.status.success() {
        return Err((
            format!(
                "`{ar}` could not write the archive: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ),
            String::new(),
        ));
    }
    std::fs::rename(&tmp, &archive.path).map_err(|e| {
        (
            format!("cannot write {}: {e}", archive.path.display()),
            "the output folder must be writable".to_string(),
        )
    })?;
    archive.note = format!(
        "{} with `{cc} -O2 -fPIC -ffp-contract=off`: {prefix}_ext.c{}",
        file_name(&archive.path),
        if names.is_empty() {
            String::new()
        } else {
            format!(" and the libraries {}", names.join(", "))
        }
    );
    Ok(archive)
}
