//! The annotation of an `external "C"` clause (specification 12.9.4): which libraries and
//! C text the function needs and where they are, `modelica://` URIs resolved against the
//! top-level class that declares the function (specification 13.5), for [`crate::clib`].

use super::classes::ClassId;
use super::{DResult, Flattener};
use crate::clib::ExternalLibs;
use crate::diag::Diagnostic;
use crate::diag::Span;
use crate::syntax::ast;
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
