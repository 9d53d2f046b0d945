//! External C functions (specification 12.9): `external "C" y = f(u1, u2)` with Real scalar
//! arguments and a Real result, called through the C ABI.
//!
//! A process-wide registry gives each external function name an [`ExtFn`] id, so that an
//! expression node can name it (`Func1::Ext`, `Func2::Ext`) while staying `Copy` and hashable.
//! The address is looked up in the running process (`dlsym`), which sees the libraries given
//! with `rtc run --link` once they are loaded with [`load_library`]. Compiled objects leave the
//! names as undefined symbols for the embedded target's linker.
//!
//! Calls are never folded at compile time (the function may exist only on the target, and
//! may not be pure in the way folding assumes).

use std::ffi::{CStr, CString};
use std::sync::Mutex;

/// An external function: an index into the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExtFn(pub u32);

super::index_methods!(ExtFn);

struct Entry {
    name: &'static str,
    arity: usize,
}

static REGISTRY: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

/// The id of the external function `name` taking `arity` Real arguments (registered once).
/// `None` when the name was registered before with another arity.
pub fn register(name: &str, arity: usize) -> Option<ExtFn> {
    let mut reg = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(k) = reg.iter().position(|e| e.name == name) {
        return (reg[k].arity == arity).then_some(ExtFn::new(k));
    }
    // Names live as long as the process: a model names few external functions.
    let name: &'static str = Box::leak(name.to_string().into_boxed_str());
    reg.push(Entry { name, arity });
    Some(ExtFn(reg.len() as u32 - 1))
}

impl ExtFn {
    pub fn name(self) -> &'static str {
        let reg = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
        reg.get(self.0 as usize).map_or("?", |e| e.name)
    }

    /// The function's address in this process, if a loaded object defines it.
    pub fn address(self) -> Option<*const u8> {
        let name = CString::new(self.name()).ok()?;
        // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only reads.
        let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
        (!p.is_null()).then_some(p as *const u8)
    }

    /// Calls the one-argument function (NaN when it is not loaded; the run refuses to start
    /// before that, see [`missing`]).
    pub fn call1(self, x: f64) -> f64 {
        match self.address() {
            Some(p) => {
                // SAFETY: registered as `double f(double)` from the model's declaration.
                let f: extern "C" fn(f64) -> f64 = unsafe { std::mem::transmute(p) };
                f(x)
            }
            None => f64::NAN,
        }
    }

    pub fn call2(self, x: f64, y: f64) -> f64 {
        match self.address() {
            Some(p) => {
                // SAFETY: registered as `double f(double, double)` from the declaration.
                let f: extern "C" fn(f64, f64) -> f64 = unsafe { std::mem::transmute(p) };
                f(x, y)
            }
            None => f64::NAN,
        }
    }
}

/// Why a shared library did not load.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LoadError {
    #[error("{0}: a path with a NUL byte")]
    NulInPath(String),
    /// The dynamic loader's message.
    #[error("{0}")]
    Dlopen(String),
}

/// Loads a shared library so that its symbols are found by name (`rtc run --link`).
pub fn load_library(path: &std::path::Path) -> Result<(), LoadError> {
    let c = CString::new(path.as_os_str().as_encoded_bytes())
        .map_err(|_| LoadError::NulInPath(path.display().to_string()))?;
    // SAFETY: dlopen with a NUL-terminated path; the handle is kept open for the process.
    let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
    if h.is_null() {
        // SAFETY: dlerror returns a NUL-terminated message or null.
        let e = unsafe { libc::dlerror() };
        let msg = if e.is_null() {
            "unknown error".to_string()
        } else {
            unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
        };
        return Err(LoadError::Dlopen(msg));
    }
    Ok(())
}

/// A C shim around one external call (`void shim(const double* in, double* out)`): the call's
/// arguments of every kind (Integer, Boolean, arrays, String constants, outputs through
/// pointers) converted in C from and to the doubles rtc computes with, and the C library's
/// `ModelicaError` caught there (`crate::clib` writes, compiles and loads it). The shim is
/// called as a function compiled out of line is ([`super::Function::shim`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shim {
    /// The C symbol.
    pub symbol: String,
    /// The external C function it calls, for messages.
    pub calls: String,
    /// Declared `impure`: it may keep state in the library between calls.
    pub impure: bool,
    /// What is known of the work of one call (`rtc analyze` lists it): a table lookup's
    /// search over its rows, a LAPACK call's sizes, else the numbers passed.
    pub cost: String,
}

impl Shim {
    /// The shim's address in this process, once its library is loaded.
    pub fn address(&self) -> Option<*const u8> {
        let name = CString::new(self.symbol.as_str()).ok()?;
        // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only reads.
        let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
        (!p.is_null()).then_some(p as *const u8)
    }

    /// Calls the shim: `n_out` outputs (NaN when it is not loaded; runs refuse to start
    /// before that).
    pub fn call(&self, args: &[f64], n_out: usize) -> Vec<f64> {
        let mut out = vec![f64::NAN; n_out.max(1)];
        if let Some(p) = self.address() {
            // SAFETY: every shim has this signature; it reads `args.len()` inputs and writes
            // `n_out` outputs (both fixed when it was written for this call's shape).
            let f: extern "C" fn(*const f64, *mut f64) = unsafe { std::mem::transmute(p) };
            let a = if args.is_empty() {
                [0.0].as_slice()
            } else {
                args
            };
            f(a.as_ptr(), out.as_mut_ptr());
        }
        out.truncate(n_out);
        out
    }
}

/// Every external function registered in this process (a command compiles one model).
pub fn registered() -> Vec<ExtFn> {
    let reg = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    (0..reg.len() as u32).map(ExtFn).collect()
}

/// The names among `fns` that no loaded object defines.
pub fn missing(fns: &[ExtFn]) -> Vec<&'static str> {
    fns.iter()
        .filter(|f| f.address().is_none())
        .map(|f| f.name())
        .collect()
}
