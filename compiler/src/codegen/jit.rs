//! The in-process JIT: the generated module finalised in executable memory.

use super::{base_flags, err, generate, CodegenError, Gen, NO_DETAIL};
use crate::plan::Slot;
use crate::plan::{kind, BlockId, EventId, Status, StatusWord};
use crate::plan::{Plan, Stmt};
use crate::symbolic::EntityVec;
use cranelift_codegen::settings;
use cranelift_jit::{JITBuilder, JITModule};

/// The address space reserved for one model's JIT code and data (see [`jit`]).
const JIT_ARENA: usize = 1 << 30;
use rustc_hash::FxHashMap;

type InitFn = unsafe extern "C" fn(*mut f64, f64) -> i32;
type StepFn = unsafe extern "C" fn(*mut f64, f64, f64) -> i32;
type OutputsFn = unsafe extern "C" fn(*const f64, *mut f64) -> i32;
type ParametersFn = unsafe extern "C" fn(*mut f64) -> i32;

/// A JIT-compiled plan.
pub struct Jit {
    _module: JITModule,
    init: InitFn,
    step: StepFn,
    outputs: OutputsFn,
    parameters: ParametersFn,
    /// Events: zero-crossing functions, the pre fill, each event's actions.
    zc: Option<OutputsFn>,
    pre: Option<ParametersFn>,
    events: EntityVec<EventId, ParametersFn>,
    /// The assertions' conditions (models with assertions).
    asserts: Option<OutputsFn>,
    /// Slots of the plan's variables; the scratch area follows.
    pub slots: usize,
    pub scratch: usize,
    /// Number of values `outputs` writes.
    pub output_count: usize,
    /// Number of values `asserts` writes.
    pub assertion_count: usize,
    /// Cranelift IR text of every function, when requested.
    pub clif: Vec<String>,
    residual_offset: usize,
    block_sizes: FxHashMap<BlockId, usize>,
    pub newton_max: u32,
    /// Slots checked for finiteness, in the interpreter's order.
    checked: Vec<Slot>,
}

// The JIT memory lives as long as the module; the function pointers do not outlive `Jit`.
unsafe impl Send for Jit {}

// The C math library through Rust's bindings to it (the interpreter calls the same ones).
extern "C" fn c_sin(x: f64) -> f64 {
    x.sin()
}
extern "C" fn c_cos(x: f64) -> f64 {
    x.cos()
}
extern "C" fn c_tan(x: f64) -> f64 {
    x.tan()
}
extern "C" fn c_asin(x: f64) -> f64 {
    x.asin()
}
extern "C" fn c_acos(x: f64) -> f64 {
    x.acos()
}
extern "C" fn c_atan(x: f64) -> f64 {
    x.atan()
}
extern "C" fn c_sinh(x: f64) -> f64 {
    x.sinh()
}
extern "C" fn c_cosh(x: f64) -> f64 {
    x.cosh()
}
extern "C" fn c_tanh(x: f64) -> f64 {
    x.tanh()
}
extern "C" fn c_exp(x: f64) -> f64 {
    x.exp()
}
extern "C" fn c_log(x: f64) -> f64 {
    x.ln()
}
extern "C" fn c_log10(x: f64) -> f64 {
    x.log10()
}
extern "C" fn c_atan2(y: f64, x: f64) -> f64 {
    y.atan2(x)
}
extern "C" fn c_pow(x: f64, y: f64) -> f64 {
    x.powf(y)
}

/// Compiles `plan` to native code for this machine.
pub fn jit(plan: &Plan, emit_clif: bool) -> Result<Jit, CodegenError> {
    let flags = base_flags(false)?;
    let isa = cranelift_native::builder()
        .map_err(err)?
        .finish(settings::Flags::new(flags))
        .map_err(err)?;
    let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    // The code and data of one model in one reserved region (address space only, committed
    // as it is used): the chunks call each other PC-relative, ±2 GiB, which separate
    // allocations from the system can exceed in a process that holds gigabytes (a model
    // with an FFT of thousands of samples).
    if let Ok(arena) = cranelift_jit::ArenaMemoryProvider::new_with_size(JIT_ARENA) {
        jb.memory_provider(Box::new(arena));
    }
    let syms: [(&str, *const u8); 14] = [
        ("sin", c_sin as *const u8),
        ("cos", c_cos as *const u8),
        ("tan", c_tan as *const u8),
        ("asin", c_asin as *const u8),
        ("acos", c_acos as *const u8),
        ("atan", c_atan as *const u8),
        ("sinh", c_sinh as *const u8),
        ("cosh", c_cosh as *const u8),
        ("tanh", c_tanh as *const u8),
        ("exp", c_exp as *const u8),
        ("log", c_log as *const u8),
        ("log10", c_log10 as *const u8),
        ("atan2", c_atan2 as *const u8),
        ("pow", c_pow as *const u8),
    ];
    for (n, p) in syms {
        jb.symbol(n, p);
    }
    // The model's external C functions: found in the process (libraries loaded with
    // `--link`); a missing one is an error here, before any code runs.
    let ext = super::externals(plan);
    let missing = crate::symbolic::external::missing(&ext);
    if !missing.is_empty() {
        return Err(CodegenError::MissingExternals(
            missing.iter().map(|m| m.to_string()).collect(),
        ));
    }
    for e in ext {
        if let Some(p) = e.address() {
            jb.symbol(e.name(), p);
        }
    }
    // The C shims of external calls (their derivatives among them): loaded, or an error here.
    let shims: Vec<String> = plan
        .arena
        .functions()
        .iter()
        .filter_map(|f| f.shim.as_ref())
        .filter(|s| s.address().is_none())
        .map(|s| format!("{} (the shim of {})", s.symbol, s.calls))
        .collect();
    if !shims.is_empty() {
        return Err(CodegenError::MissingExternals(shims));
    }
    let slots = plan.vars.len();
    let scratch = plan.scratch_slots();
    let mut g = generate(
        plan,
        JITModule::new(jb),
        "rtc_model",
        emit_clif,
        false,
        false,
    )?;
    g.module.finalize_definitions().map_err(err)?;
    let init_ptr = g.module.get_finalized_function(g.init);
    let step_ptr = g.module.get_finalized_function(g.step);
    let out_ptr = g.module.get_finalized_function(g.outputs);
    let par_ptr = g.module.get_finalized_function(g.parameters);
    let block_sizes = plan
        .init
        .iter()
        .chain(&plan.step)
        .filter_map(|s| match s {
            Stmt::Block(b) => Some((b.index, b.tearing.len())),
            _ => None,
        })
        .collect();
    // SAFETY: the functions were defined with exactly these signatures.
    let zc = g.zc.map(|f| unsafe {
        std::mem::transmute::<*const u8, OutputsFn>(g.module.get_finalized_function(f))
    });
    let pre = g.pre.map(|f| unsafe {
        std::mem::transmute::<*const u8, ParametersFn>(g.module.get_finalized_function(f))
    });
    // SAFETY: as above.
    let asserts = g.asserts.map(|f| unsafe {
        std::mem::transmute::<*const u8, OutputsFn>(g.module.get_finalized_function(f))
    });
    let events = g
        .event_fns
        .iter()
        .map(|&f| unsafe {
            std::mem::transmute::<*const u8, ParametersFn>(g.module.get_finalized_function(f))
        })
        .collect();
    // SAFETY: the functions were defined with exactly these signatures.
    let (init, step, outputs, parameters) = unsafe {
        (
            std::mem::transmute::<*const u8, InitFn>(init_ptr),
            std::mem::transmute::<*const u8, StepFn>(step_ptr),
            std::mem::transmute::<*const u8, OutputsFn>(out_ptr),
            std::mem::transmute::<*const u8, ParametersFn>(par_ptr),
        )
    };
    Ok(Jit {
        init,
        step,
        outputs,
        parameters,
        zc,
        pre,
        events,
        asserts,
        slots,
        scratch,
        output_count: plan.outputs.len(),
        assertion_count: plan.all_assertions().count(),
        clif: std::mem::take(&mut g.clif),
        residual_offset: slots,
        block_sizes,
        newton_max: plan.newton.max_iterations,
        checked: plan.unknown_slots(),
        _module: g.module,
    })
}

impl Jit {
    /// Memory for this model: the plan's slots and the scratch area.
    pub fn memory(&self) -> Vec<f64> {
        vec![0.0; self.slots + self.scratch]
    }

    fn decode(&self, mem: &[f64], code: i32) -> Status {
        let word = StatusWord(code);
        let detail = word.detail();
        match word.kind() {
            kind::OK => Status::Ok,
            kind::NOT_CONVERGED => {
                let block = BlockId::new(detail);
                let k = self.block_sizes.get(&block).copied().unwrap_or(0);
                let base = self.residual_offset + 1;
                let residual = crate::plan::largest_residual(&mem[base..base + k]);
                Status::NotConverged { block, residual }
            }
            kind::NON_FINITE if detail as i64 == NO_DETAIL => {
                let var = self
                    .checked
                    .iter()
                    .copied()
                    .find(|v| !mem[v.index()].is_finite())
                    .unwrap_or(Slot::new(0));
                Status::NonFinite { var }
            }
            kind::NON_FINITE => Status::NonFinite {
                var: Slot::new(detail),
            },
            _ => Status::Singular {
                block: BlockId::new(detail),
            },
        }
    }

    pub fn init(&self, mem: &mut [f64], t0: f64) -> Status {
        assert!(mem.len() >= self.slots + self.scratch);
        // SAFETY: `mem` is at least the layout's size, checked above.
        let code = unsafe { (self.init)(mem.as_mut_ptr(), t0) };
        self.decode(mem, code)
    }

    pub fn step(&self, mem: &mut [f64], t: f64, h: f64) -> Status {
        assert!(mem.len() >= self.slots + self.scratch);
        // SAFETY: as in `init`.
        let code = unsafe { (self.step)(mem.as_mut_ptr(), t, h) };
        self.decode(mem, code)
    }

    /// The steps of frames `frames` back to back, frame f's `steps` steps of `h` starting at
    /// `start + f·frame + j·h` (the runtime's frame times, to the bit), calling `after(mem,
    /// t + h)` after each step that succeeded: the batch run's loop without a call through the
    /// engine's interface per step. A failing step: (its frame, its end time, its status).
    #[allow(clippy::too_many_arguments)]
    pub fn step_frames(
        &self,
        mem: &mut [f64],
        frames: std::ops::Range<u64>,
        start: f64,
        frame: f64,
        h: f64,
        steps: u32,
        mut after: impl FnMut(&[f64], f64),
    ) -> Result<(), (u64, f64, Status)> {
        assert!(mem.len() >= self.slots + self.scratch);
        let step = self.step;
        for f in frames {
            let t0 = start + f as f64 * frame;
            for j in 0..steps {
                let t = t0 + f64::from(j) * h;
                // SAFETY: as in `init`; `mem` is at least the layout's size, checked above.
                let code = unsafe { step(mem.as_mut_ptr(), t, h) };
                if code != 0 {
                    let st = self.decode(mem, code);
                    if st != Status::Ok {
                        return Err((f, t + h, st));
                    }
                }
                after(mem, t + h);
            }
        }
        Ok(())
    }

    /// After tunable parameters changed in `mem`: recompute the parameters and hoisted
    /// expressions that depend on them.
    pub fn parameters_changed(&self, mem: &mut [f64]) {
        assert!(mem.len() >= self.slots + self.scratch);
        // SAFETY: `mem` is at least the layout's size, checked above.
        unsafe { (self.parameters)(mem.as_mut_ptr()) };
    }

    /// Every event's zero-crossing function (or discrete condition, 0/1) into `out`, then
    /// the time derivatives of those located by a cubic, then the events' relations' live
    /// values (`out` has three times the events).
    pub fn event_values(&self, mem: &[f64], out: &mut [f64]) {
        assert!(mem.len() >= self.slots + self.scratch && out.len() >= 3 * self.events.len());
        if let Some(f) = self.zc {
            // SAFETY: both blocks are at least the sizes the code indexes, checked above.
            unsafe { f(mem.as_ptr(), out.as_mut_ptr()) };
        }
    }

    /// The slots events read as pre(v) take the current values (at an instant's start).
    pub fn event_pre(&self, mem: &mut [f64]) {
        assert!(mem.len() >= self.slots + self.scratch);
        if let Some(f) = self.pre {
            // SAFETY: as above.
            unsafe { f(mem.as_mut_ptr()) };
        }
    }

    /// The actions of event `k`.
    pub fn event_action(&self, mem: &mut [f64], k: EventId) {
        assert!(mem.len() >= self.slots + self.scratch);
        // SAFETY: as above.
        unsafe { (self.events[k])(mem.as_mut_ptr()) };
    }

    /// Every assertion's condition (0/1; the plan's assertions, then its initial ones) into
    /// `out`.
    pub fn assertion_values(&self, mem: &[f64], out: &mut [f64]) {
        assert!(mem.len() >= self.slots + self.scratch);
        if let Some(f) = self.asserts {
            assert!(out.len() >= self.assertion_count);
            // SAFETY: both blocks are at least the sizes the code indexes, checked above.
            unsafe { f(mem.as_ptr(), out.as_mut_ptr()) };
        }
    }

    /// Every named variable (the plan's outputs, in order) from `mem` into `out`.
    pub fn outputs(&self, mem: &[f64], out: &mut [f64]) {
        assert!(mem.len() >= self.slots + self.scratch && out.len() >= self.output_count);
        // SAFETY: both blocks are at least the sizes the code indexes, checked above.
        unsafe { (self.outputs)(mem.as_ptr(), out.as_mut_ptr()) };
    }
}

/// `lu_solve(a, b, n, kl, w, tol, k0)`: the generic routine (helpers.rs).
pub type GenericLu = unsafe extern "C" fn(*mut f64, *mut f64, i64, i64, i64, f64, i64) -> i32;
/// `lu_band(a, b, n, kl, w, tol)`: the register-window band routine (band.rs).
pub type BandLu = unsafe extern "C" fn(*mut f64, *mut f64, i64, i64, i64, f64) -> i32;

/// The generated LU solves alone, JIT-compiled for this machine: what the tests compare with
/// the interpreter's [`crate::plan::interp::lu_solve`] on matrices of their choosing.
#[doc(hidden)]
pub struct LuKernels {
    _module: JITModule,
    pub generic: GenericLu,
    pub band: BandLu,
}

/// [`LuKernels`] for the band `(kl, w)` (`plan` only names the module's settings).
#[doc(hidden)]
pub fn lu_kernels(plan: &Plan, band: (usize, usize)) -> Result<LuKernels, CodegenError> {
    let flags = base_flags(false)?;
    let isa = cranelift_native::builder()
        .map_err(err)?
        .finish(settings::Flags::new(flags))
        .map_err(err)?;
    let jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    let mut g = Gen::new(plan, JITModule::new(jb), "rtc_lu", false, false);
    let generic = g.import(super::LU, 7)?;
    let band = g.band_lu(band)?;
    g.module.finalize_definitions().map_err(err)?;
    let (gp, bp) = (
        g.module.get_finalized_function(generic),
        g.module.get_finalized_function(band),
    );
    // SAFETY: the functions were defined with exactly these signatures.
    let (generic, band) = unsafe {
        (
            std::mem::transmute::<*const u8, GenericLu>(gp),
            std::mem::transmute::<*const u8, BandLu>(bp),
        )
    };
    Ok(LuKernels {
        _module: g.module,
        generic,
        band,
    })
}
