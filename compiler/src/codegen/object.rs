//! Relocatable objects for embedded and real-time targets (`rtc compile`), written by
//! `cranelift-object` from the same generator as the JIT.
//!
//! The object defines `<m>_init`, `<m>_step` and `<m>_outputs` (global) and their chunk and
//! helper functions (local); its only undefined symbols are C math library functions. The
//! code allocates nothing, makes no system calls and touches only the memory block it is given
//! and its own constants; its stack use is the sum of the frames along the deepest call chain,
//! computed from Cranelift's frame layouts.

use super::{base_flags, err, generate, CodegenError};
use crate::plan::Plan;
use cranelift_codegen::isa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_object::{ObjectBuilder, ObjectModule};

/// A target `rtc compile` can emit for.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub triple: &'static str,
    /// Hosted (Linux): position-independent code, linkable into PIE executables and shared
    /// libraries. Bare metal: absolute addressing, for static firmware images.
    pub pic: bool,
    /// Instruction-set settings beyond Cranelift's defaults.
    pub isa_flags: &'static [(&'static str, &'static str)],
    pub note: &'static str,
    /// Cranelift 0.135's riscv64 backend leaves fs1 (f9) out of its callee-saved registers
    /// (`DEFAULT_CALLEE_SAVES` in `isa/riscv64/abi.rs`), so its code clobbers a register the
    /// C caller expects preserved (seen: the harness's step size changed across a step call).
    /// Each exported function is then a 9-instruction shim that saves fs1, calls the
    /// generated body and restores it. (Cranelift's PreserveAll convention cannot return a
    /// value and saves vector registers even without the V extension, so it is no way out.)
    pub riscv_fs1_shim: bool,
}

/// Supported targets; the first matching the host is the default.
pub const TARGETS: &[Target] = &[
    Target {
        triple: "x86_64-unknown-linux-gnu",
        pic: true,
        // SSE4.1 (x86-64-v2, every x86-64 CPU since about 2009) gives floor/ceil/trunc as
        // instructions instead of calls into libm.
        isa_flags: &[
            ("has_sse3", "true"),
            ("has_ssse3", "true"),
            ("has_sse41", "true"),
        ],
        note: "x86-64-v2 (SSE4.1), System V ABI",
        riscv_fs1_shim: false,
    },
    Target {
        triple: "aarch64-unknown-linux-gnu",
        pic: true,
        isa_flags: &[],
        note: "ARMv8-A, AAPCS64",
        riscv_fs1_shim: false,
    },
    Target {
        triple: "riscv64gc-unknown-linux-gnu",
        pic: true,
        isa_flags: &[],
        note: "RV64GC (IMAFD), LP64D",
        riscv_fs1_shim: true,
    },
    Target {
        triple: "aarch64-unknown-none",
        pic: false,
        isa_flags: &[],
        note: "ARMv8-A bare metal, AAPCS64",
        riscv_fs1_shim: false,
    },
    Target {
        triple: "riscv64gc-unknown-none-elf",
        pic: false,
        isa_flags: &[],
        note: "RV64GC bare metal, LP64D",
        riscv_fs1_shim: true,
    },
];

impl Target {
    /// The target named `triple`, if supported.
    pub fn find(triple: &str) -> Option<&'static Target> {
        TARGETS.iter().find(|t| t.triple == triple)
    }

    /// The supported target this machine is, if any.
    pub fn host() -> Option<&'static Target> {
        let arch = std::env::consts::ARCH;
        let os = std::env::consts::OS;
        TARGETS
            .iter()
            .find(|t| t.pic && t.triple.starts_with(arch) && os == "linux")
    }
}

/// What an object may assume of its CPU beyond the target's baseline (`rtc compile
/// --target-cpu`): nothing more, the features of the machine compiling, or named Cranelift
/// settings for the target's ISA — a CPU preset (`x86-64-v3`, `znver3`, `skylake`, …) or a
/// feature (`has_avx2`, `has_lse`, `has_zbb`, …), comma-separated.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Cpu {
    #[default]
    Baseline,
    Native,
    Named(Vec<String>),
}

impl Cpu {
    /// `baseline`, `native`, or a comma-separated list of presets and features.
    pub fn parse(s: &str) -> Cpu {
        match s.trim() {
            "" | "baseline" => Cpu::Baseline,
            "native" => Cpu::Native,
            list => {
                let names: Vec<String> = list
                    .split(',')
                    .map(|x| x.trim().to_string())
                    .filter(|x| !x.is_empty())
                    .collect();
                if names.is_empty() {
                    Cpu::Baseline
                } else {
                    Cpu::Named(names)
                }
            }
        }
    }

    /// For the header: what the code assumes.
    pub fn describe(&self) -> String {
        match self {
            Cpu::Baseline => "the target's baseline".into(),
            Cpu::Native => "the features of the machine that compiled it".into(),
            Cpu::Named(v) => v.join(", "),
        }
    }
}

/// Why `--target-cpu` could not be applied.
#[derive(Debug, thiserror::Error)]
pub enum CpuError {
    #[error(
        "`native` asks for the features of this machine ({host}), which is not the target {target}"
    )]
    NativeForeign { host: String, target: String },
    #[error(
        "the target {target} has no CPU or feature `{name}` (Cranelift's settings for it: {known})"
    )]
    Unknown {
        target: String,
        name: String,
        known: String,
    },
}

/// Applies `cpu` to an ISA builder for `target`.
fn apply_cpu(b: &mut isa::Builder, target: &Target, cpu: &Cpu) -> Result<(), CpuError> {
    match cpu {
        Cpu::Baseline => Ok(()),
        Cpu::Native => {
            let arch = std::env::consts::ARCH;
            if !target.triple.starts_with(arch) {
                return Err(CpuError::NativeForeign {
                    host: arch.into(),
                    target: target.triple.into(),
                });
            }
            cranelift_native::infer_native_flags(b).map_err(|e| CpuError::NativeForeign {
                host: format!("{arch}: {e}"),
                target: target.triple.into(),
            })
        }
        Cpu::Named(names) => {
            for n in names {
                b.enable(n).map_err(|_| CpuError::Unknown {
                    target: target.triple.into(),
                    name: n.clone(),
                    known: known_settings(b),
                })?;
            }
            Ok(())
        }
    }
}

/// The names `--target-cpu` accepts for a builder's ISA: its presets and its boolean settings.
fn known_settings(b: &isa::Builder) -> String {
    let mut names: Vec<String> = b
        .iter()
        .filter(|s| {
            matches!(
                s.kind,
                settings::SettingKind::Preset | settings::SettingKind::Bool
            )
        })
        .map(|s| s.name.to_string())
        .collect();
    names.sort();
    names.join(", ")
}

/// An object file and what a header needs to know about it.
pub struct ObjectCode {
    pub bytes: Vec<u8>,
    /// C math library functions the object calls (undefined symbols).
    pub libm: Vec<&'static str>,
    /// External C functions of the model (`external "C"`): undefined symbols the program that
    /// links the object must define, each `double f(double[, double])`, with their arities.
    pub externals: Vec<(&'static str, usize)>,
    /// Deepest stack use of the generated code, in bytes, for init, step and outputs (not
    /// counting the C math library's own frames).
    pub stack_init: u32,
    pub stack_step: u32,
    pub stack_outputs: u32,
    /// Deepest stack use of the event functions (zc, pre, event<k>).
    pub stack_events: u32,
    /// Deepest stack use of `asserts`.
    pub stack_asserts: u32,
    /// Whether the step calls into the C math library (whose stack use adds to `stack_step`).
    pub step_calls_libm: bool,
    pub clif: Vec<String>,
    /// What the code assumes of the CPU ([`Cpu::describe`]).
    pub cpu: String,
}

/// Compiles `plan` for `target` with symbols prefixed by `prefix`.
pub fn object(
    plan: &Plan,
    target: &Target,
    cpu: &Cpu,
    prefix: &str,
    emit_clif: bool,
) -> Result<ObjectCode, CodegenError> {
    let flags = base_flags(target.pic)?;
    let mut triple: target_lexicon::Triple = target.triple.parse().map_err(err)?;
    // Bare-metal triples name no object format; ELF is what their toolchains link.
    if triple.binary_format == target_lexicon::BinaryFormat::Unknown {
        triple.binary_format = target_lexicon::BinaryFormat::Elf;
    }
    let mut b = isa::lookup(triple).map_err(err)?;
    for (k, v) in target.isa_flags {
        b.set(k, v).map_err(err)?;
    }
    apply_cpu(&mut b, target, cpu).map_err(CodegenError::Cpu)?;
    let shared = settings::Flags::new(flags);
    let mut isa = b.finish(shared.clone()).map_err(err)?;
    // Cranelift's x86 presets from x86-64-v3 on set has_avx2 but not has_avx, and its
    // instruction selection asks has_avx for the VEX encodings: AVX2 implies AVX.
    let flag = |isa: &dyn isa::TargetIsa, name: &str| {
        isa.isa_flags()
            .iter()
            .any(|v| v.name == name && v.as_bool() == Some(true))
    };
    if flag(&*isa, "has_avx2") && !flag(&*isa, "has_avx") {
        b.enable("has_avx").map_err(err)?;
        isa = b.finish(shared).map_err(err)?;
    }
    let ob =
        ObjectBuilder::new(isa, prefix, cranelift_module::default_libcall_names()).map_err(err)?;
    let g = generate(
        plan,
        ObjectModule::new(ob),
        prefix,
        emit_clif,
        target.riscv_fs1_shim,
        true,
    )?;
    let (stack_init, _) = g.stack_bytes(g.init);
    let (stack_step, step_calls_libm) = g.stack_bytes(g.step);
    let (stack_outputs, _) = g.stack_bytes(g.outputs);
    let stack_events =
        g.zc.iter()
            .chain(&g.pre)
            .chain(&g.event_fns)
            .map(|&f| g.stack_bytes(f).0)
            .max()
            .unwrap_or(0);
    let stack_asserts = g.asserts.map_or(0, |f| g.stack_bytes(f).0);
    let (externals, libm): (Vec<&'static str>, Vec<&'static str>) =
        g.libm.iter().partition(|n| !super::is_libm(n));
    let externals = externals
        .into_iter()
        .map(|n| (n, super::arity_of(plan, n)))
        .collect();
    let clif = g.clif.clone();
    let bytes = g.module.finish().emit().map_err(err)?;
    Ok(ObjectCode {
        bytes,
        libm,
        externals,
        stack_init,
        stack_step,
        stack_outputs,
        stack_events,
        stack_asserts,
        step_calls_libm,
        clif,
        cpu: cpu.describe(),
    })
}

#[cfg(test)]
mod tests {
    use super::Cpu;

    #[test]
    fn cpu_names_parse() {
        assert_eq!(Cpu::parse("baseline"), Cpu::Baseline);
        assert_eq!(Cpu::parse(" , "), Cpu::Baseline);
        assert_eq!(Cpu::parse("native"), Cpu::Native);
        assert_eq!(
            Cpu::parse("x86-64-v3, has_fma"),
            Cpu::Named(vec!["x86-64-v3".into(), "has_fma".into()])
        );
    }
}
