//! External functions (specification 12.9): the clause checked (its language, 12.9, and its
//! left-hand side, 12.9.2), the MSL's C functions rtc computes itself (strings on values known
//! at compile time, tables as expressions), `double f(double[, double])` C calls, and the
//! annotation that says which libraries and C text a function needs and where they are
//! (12.9.4), `modelica://` URIs resolved against the library they name (13.5), for
//! [`crate::clib`].

use super::classes::ClassId;
use super::functions::{FnDef, LocalTy, LocalValue, Param};
use super::*;
use crate::clib::shim::{Arg, CTy, Spec, TextPiece};
use crate::clib::ExternalLibs;
use std::path::{Path, PathBuf};

/// The string, or the strings of an array of strings, of annotation element `name`: `None`
/// where there is no such element; an error where its value is not of that form.
fn strings(ann: &ast::ClassMod, name: &str) -> DResult<Option<Vec<String>>> {
    for a in &ann.args {
        let ast::Argument::Modify(m) = a else {
            continue;
        };
        if m.name.to_dotted() != name {
            continue;
        }
        let bad = || {
            Box::new(
                Diagnostic::error(
                    "external",
                    format!("the annotation `{name}` of an external function is a string or an array of strings"),
                )
                .at(m.span, "here")
                .help("Modelica 3.6 §12.9.4"),
            )
        };
        let Some(ast::Binding::Expr(e)) = m.modification.as_ref().and_then(|x| x.binding.as_ref())
        else {
            return Err(bad());
        };
        let lit = |e: &ast::Expr| match &e.kind {
            ast::ExprKind::Str(s) => Some(s.clone()),
            _ => None,
        };
        return match &e.kind {
            ast::ExprKind::Str(s) => Ok(Some(vec![s.clone()])),
            ast::ExprKind::Array(items) => items
                .iter()
                .map(|i| lit(i).ok_or_else(bad))
                .collect::<DResult<Vec<_>>>()
                .map(Some),
            _ => Err(bad()),
        };
    }
    Ok(None)
}

impl<'t, 'a> Flattener<'t, 'a> {
    /// The libraries and C text of external clause `x` of a function declared in `lexical`;
    /// `None` where its annotation names neither `Library` nor `Include`.
    pub(super) fn external_libs(
        &mut self,
        x: &'a ast::External,
        lexical: ClassId,
    ) -> DResult<Option<ExternalLibs>> {
        let Some(ann) = &x.annotation else {
            return Ok(None);
        };
        let libraries = strings(ann, "Library")?.unwrap_or_default();
        let include = strings(ann, "Include")?.map(|v| v.join("\n"));
        if libraries.is_empty() && include.is_none() {
            return Ok(None);
        }
        // The top-level class and where it is stored.
        let mut top = lexical;
        while let Some(p) = self.tree.info(top).parent {
            top = p;
        }
        let base = self.stored_at(top);
        let mut dir = |name: &str, default: &str| -> DResult<Vec<PathBuf>> {
            let Some(v) = strings(ann, name)? else {
                return Ok(default.split(',').map(|d| base.join(d)).collect());
            };
            let Some(uri) = v.first() else {
                return Ok(Vec::new());
            };
            self.resource(uri, &base, x.span).map(|p| vec![p])
        };
        let include_dir = dir("IncludeDirectory", "Resources/Include")?;
        let library_dir = dir("LibraryDirectory", "Resources/Library")?;
        let source_dirs = dir("SourceDirectory", "Resources/Source,Resources/C-Sources")?;
        Ok(Some(ExternalLibs {
            libraries,
            include,
            include_dir: include_dir.into_iter().next().unwrap_or_default(),
            library_dir: library_dir.into_iter().next().unwrap_or_default(),
            source_dirs,
            span: x.span,
        }))
    }
}

impl<'t, 'a> Flattener<'t, 'a> {
    /// The folder resources of top-level class `top` are relative to: its package folder, or
    /// the folder of its single file (specification 13.5).
    fn stored_at(&self, top: ClassId) -> PathBuf {
        self.tree
            .info(top)
            .def
            .map(|d| PathBuf::from(&self.tree.sources.file(d.span.file).name))
            .and_then(|f| f.parent().map(|p| p.to_path_buf()))
            .unwrap_or_default()
    }

    /// A `modelica://Top.Sub/path` URI (or a `file://` one, or a path relative to `base`, the
    /// declaring library's folder) as a path: the authority's first name is a top-level class
    /// (found as any class is), the others folders below it.
    fn resource(&mut self, uri: &str, base: &Path, span: Span) -> DResult<PathBuf> {
        let lower = uri.to_ascii_lowercase();
        if lower.starts_with("modelica://") {
            let rest = &uri["modelica://".len()..];
            let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
            let mut names = authority.split('.');
            let top = names.next().unwrap_or("");
            let Some(id) = self.tree.top_level(top) else {
                return Err(Box::new(
                    Diagnostic::error(
                        "external",
                        format!("`{uri}` names the library `{top}`, which is not found"),
                    )
                    .at(span, "its annotation")
                    .help("Modelica 3.6 §13.5: give the library with --lib or MODELICAPATH"),
                ));
            };
            let mut p = self.stored_at(id);
            for n in names {
                p.push(n);
            }
            for part in path.split('/').filter(|s| !s.is_empty()) {
                p.push(part);
            }
            return Ok(p);
        }
        if lower.starts_with("file://") {
            return Ok(PathBuf::from(&uri["file://".len()..]));
        }
        Ok(base.join(uri))
    }
}

impl<'t, 'a> Flattener<'t, 'a> {
    /// The clause's language (`"C..."` is C) and its left-hand side (an output) checked:
    /// the language to call in.
    fn external_clause(
        &mut self,
        x: &'a ast::External,
        outputs: &[&Param<'a>],
    ) -> DResult<&'static str> {
        let given = x.language.as_deref().unwrap_or("C");
        // "C..." names a C standard (C89, C99, C11): C to rtc.
        let language: &str = if given.starts_with('C') { "C" } else { given };
        if language != "builtin" && language != "C" {
            if language != "FORTRAN 77" {
                return Err(Box::new(
                    Diagnostic::error(
                        "external",
                        format!("`\"{given}\"` is not an external language"),
                    )
                    .at(x.span, "here")
                    .help("Modelica 3.6 §12.9: the language specification must be \"builtin\", \"C\", \"C...\" (a C standard: \"C89\", \"C99\", \"C11\") or \"FORTRAN 77\""),
                ));
            }
            return Err(self.unsupported(
                x.span,
                &format!("external \"{language}\" functions (only \"C\" and \"builtin\")"),
            ));
        }
        if let Some(r) = &x.output {
            let lhs: &str = &r.parts[0].ident.name;
            if r.parts.len() != 1 || !outputs.iter().any(|p| p.name == lhs) {
                return Err(Box::new(
                    Diagnostic::error(
                        "external",
                        format!("`{lhs}`, the left-hand side of the external call, is not an output of the function"),
                    )
                    .at(r.span, "here")
                    .help("Modelica 3.6 §12.9.2: the left-hand side of an external call of equation form shall be an output"),
                ));
            }
        }
        Ok(if language == "C" { "C" } else { "builtin" })
    }

    /// The value of an external call the compiler computes itself, given to the clause's
    /// left-hand side (none: the value is dropped).
    fn set_external_output(&mut self, x: &'a ast::External, value: Val) -> DResult<()> {
        let Some(target) = x.output.as_ref().map(|r| r.parts[0].ident.name.to_string()) else {
            return Ok(());
        };
        // An `int` result declared as an enumeration (`ModelicaStrings_compare`'s `Compare`).
        let mut value = value;
        if let (Val::Arr(a), Some(LocalTy::Num(t @ ScalarType::Enum(_)))) = (
            &mut value,
            self.fns
                .frames
                .last()
                .and_then(|f| f.locals.get(target.as_str()))
                .map(|l| l.ty),
        ) {
            if a.ty == ScalarType::Integer {
                a.ty = t;
            }
        }
        let v = self.check_local_value(&target, value, x.span, "is given {a}")?;
        if let Some(l) = self
            .fns
            .frames
            .last_mut()
            .and_then(|f| f.locals.get_mut(target.as_str()))
        {
            l.value = LocalValue::Set(v);
        }
        Ok(())
    }

    /// `external "builtin" y = sin(u)`: the intrinsic of that name.
    pub(super) fn external_body(
        &mut self,
        def: &FnDef<'a>,
        x: &'a ast::External,
        lexical: ClassId,
        inputs: &[&Param<'a>],
        outputs: &[&Param<'a>],
    ) -> DResult<()> {
        let language = self.external_clause(x, outputs)?;
        let short = def.name.rsplit('.').next().unwrap_or(&def.name).to_string();
        let fname = x.function.as_ref().map_or(short, |i| i.name.to_string());
        let env = Env {
            node: None,
            class: lexical,
        };
        if matches!(
            fname.as_str(),
            "ModelicaStrings_length"
                | "ModelicaStrings_skipWhiteSpace"
                | "ModelicaStrings_substring"
                | "ModelicaStrings_compare"
        ) {
            // The MSL's C string functions, on Strings known at compile time.
            let mut args = Vec::with_capacity(x.args.len());
            for a in &x.args {
                args.push(self.eval(a, env)?);
            }
            let value = self.string_function(&fname, &args, x.span)?;
            return self.set_external_output(x, value);
        }
        if fname == "ModelicaInternal_fullPathName" {
            // A `modelica://` or `file://` URI (the MSL's reference `ModelicaServices`
            // `loadResource` passes them on to fullPathName, which does not resolve them):
            // resolved by rtc against the library it names (13.5).
            if let Some(a) = x.args.first() {
                if let Val::Str(uri) = self.eval(a, env)? {
                    let lower = uri.to_ascii_lowercase();
                    if lower.starts_with("modelica://") || lower.starts_with("file://") {
                        let p = self.resource(&uri, Path::new(""), x.span)?;
                        let p = std::path::absolute(&p).unwrap_or(p);
                        return self.set_external_output(x, Val::Str(p.display().to_string()));
                    }
                }
            }
        }
        if tables::is_table_function(&fname) {
            // The MSL's C tables, computed as expressions (tables.rs).
            let mut args = Vec::with_capacity(x.args.len());
            for a in &x.args {
                args.push(self.eval(a, env)?);
            }
            // An object's constructor run by `tables.rs` `c_object` (a file, a 2-D table).
            let c_object = def.name.ends_with(".constructor")
                || matches!(args.first(), Some(Val::Record(r)) if r.field(OBJECT_FIELD).is_some());
            if c_object {
                // A table the library's constructor made (read from a file): the library's
                // own lookups.
                return self.shim_call(def, x, lexical, outputs, &fname);
            }
            let value = self.table_function(&fname, &args, x.span)?;
            if fname.starts_with("ModelicaStandardTables_CombiTimeTable_") {
                if let Some(f) = self.fns.frames.last_mut() {
                    f.time_table = true;
                }
            }
            return self.set_external_output(x, Val::Arr(Arr::real(value)));
        }
        // A function whose C code comes from a library may raise ModelicaError: a shim
        // catches it. Without one (`--link`), `double f(double[, double])` is called directly.
        if language == "C"
            && (self.external_libs(x, lexical)?.is_some()
                || !self.simple_c_call(x, inputs, outputs)?)
        {
            // Every other C call: through a shim (shim.rs).
            return self.shim_call(def, x, lexical, outputs, &fname);
        }
        let mut args = Vec::new();
        if x.function.is_some() {
            for a in &x.args {
                match self.eval(a, env)? {
                    Val::Arr(v) => args.push(v),
                    _ => {
                        return Err(self.unsupported(
                            a.span,
                            &format!(
                                "external functions with String or record arguments (`{fname}`)"
                            ),
                        ))
                    }
                }
            }
        } else {
            for p in inputs {
                match self.local_value(p.name, x.span)? {
                    Val::Arr(a) => args.push(a),
                    _ => {
                        return Err(self.unsupported(
                            x.span,
                            "String or record arguments of external functions",
                        ))
                    }
                }
            }
        }
        let scalar = |a: &Arr| {
            a.as_scalar().ok_or_else(|| {
                Box::new(
                    Diagnostic::error("size", format!("built-in `{fname}` takes scalars"))
                        .at(x.span, "here"),
                ) as Box<Diagnostic>
            })
        };
        let (f1, f2) = if language == "C" {
            // `double f(double[, double])`: Real scalars in and out, through the C ABI.
            let real = |a: &Arr| a.is_scalar() && a.ty == ScalarType::Real;
            let out_real = outputs.len() <= 1
                && outputs.iter().all(|p| {
                    p.decl.subscripts.is_empty()
                        && p.clause.subscripts.is_empty()
                        && matches!(
                            self.fns.frames.last().map(|f| f.locals[p.name].ty),
                            Some(LocalTy::Num(ScalarType::Real))
                        )
                });
            if !(1..=2).contains(&args.len()) || !args.iter().all(real) || !out_real {
                return Err(self.unsupported(
                    x.span,
                    "external \"C\" functions other than `double f(double)` and `double f(double, double)` (Real scalar arguments and one Real result)",
                ));
            }
            if let Some(libs) = self.external_libs(x, lexical)? {
                crate::clib::declare(&fname, libs);
            }
            let Some(e) = crate::symbolic::external::register(&fname, args.len()) else {
                return Err(Box::new(
                    Diagnostic::error(
                        "external",
                        format!("external function `{fname}` is declared elsewhere with another number of arguments"),
                    )
                    .at(x.span, "here"),
                ));
            };
            (Some(Func1::Ext(e)), Some(Func2::Ext(e)))
        } else {
            (Func1::from_name(&fname), Func2::from_name(&fname))
        };
        let value = match (f1, f2, args.as_slice()) {
            (Some(f), _, [a]) => {
                let e = scalar(a)?;
                self.flat.arena.call1(f, e)
            }
            (_, Some(f), [a, b]) => {
                let (ea, eb) = (scalar(a)?, scalar(b)?);
                self.flat.arena.call2(f, ea, eb)
            }
            _ => {
                return Err(Box::new(
                    Diagnostic::error(
                        "unknown-name",
                        format!(
                            "no built-in function `{fname}` with {} arguments",
                            args.len()
                        ),
                    )
                    .at(x.span, "external \"builtin\""),
                ))
            }
        };
        let target = match &x.output {
            Some(r) => r.parts[0].ident.name.to_string(),
            None => match outputs.first() {
                Some(p) => p.name.to_string(),
                None => return Ok(()),
            },
        };
        if !self
            .fns
            .frames
            .last()
            .unwrap()
            .locals
            .contains_key(target.as_str())
        {
            return Err(Box::new(
                Diagnostic::error("unknown-name", format!("unknown output `{target}`"))
                    .at(x.span, "here"),
            ));
        }
        let v =
            self.check_local_value(&target, Val::Arr(Arr::real(value)), x.span, "is given {a}")?;
        self.fns
            .frames
            .last_mut()
            .unwrap()
            .locals
            .get_mut(target.as_str())
            .unwrap()
            .value = LocalValue::Set(v);
        Ok(())
    }
}

impl<'t, 'a> Flattener<'t, 'a> {
    /// `double f(double[, double])` called with Real scalars: the call rtc makes without a
    /// shim (`Func1::Ext`, `Func2::Ext`: folded into expressions, its derivative the central
    /// difference of the expression engine).
    fn simple_c_call(
        &mut self,
        x: &'a ast::External,
        inputs: &[&Param<'a>],
        outputs: &[&Param<'a>],
    ) -> DResult<bool> {
        let top = self.fns.frames.len() - 1;
        let real = |this: &Self, name: &str| {
            let l = &this.fns.frames[top].locals[name];
            matches!(l.ty, LocalTy::Num(ScalarType::Real))
                && l.dims.as_ref().is_some_and(|d| d.is_empty())
        };
        if outputs.len() != 1 || !real(self, outputs[0].name) {
            return Ok(false);
        }
        let names: Vec<&str> = match x.function {
            None => inputs.iter().map(|p| p.name).collect(),
            Some(_) => {
                let mut v = Vec::new();
                for a in &x.args {
                    match &a.kind {
                        ast::ExprKind::Ref(r)
                            if r.parts.len() == 1 && r.parts[0].subscripts.is_empty() =>
                        {
                            v.push(&*r.parts[0].ident.name)
                        }
                        _ => return Ok(false),
                    }
                }
                if x.function.is_some() && x.output.is_none() && !outputs.is_empty() {
                    return Ok(false);
                }
                v
            }
        };
        Ok((1..=2).contains(&names.len())
            && names
                .iter()
                .all(|n| inputs.iter().any(|p| p.name == *n) && real(self, n)))
    }

    /// The C type and the scalar type (`None`: a String) of local `name` for the C mapping
    /// (12.9.1.1), and its dimensions.
    fn c_type_of(
        &self,
        name: &str,
        span: Span,
        fname: &str,
    ) -> DResult<(CTy, Option<ScalarType>, Vec<usize>)> {
        let top = self.fns.frames.len() - 1;
        let l = &self.fns.frames[top].locals[name];
        let ty = match l.ty {
            LocalTy::Num(t) => Some(t),
            LocalTy::Str => None,
            LocalTy::Record(c) if tables::is_external_object(self.tree, c) => {
                return Ok((CTy::Ptr, Some(ScalarType::Real), Vec::new()));
            }
            LocalTy::Record(_) => {
                return Err(self.unsupported(
                    span,
                    &format!("a record returned by value from an external C function (`{name}` of `{fname}`; passed as an argument, by reference, it is supported)"),
                ))
            }
        };
        let Some(dims) = l.dims.clone() else {
            return Err(self.unsupported(
                span,
                &format!("an output of open size passed to an external C function (`{name}` of `{fname}`)"),
            ));
        };
        let c = match ty {
            None => CTy::Str,
            Some(ScalarType::Real) => CTy::Double,
            Some(_) => CTy::Int,
        };
        Ok((c, ty, dims))
    }

    /// An input argument of a shim call: a String constant, or numbers.
    fn shim_input(&self, b: &mut ShimCall, v: Val, span: Span) -> DResult<()> {
        match v {
            Val::Str(t) => b.spec.args.push(Arg::Str(t)),
            Val::Strs(_) => {
                return Err(self.unsupported(
                    span,
                    &format!(
                        "String array arguments of external C functions (`{}`)",
                        b.spec.function
                    ),
                ))
            }
            Val::Text(t) => {
                // Formatted by the shim when it calls the function.
                let mut pieces = Vec::with_capacity(t.pieces.len());
                for p in &t.pieces {
                    pieces.push(match p {
                        TextPart::Lit(s) => TextPiece::Lit(s.clone()),
                        TextPart::Value(x, conv) => {
                            b.ins.push(*x);
                            TextPiece::Value {
                                at: b.ins.len() - 1,
                                conv: conv.clone(),
                            }
                        }
                    });
                }
                b.spec.args.push(Arg::Text(pieces));
            }
            Val::Arr(a) => {
                let ty = if a.ty == ScalarType::Real {
                    CTy::Double
                } else {
                    CTy::Int
                };
                b.spec.args.push(Arg::In {
                    ty,
                    at: b.ins.len(),
                    n: a.data.len(),
                    array: !a.dims.is_empty(),
                });
                b.ins.extend_from_slice(&a.data);
            }
            Val::Record(rv) => {
                // An external object rtc made with the library's constructor: its address;
                // any other record: a struct of its components (external_records.rs).
                let Some(Val::Arr(p)) = rv.field(OBJECT_FIELD) else {
                    let fname = b.spec.function.clone();
                    let fields = self.record_in(&rv, &mut b.ins, span, &fname)?;
                    b.spec.args.push(Arg::Rec { fields, out: false });
                    return Ok(());
                };
                b.spec.args.push(Arg::In {
                    ty: CTy::Ptr,
                    at: b.ins.len(),
                    n: 1,
                    array: false,
                });
                b.ins.extend_from_slice(&p.data);
            }
        }
        Ok(())
    }

    /// An output (or protected variable) of a shim call, written through a pointer; the
    /// values it holds before the call are passed in.
    fn shim_output(&mut self, b: &mut ShimCall, name: &str, span: Span) -> DResult<()> {
        if let Some(shape) = self.written_record_shape(name, span)? {
            let first = b.n_out;
            let fname = b.spec.function.clone();
            let fields = self.record_out(&shape, &mut b.ins, &mut b.n_out, span, &fname)?;
            b.spec.args.push(Arg::Rec { fields, out: true });
            b.records.push((name.to_string(), shape, first));
            return Ok(());
        }
        let top = self.fns.frames.len() - 1;
        let (cty, ty, dims) = self.c_type_of(name, span, &b.spec.function)?;
        let n: usize = dims.iter().product();
        if cty == CTy::Str {
            b.spec.args.push(Arg::Out {
                ty: cty,
                at: b.n_sout,
                n,
                init: None,
            });
            b.written.push((name.to_string(), None, dims, b.n_sout));
            b.n_sout += n;
            return Ok(());
        }
        let init = match &self.fns.frames[top].locals[name].value {
            LocalValue::Set(Val::Arr(a)) if a.data.len() == n => {
                let at = b.ins.len();
                b.ins.extend_from_slice(&a.data);
                Some(at)
            }
            _ => None,
        };
        b.spec.args.push(Arg::Out {
            ty: cty,
            at: b.n_out,
            n,
            init,
        });
        b.written.push((name.to_string(), ty, dims, b.n_out));
        b.n_out += n;
        Ok(())
    }

    /// A `size_t` argument (`size(a, k)`, or an array's dimension in the default mapping).
    fn shim_size(b: &mut ShimCall, e: ExprId) {
        b.spec.args.push(Arg::In {
            ty: CTy::SizeT,
            at: b.ins.len(),
            n: 1,
            array: false,
        });
        b.ins.push(e);
    }

    /// The arguments of an explicit external call; the left-hand side it returns to.
    fn shim_explicit(
        &mut self,
        b: &mut ShimCall,
        x: &'a ast::External,
        env: Env,
    ) -> DResult<Option<String>> {
        let top = self.fns.frames.len() - 1;
        for a in &x.args {
            let written = match &a.kind {
                ast::ExprKind::Ref(r) if r.parts.len() == 1 && r.parts[0].subscripts.is_empty() => {
                    let name = &*r.parts[0].ident.name;
                    self.fns.frames[top]
                        .locals
                        .get(name)
                        .is_some_and(|l| !l.input)
                        .then_some(name)
                }
                _ => None,
            };
            if let Some(name) = written {
                self.shim_output(b, name, a.span)?;
                continue;
            }
            let v = self.eval(a, env)?;
            if is_size_call(a) {
                let Some(e) = (match &v {
                    Val::Arr(v) => v.as_scalar(),
                    _ => None,
                }) else {
                    return Err(self.unsupported(a.span, "this size argument"));
                };
                Self::shim_size(b, e);
            } else {
                self.shim_input(b, v, a.span)?;
            }
        }
        Ok(x.output.as_ref().map(|r| r.parts[0].ident.name.to_string()))
    }

    /// The default mapping (12.9.1–12.9.3): one output is the returned value, else every
    /// variable is passed in declaration order; arrays are followed by their sizes.
    fn shim_default(
        &mut self,
        b: &mut ShimCall,
        def: &FnDef<'a>,
        outputs: &[&Param<'a>],
        span: Span,
    ) -> DResult<Option<String>> {
        let top = self.fns.frames.len() - 1;
        let single = outputs.len() == 1;
        for p in &def.params {
            if (p.is_output && single) || (!p.is_input && !p.is_output) {
                continue;
            }
            if p.is_output {
                self.shim_output(b, p.name, span)?;
            } else {
                let v = self.local_value(p.name, span)?;
                self.shim_input(b, v, span)?;
            }
            let dims = self.fns.frames[top].locals[p.name]
                .dims
                .clone()
                .unwrap_or_default();
            for d in dims {
                let e = self.flat.arena.constant(d as f64);
                Self::shim_size(b, e);
            }
        }
        Ok(single.then(|| outputs[0].name.to_string()))
    }

    /// An external "C" call of any argument kind, through a C shim: the outputs (and the
    /// protected variables the call writes) become calls of the shim's function.
    fn shim_call(
        &mut self,
        def: &FnDef<'a>,
        x: &'a ast::External,
        lexical: ClassId,
        outputs: &[&Param<'a>],
        fname: &str,
    ) -> DResult<()> {
        let env = Env {
            node: None,
            class: lexical,
        };
        let top = self.fns.frames.len() - 1;
        let mut b = ShimCall {
            spec: Spec {
                function: fname.to_string(),
                args: Vec::new(),
                ret: None,
                n_in: 0,
                n_out: 0,
                n_sout: 0,
                guarded: false,
                include: None,
            },
            ins: Vec::new(),
            written: Vec::new(),
            records: Vec::new(),
            n_out: 0,
            n_sout: 0,
        };
        let ret_target = if x.function.is_some() {
            self.shim_explicit(&mut b, x, env)?
        } else {
            self.shim_default(&mut b, def, outputs, x.span)?
        };
        if let Some(t) = &ret_target {
            let (cty, ty, dims) = self.c_type_of(t, x.span, fname)?;
            if !dims.is_empty() {
                return Err(self.unsupported(
                    x.span,
                    &format!("an array returned by the external C function `{fname}`"),
                ));
            }
            let at = if cty == CTy::Str {
                &mut b.n_sout
            } else {
                &mut b.n_out
            };
            b.spec.ret = Some((cty, *at));
            b.written.push((t.clone(), ty, Vec::new(), *at));
            *at += 1;
        }
        let effect_only = b.n_out == 0 && b.n_sout == 0;
        if effect_only {
            // Made only where the statements that lead to it hold.
            let guard = self.call_guard();
            if self.flat.arena.as_const(guard) != Some(1.0) {
                b.ins.push(guard);
                b.spec.guarded = true;
            }
        }
        b.spec.n_in = b.ins.len();
        b.spec.n_out = b.n_out.max(usize::from(b.n_sout == 0));
        b.spec.n_sout = b.n_sout;
        let libs = self.external_libs(x, lexical)?;
        b.spec.include = libs.as_ref().and_then(|l| l.include.clone());
        let lapack = libs
            .as_ref()
            .is_some_and(|l| l.libraries.iter().any(|n| n.eq_ignore_ascii_case("lapack")));
        let known_each: Vec<Option<f64>> = b.ins.iter().map(|&e| self.fold(e)).collect();
        let cost = crate::clib::cost::describe(&b.spec, &known_each, lapack);
        let symbol = crate::clib::shim::register(b.spec.clone(), libs, x.span);
        // Known arguments: evaluated now (the only way for String results; results that size
        // arrays need it), except a call made for its effect and an impure function without
        // String results called from a model's when-clause or algorithm (it acts while the
        // model runs).
        let known: Option<Vec<f64>> = known_each.iter().copied().collect();
        let impure = def.classes.first().is_some_and(|&c| {
            self.tree
                .info(c)
                .def
                .is_some_and(|d| d.purity == Some(ast::Purity::Impure))
        });
        let acts = impure && (self.ctx.in_when || self.fns.frames.iter().any(|f| f.is_model));
        let values = match &known {
            Some(args) if !effect_only && (!acts || b.n_sout > 0) => {
                // Once per call and arguments: flattening reads a binding more than once.
                let key = (symbol.clone(), args.iter().map(|a| a.to_bits()).collect());
                let (nums, strs) = match self.fns.evaluated.get(&key) {
                    Some(v) => v.clone(),
                    None => {
                        let v = crate::clib::call_now(&symbol, args)?;
                        self.fns.evaluated.insert(key, v.clone());
                        v
                    }
                };
                ShimValues::Now(nums, strs)
            }
            _ if b.n_sout > 0 => {
                return Err(self.unsupported(
                    x.span,
                    &format!("String results of the external C function `{fname}` on values known only while the model runs"),
                ))
            }
            _ => {
                crate::clib::shim::mark_runtime(&symbol);
                let f = self.shim_function(def, x, &symbol, fname, &b.spec, (impure, &cost))?;
                let fid = self.flat.arena.add_function(&f);
                let outs: Vec<ExprId> = (0..b.spec.n_out)
                    .map(|k| self.flat.arena.call(fid, k as u32, &b.ins))
                    .collect();
                if effect_only {
                    self.fns.effects.push((top, outs[0], x.span, fname.to_string()));
                    return Ok(());
                }
                ShimValues::Later(outs)
            }
        };
        for (name, ty, dims, at) in std::mem::take(&mut b.written) {
            let n: usize = dims.iter().product();
            let object = match self.fns.frames[top].locals[name.as_str()].ty {
                LocalTy::Record(c) if tables::is_external_object(self.tree, c) => Some(c),
                _ => None,
            };
            if let Some(class) = object {
                // An external object: constructed now, on known arguments (its address is
                // this process's), destroyed when the run ends.
                let ShimValues::Now(nums, _) = &values else {
                    return Err(self.unsupported(
                        x.span,
                        &format!("an external object whose constructor's arguments change while the model runs (`{fname}`)"),
                    ));
                };
                let bits = nums[at];
                if let Some(ins) = &known {
                    crate::clib::cost::constructed_table(&b.spec, ins, bits);
                    // Made again by an object file's init (clib/objects.rs).
                    crate::clib::objects::made(bits, &symbol, ins.clone(), at, b.spec.n_out);
                }
                self.object_destructor(class, bits, x.span)?;
                let e = self.flat.arena.constant(bits);
                let v = Val::Record(std::rc::Rc::new(super::values::RecordVal {
                    class,
                    name: self.tree.info(class).full_name.clone(),
                    dims: Vec::new(),
                    fields: vec![(
                        OBJECT_FIELD.into(),
                        Val::Arr(Arr::scalar(e, ScalarType::Real)),
                    )],
                }));
                self.fns.frames[top]
                    .locals
                    .get_mut(name.as_str())
                    .expect("a local of the function")
                    .value = LocalValue::Set(v);
                continue;
            }
            let v = match (ty, &values) {
                (None, ShimValues::Now(_, strs)) if dims.is_empty() => Val::Str(strs[at].clone()),
                (None, _) => {
                    return Err(self.unsupported(
                        x.span,
                        &format!(
                            "String array outputs of external C functions (`{name}` of `{fname}`)"
                        ),
                    ))
                }
                (Some(ty), ShimValues::Now(nums, _)) => Val::Arr(Arr {
                    dims,
                    data: nums[at..at + n]
                        .iter()
                        .map(|&v| self.flat.arena.constant(v))
                        .collect(),
                    ty,
                }),
                (Some(ty), ShimValues::Later(outs)) => Val::Arr(Arr {
                    dims,
                    data: outs[at..at + n].to_vec(),
                    ty,
                }),
            };
            let v = self.check_local_value(&name, v, x.span, "is given {a}")?;
            self.fns.frames[top]
                .locals
                .get_mut(name.as_str())
                .expect("a local of the function")
                .value = LocalValue::Set(v);
        }
        self.set_written_records(std::mem::take(&mut b.records), &values, x.span)?;
        Ok(())
    }

    /// The function of the shim `symbol` (one per symbol in the model).
    /// Its derivative is the one the function's `derivative` annotation names where that
    /// fits (external_derivative.rs), else central differences.
    fn shim_function(
        &mut self,
        def: &FnDef<'a>,
        x: &'a ast::External,
        symbol: &str,
        fname: &str,
        spec: &Spec,
        (impure, cost): (bool, &str),
    ) -> DResult<std::sync::Arc<crate::symbolic::Function>> {
        if let Some(f) = self.fns.shims.get(symbol) {
            return Ok(f.clone());
        }
        let mut f = crate::symbolic::Function::shim(
            format!("{}_{}", def.name, &symbol[6..]),
            crate::symbolic::external::Shim {
                symbol: symbol.to_string(),
                calls: fname.to_string(),
                impure,
                cost: cost.to_string(),
            },
            spec.n_in,
            spec.n_out,
        );
        f.derivative = self.shim_derivative(def, x, spec, cost)?;
        let f = std::sync::Arc::new(f);
        self.fns.shims.insert(symbol.to_string(), f.clone());
        Ok(f)
    }
}

/// The numbers and Strings of an external call evaluated when the model was compiled.
pub(super) type Evaluated = (Vec<f64>, Vec<String>);

/// What a shim call gives: values computed now, or calls made while the model runs.
pub(super) enum ShimValues {
    Now(Vec<f64>, Vec<String>),
    Later(Vec<ExprId>),
}

/// A shim call being put together: the C call's shape, the values passed in, the locals the
/// call writes (name, scalar type or `None` for a String, dims, first output) and the
/// numeric and String outputs so far.
struct ShimCall {
    spec: Spec,
    ins: Vec<ExprId>,
    written: Vec<(String, Option<ScalarType>, Vec<usize>, usize)>,
    /// The record locals the call writes: name, shape, first output.
    records: Vec<(String, std::rc::Rc<super::values::RecordVal>, usize)>,
    n_out: usize,
    n_sout: usize,
}

/// The field of an external object's record that holds the address the library's constructor
/// returned (its bits in a double).
pub(super) const OBJECT_FIELD: &str = "#address";

impl<'t, 'a> Flattener<'t, 'a> {
    /// Registers the destructor of external object class `class` for the object `bits`
    /// (12.9.7): its external function called through a shim when the run ends.
    fn object_destructor(&mut self, class: ClassId, bits: f64, span: Span) -> DResult<()> {
        let Some(Found::Class(d)) = self.tree.member(class, "destructor", 0) else {
            return Ok(());
        };
        let def = self.function_def(d, span)?;
        let Some((x, lexical)) = def.external else {
            return Ok(());
        };
        let fname = x.function.as_ref().map_or_else(
            || def.name.rsplit('.').next().unwrap_or(&def.name).to_string(),
            |f| f.name.to_string(),
        );
        let libs = self.external_libs(x, lexical)?;
        let spec = Spec {
            function: fname,
            args: vec![Arg::In {
                ty: CTy::Ptr,
                at: 0,
                n: 1,
                array: false,
            }],
            ret: None,
            n_in: 1,
            n_out: 1,
            n_sout: 0,
            guarded: false,
            include: libs.as_ref().and_then(|l| l.include.clone()),
        };
        let symbol = crate::clib::shim::register(spec, libs, x.span);
        crate::clib::shim::constructed(&symbol, bits);
        crate::clib::objects::destructor(bits, &symbol);
        Ok(())
    }
}

/// `size(a, k)` (or `size(a)`) in an external call: passed as `size_t` (12.9.1.1).
fn is_size_call(e: &ast::Expr) -> bool {
    matches!(&e.kind, ast::ExprKind::Call(ast::CallTarget::Ref(r), _) if r.parts.len() == 1 && &*r.parts[0].ident.name == "size")
}
