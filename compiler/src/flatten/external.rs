//! External functions (specification 12.9): the clause checked (its language, 12.9, and its
//! left-hand side, 12.9.2), the MSL's C functions rtc computes itself (strings on values known
//! at compile time, tables as expressions), `double f(double[, double])` C calls, and the
//! annotation that says which libraries and C text a function needs and where they are
//! (12.9.4), `modelica://` URIs resolved against the library they name (13.5), for
//! [`crate::clib`].

use super::classes::ClassId;
use super::functions::{FnDef, LocalTy, LocalValue, Param};
use super::*;
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
        if fname.starts_with("ModelicaStrings_") {
            // The MSL's C string functions, on Strings known at compile time.
            let mut args = Vec::with_capacity(x.args.len());
            for a in &x.args {
                args.push(self.eval(a, env)?);
            }
            let value = self.string_function(&fname, &args, x.span)?;
            return self.set_external_output(x, value);
        }
        if tables::is_table_function(&fname) {
            // The MSL's C tables, computed as expressions (tables.rs).
            let mut args = Vec::with_capacity(x.args.len());
            for a in &x.args {
                args.push(self.eval(a, env)?);
            }
            let value = self.table_function(&fname, &args, x.span)?;
            if fname.starts_with("ModelicaStandardTables_CombiTimeTable_") {
                if let Some(f) = self.fns.frames.last_mut() {
                    f.time_table = true;
                }
            }
            return self.set_external_output(x, Val::Arr(Arr::real(value)));
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
