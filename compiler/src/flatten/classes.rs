//! The class tree: every class the model can name, loaded on demand, and name lookup in it.
//!
//! Top-level names come, in order, from the user's file, from `--lib` paths, from the
//! directories of `MODELICAPATH`, and from the standard library embedded in the binary (`Rtc`).
//! A library is a file `Name.mo` or a directory `Name/` with `package.mo` and one file or
//! directory per member, as Modelica tools store them. A library is read only when one of its
//! names is looked up, so an unused broken library costs nothing.

use crate::diag::{Diagnostic, SourceMap, Span};
use crate::syntax::{self, ast};
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};

/// The embedded standard library, as (path relative to `stdlib/`, text).
pub const STDLIB: &[(&str, &str)] = &[
    (
        "Rtc/package.mo",
        include_str!("../../../stdlib/Rtc/package.mo"),
    ),
    (
        "Rtc/Constants.mo",
        include_str!("../../../stdlib/Rtc/Constants.mo"),
    ),
    ("Rtc/SI.mo", include_str!("../../../stdlib/Rtc/SI.mo")),
    (
        "Rtc/Blocks.mo",
        include_str!("../../../stdlib/Rtc/Blocks.mo"),
    ),
    (
        "Rtc/Electrical.mo",
        include_str!("../../../stdlib/Rtc/Electrical.mo"),
    ),
    (
        "Rtc/Mechanics.mo",
        include_str!("../../../stdlib/Rtc/Mechanics.mo"),
    ),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClassId(pub u32);

crate::symbolic::index_methods!(ClassId);

/// The predefined enumeration types, declared as the specification writes them, and `Init`,
/// the initialisation choice of the MSL's blocks (`Modelica.Blocks.Types.Init`), which models
/// written without the MSL use by its short name. A class of the same name in the model's
/// scope hides each of them.
const BUILTIN_ENUMERATIONS: &str =
    "type StateSelect = enumeration(never, avoid, default, prefer, always);\n\
     type AssertionLevel = enumeration(error, warning);\n\
     type Init = enumeration(NoInit, SteadyState, InitialState, InitialOutput);\n";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    Real,
    Integer,
    Boolean,
    String,
}

pub struct ClassInfo<'a> {
    pub name: Box<str>,
    pub full_name: String,
    pub def: Option<&'a ast::ClassDef>,
    pub builtin: Option<Builtin>,
    pub parent: Option<ClassId>,
    pub children: FxHashMap<Box<str>, ClassId>,
}

impl<'a> ClassInfo<'a> {
    pub fn composition(&self) -> Option<&'a ast::Composition> {
        match &self.def?.body {
            ast::ClassBody::Long { composition, .. } => Some(composition),
            _ => None,
        }
    }

    pub fn restriction(&self) -> Option<ast::Restriction> {
        self.def.map(|d| d.restriction)
    }

    pub fn span(&self) -> Span {
        self.def.map(|d| d.name.span).unwrap_or_default()
    }
}

/// Where a top-level name may be found before it is loaded.
#[derive(Clone, Debug)]
enum Root {
    Disk(PathBuf),
    Embedded(&'static str),
}

/// What a name denotes in a class scope.
#[derive(Clone, Copy, Debug)]
pub enum Found<'a> {
    Class(ClassId),
    /// A component declared in a class (a package constant when seen from outside an instance).
    Component {
        owner: ClassId,
        clause: &'a ast::ComponentClause,
        decl: &'a ast::ComponentDecl,
    },
}

pub struct ClassTree<'a> {
    arena: &'a typed_arena::Arena<ast::StoredDefinition>,
    pub sources: SourceMap,
    pub classes: Vec<ClassInfo<'a>>,
    top: FxHashMap<Box<str>, ClassId>,
    roots: Vec<(String, Root)>,
    loaded_roots: FxHashMap<String, bool>,
    /// The first `given_libs` roots are the `--lib` libraries.
    given_libs: usize,
    builtins: FxHashMap<&'static str, ClassId>,
    bases_cache: FxHashMap<ClassId, Vec<ClassId>>,
    resolving_bases: Vec<ClassId>,
    /// Member lookups in progress: a lookup that needs itself (a class that extends a type
    /// declared inside it, a short class whose base is found through the class) finds nothing
    /// there instead of recursing without end.
    looking_up: Vec<(ClassId, Box<str>)>,
    /// (scope, name) pairs already reported as found through two unqualified imports.
    ambiguous: FxHashSet<(ClassId, Box<str>)>,
    /// Errors met while loading libraries on demand.
    pub load_errors: Vec<Diagnostic>,
    /// Members of library packages not parsed yet: (package, name) → the file or directory.
    /// A member is parsed when a lookup first needs it, so a model reads only the files of
    /// the classes it uses, and a broken file it does not use costs nothing.
    unloaded: FxHashMap<(ClassId, Box<str>), PathBuf>,
}

impl<'a> ClassTree<'a> {
    pub fn new(arena: &'a typed_arena::Arena<ast::StoredDefinition>) -> ClassTree<'a> {
        let mut t = ClassTree {
            arena,
            sources: SourceMap::new(),
            classes: Vec::new(),
            top: FxHashMap::default(),
            roots: Vec::new(),
            loaded_roots: FxHashMap::default(),
            given_libs: 0,
            builtins: FxHashMap::default(),
            bases_cache: FxHashMap::default(),
            resolving_bases: Vec::new(),
            looking_up: Vec::new(),
            ambiguous: FxHashSet::default(),
            load_errors: Vec::new(),
            unloaded: FxHashMap::default(),
        };
        for (name, b) in [
            ("Real", Builtin::Real),
            ("Integer", Builtin::Integer),
            ("Boolean", Builtin::Boolean),
            ("String", Builtin::String),
        ] {
            let id = ClassId::new(t.classes.len());
            t.classes.push(ClassInfo {
                name: name.into(),
                full_name: name.into(),
                def: None,
                builtin: Some(b),
                parent: None,
                children: FxHashMap::default(),
            });
            t.builtins.insert(name, id);
        }
        // The predefined enumerations (specification 4.9.5, 8.3.7), visible everywhere like
        // the predefined types.
        let file = t.sources.add("<builtin>", BUILTIN_ENUMERATIONS);
        if let Ok(sd) = syntax::parse(BUILTIN_ENUMERATIONS, file) {
            let sd: &'a ast::StoredDefinition = t.arena.alloc(sd);
            for c in &sd.classes {
                let id = ClassId::new(t.classes.len());
                t.classes.push(ClassInfo {
                    name: c.name.name.clone(),
                    full_name: c.name.name.to_string(),
                    def: Some(c),
                    builtin: None,
                    parent: None,
                    children: FxHashMap::default(),
                });
                let name: &'static str = match &*c.name.name {
                    "StateSelect" => "StateSelect",
                    "Init" => "Init",
                    _ => "AssertionLevel",
                };
                t.builtins.insert(name, id);
            }
        }
        t
    }

    /// Registers library locations: `--lib` paths first, then `MODELICAPATH`, then the stdlib.
    pub fn add_library_paths(&mut self, libs: &[PathBuf], modelicapath: Option<&str>) {
        for lib in libs {
            if let Some(name) = library_name(lib) {
                self.roots.push((name, Root::Disk(lib.clone())));
                self.given_libs = self.roots.len();
            } else if lib.is_dir() {
                // A folder given as a library that is not a package (13.4.1): say so, and
                // name the packages inside it, the usual slip being their parent folder.
                let mut inside: Vec<String> = std::fs::read_dir(lib)
                    .map(|rd| {
                        rd.filter_map(|e| e.ok().map(|e| e.path()))
                            .filter(|p| p.is_dir() && p.join("package.mo").is_file())
                            .map(|p| p.display().to_string())
                            .collect()
                    })
                    .unwrap_or_default();
                inside.sort();
                let help = if inside.is_empty() {
                    "Modelica 3.6 §13.4.1: a package stored as a directory holds the file package.mo".to_string()
                } else {
                    format!(
                        "Modelica 3.6 §13.4.1: a package stored as a directory holds the file package.mo; the packages in it: --lib {}",
                        inside.join(", --lib ")
                    )
                };
                self.load_errors.push(
                    Diagnostic::error(
                        "library",
                        format!(
                            "{} is not a library: the directory has no package.mo",
                            lib.display()
                        ),
                    )
                    .help(help),
                );
            }
        }
        if let Some(mp) = modelicapath {
            let sep = if cfg!(windows) { ';' } else { ':' };
            for dir in mp.split(sep).filter(|d| !d.is_empty()) {
                let Ok(rd) = std::fs::read_dir(dir) else {
                    continue;
                };
                let mut entries: Vec<PathBuf> =
                    rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
                entries.sort();
                for p in entries {
                    if let Some(name) = library_name(&p) {
                        self.roots.push((name, Root::Disk(p)));
                    }
                }
            }
        }
        self.roots.push(("Rtc".into(), Root::Embedded("Rtc")));
    }

    pub fn info(&self, id: ClassId) -> &ClassInfo<'a> {
        &self.classes[id.0 as usize]
    }

    pub fn builtin(&self, name: &str) -> Option<ClassId> {
        self.builtins.get(name).copied()
    }

    /// Adds the classes of a parsed file under `parent` (or at top level).
    pub fn add_stored_definition(
        &mut self,
        sd: ast::StoredDefinition,
        parent: Option<ClassId>,
    ) -> Vec<ClassId> {
        let sd: &'a ast::StoredDefinition = self.arena.alloc(sd);
        let mut out = Vec::new();
        for c in &sd.classes {
            out.push(self.add_class(c, parent));
        }
        out
    }

    fn add_class(&mut self, def: &'a ast::ClassDef, parent: Option<ClassId>) -> ClassId {
        let id = ClassId::new(self.classes.len());
        let full_name = match parent {
            Some(p) => format!("{}.{}", self.info(p).full_name, def.name.name),
            None => def.name.name.to_string(),
        };
        self.classes.push(ClassInfo {
            name: def.name.name.clone(),
            full_name,
            def: Some(def),
            builtin: None,
            parent,
            children: FxHashMap::default(),
        });
        match parent {
            Some(p) => {
                self.classes[p.0 as usize]
                    .children
                    .insert(def.name.name.clone(), id);
            }
            None => {
                self.top.entry(def.name.name.clone()).or_insert(id);
            }
        }
        if let ast::ClassBody::Long { composition, .. } = &def.body {
            for e in &composition.elements {
                if let ast::Element::Class(c, _) = e {
                    self.add_class(c, Some(id));
                }
            }
        }
        id
    }

    /// Parses and adds the user's file; returns its top-level classes.
    pub fn add_user_file(
        &mut self,
        name: &str,
        text: &str,
    ) -> Result<Vec<ClassId>, Box<Diagnostic>> {
        let file = self.sources.add(name, text);
        let sd = syntax::parse(text, file)?;
        let within = sd.within.clone().flatten();
        let tops = self.add_stored_definition(sd, None);
        // The package a within-clause names exists (13.4.3), in the libraries given.
        if let Some(w) = within {
            if !matches!(self.lookup_top_name(&w), Some(Found::Class(_))) {
                return Err(Box::new(
                    Diagnostic::error(
                        "unknown-name",
                        format!("the within-clause names `{}`, which is no class of the libraries", w.to_dotted()),
                    )
                    .at(w.span, "not found")
                    .help("Modelica 3.6 §13.4.3: the class a within-clause designates must exist; give its library with --lib or MODELICAPATH"),
                ));
            }
        }
        Ok(tops)
    }

    /// A top-level class by name, loading its library if needed.
    pub fn top_level(&mut self, name: &str) -> Option<ClassId> {
        if let Some(&id) = self.top.get(name) {
            return Some(id);
        }
        let mut roots: Vec<(String, Root)> = self
            .roots
            .iter()
            .filter(|(n, _)| n == name)
            .cloned()
            .collect();
        // Not a library's name: the --lib libraries not loaded yet, whose file may define it
        // under another name (13.4.2: which is an error, said where it is loaded).
        if roots.iter().all(|(n, _)| self.loaded_roots.contains_key(n)) {
            roots.extend(
                self.roots
                    .iter()
                    .take(self.given_libs)
                    .filter(|(n, _)| n != name)
                    .cloned(),
            );
        }
        for (root_name, root) in roots {
            if self.loaded_roots.contains_key(&root_name) {
                continue;
            }
            self.loaded_roots.insert(root_name.clone(), true);
            let before = self.classes.len();
            match root {
                Root::Disk(ref path) => self.load_disk(path, None),
                Root::Embedded(prefix) => self.load_embedded(prefix, None),
            }
            // The library's file defines another class than its name says (13.4.1, 13.4.2).
            if let (Root::Disk(path), Some(first), false) = (
                &root,
                self.classes.get(before),
                self.top.contains_key(root_name.as_str()),
            ) {
                let file = if path.is_dir() {
                    path.join("package.mo")
                } else {
                    path.clone()
                };
                let d = Diagnostic::error(
                    "library",
                    format!(
                        "{} defines `{}`, not the library `{root_name}` its name gives",
                        file.display(),
                        first.name
                    ),
                )
                .at(first.span(), "defined here")
                .help("Modelica 3.6 §13.4.1, §13.4.2: a library's package.mo, or its single file Name.mo, defines the one class the directory or file is named after");
                self.load_errors.push(d);
            }
            if let Some(&id) = self.top.get(name) {
                return Some(id);
            }
        }
        self.top.get(name).copied()
    }

    fn parse_and_add(&mut self, name: String, text: &str, parent: Option<ClassId>) -> Vec<ClassId> {
        let file = self.sources.add(name, text);
        match syntax::parse(text, file) {
            Ok(sd) => self.add_stored_definition(sd, parent),
            Err(d) => {
                self.load_errors.push(*d);
                Vec::new()
            }
        }
    }

    /// Parses and adds a file of a package's directory (`stem`: the name its place gives
    /// it), checking the layout rules of 13.4: it defines one class, named `stem`, and
    /// begins with `within` and the package's full name; the package is no short class.
    fn parse_and_add_entity(
        &mut self,
        name: String,
        text: &str,
        parent: ClassId,
        stem: &str,
    ) -> Vec<ClassId> {
        let file = self.sources.add(name, text);
        let sd = match syntax::parse(text, file) {
            Ok(sd) => sd,
            Err(d) => {
                self.load_errors.push(*d);
                return Vec::new();
            }
        };
        let package = self.info(parent).full_name.clone();
        let help = |section: &str, rule: &str| format!("Modelica 3.6 §{section}: {rule}");
        let mut errors = Vec::new();
        if let Some(second) = sd.classes.get(1) {
            errors.push(
                Diagnostic::error(
                    "library",
                    format!("the file of `{package}.{stem}` defines more than one class"),
                )
                .at(second.name.span, "a second class")
                .help(help(
                    "13.4.2",
                    "a file of a package holds one class, named as the file",
                )),
            );
        }
        let at = sd.classes.first().map(|c| c.name.span).unwrap_or_default();
        let within = match &sd.within {
            None => Some(("has no within-clause", at)),
            Some(None) => Some(("says `within;` (the top level)", at)),
            Some(Some(n)) if n.to_dotted() != package => Some(("names another package", n.span)),
            Some(Some(_)) => None,
        };
        if let Some((what, at)) = within {
            errors.push(
                Diagnostic::error(
                    "library",
                    format!("the file of `{package}.{stem}` {what}; it belongs to `{package}`"),
                )
                .at(at, format!("expected `within {package};`"))
                .help(help("13.4.3", "a non-top-level entity begins with a within-clause naming the enclosing package")),
            );
        }
        if let Some(ast::ClassBody::Short { .. }) = self.info(parent).def.map(|d| &d.body) {
            errors.push(
                Diagnostic::error(
                    "library",
                    format!("`{package}`, the package of `{stem}`, is a short class definition"),
                )
                .at(at, "stored in it")
                .help(help(
                    "13.4.3",
                    "the class a within-clause names is no short class definition",
                )),
            );
        }
        self.load_errors.extend(errors);
        self.add_stored_definition(sd, Some(parent))
    }

    fn load_disk(&mut self, path: &Path, parent: Option<ClassId>) {
        if path.is_dir() {
            let pkg = path.join("package.mo");
            let text = match std::fs::read_to_string(&pkg) {
                Ok(t) => t,
                Err(e) => {
                    self.load_errors.push(Diagnostic::error(
                        "library",
                        format!("cannot read {}: {e}", pkg.display()),
                    ));
                    return;
                }
            };
            let ids = match (parent, path.file_name()) {
                (Some(p), Some(dir)) => {
                    let stem = dir.to_string_lossy().to_string();
                    self.parse_and_add_entity(pkg.display().to_string(), &text, p, &stem)
                }
                _ => self.parse_and_add(pkg.display().to_string(), &text, parent),
            };
            let Some(&pkg_id) = ids.first() else {
                return;
            };
            let order = std::fs::read_to_string(path.join("package.order")).unwrap_or_default();
            let mut entries: Vec<PathBuf> = match std::fs::read_dir(path) {
                Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
                Err(_) => Vec::new(),
            };
            entries.sort_by_key(|p| {
                let stem = p
                    .file_stem()
                    .map(|s| s.to_string_lossy().to_string())
                    .unwrap_or_default();
                let pos = order
                    .lines()
                    .position(|l| l.trim() == stem)
                    .unwrap_or(usize::MAX);
                (pos, stem)
            });
            for e in entries {
                if e.file_name().is_some_and(|n| n == "package.mo") {
                    continue;
                }
                let is_mo = e.extension().is_some_and(|x| x == "mo");
                if is_mo || e.join("package.mo").is_file() {
                    let Some(stem) = e.file_stem().map(|s| s.to_string_lossy().to_string()) else {
                        continue;
                    };
                    // One name, one entity (13.4.1): not both in package.mo and a file, nor
                    // both a file B.mo and a directory B.
                    let key = (pkg_id, Box::<str>::from(stem.as_str()));
                    let twice = if let Some(&k) = self.info(pkg_id).children.get(stem.as_str()) {
                        Some((
                            "package.mo".to_string(),
                            self.info(k).span(),
                            "defined here",
                        ))
                    } else if let Some(first) = self.unloaded.get(&key) {
                        let name = first.file_name().unwrap_or_default().to_string_lossy();
                        Some((
                            name.to_string(),
                            self.info(pkg_id).span(),
                            "in this package",
                        ))
                    } else {
                        None
                    };
                    if let Some((other, at, label)) = twice {
                        let msg = format!(
                            "`{}.{stem}` is defined twice: by `{}` and by `{other}`",
                            self.info(pkg_id).full_name,
                            e.file_name().unwrap_or_default().to_string_lossy()
                        );
                        let d = Diagnostic::error("library", msg)
                            .at(at, label)
                            .help("Modelica 3.6 §13.4.1: each class of a package is stored once");
                        self.load_errors.push(d);
                        continue;
                    }
                    self.unloaded.insert((pkg_id, stem.into()), e);
                }
            }
        } else {
            match std::fs::read_to_string(path) {
                Ok(text) => {
                    let name = path.display().to_string();
                    let stem = path.file_stem().map(|s| s.to_string_lossy().to_string());
                    match (parent, stem) {
                        (Some(p), Some(stem)) => {
                            self.parse_and_add_entity(name, &text, p, &stem);
                        }
                        _ => {
                            self.parse_and_add(name, &text, parent);
                        }
                    }
                }
                Err(e) => self.load_errors.push(Diagnostic::error(
                    "library",
                    format!("cannot read {}: {e}", path.display()),
                )),
            }
        }
    }

    fn load_embedded(&mut self, prefix: &str, parent: Option<ClassId>) {
        let pkg_path = format!("{prefix}/package.mo");
        let Some((_, text)) = STDLIB.iter().find(|(p, _)| *p == pkg_path) else {
            return;
        };
        let ids = self.parse_and_add(format!("<stdlib>/{pkg_path}"), text, parent);
        let Some(&pkg_id) = ids.first() else {
            return;
        };
        let depth = prefix.matches('/').count() + 1;
        for (path, text) in STDLIB {
            let Some(rest) = path.strip_prefix(prefix).and_then(|r| r.strip_prefix('/')) else {
                continue;
            };
            if path.matches('/').count() != depth || rest == "package.mo" {
                if let Some(dir) = rest.strip_suffix("/package.mo") {
                    if !dir.contains('/') {
                        self.load_embedded(&format!("{prefix}/{dir}"), Some(pkg_id));
                    }
                }
                continue;
            }
            self.parse_and_add(format!("<stdlib>/{path}"), text, Some(pkg_id));
        }
    }

    /// Direct member class of `c` (no inheritance), parsing its file if not done yet.
    pub fn child(&mut self, c: ClassId, name: &str) -> Option<ClassId> {
        if let Some(&k) = self.info(c).children.get(name) {
            return Some(k);
        }
        let path = self.unloaded.remove(&(c, name.into()))?;
        self.load_disk(&path, Some(c));
        self.info(c).children.get(name).copied()
    }

    /// Whether `c`'s member class `name` is stored in a file of its own not read yet (such a
    /// class is public and not replaceable: those are prefixes in its holder's text).
    pub fn is_unread_file(&self, c: ClassId, name: &str) -> bool {
        self.unloaded.contains_key(&(c, name.into()))
    }

    /// The names of the member classes of `c`, loaded or not.
    pub fn child_names(&self, c: ClassId) -> Vec<String> {
        let mut v: Vec<String> = self
            .info(c)
            .children
            .keys()
            .map(|s| s.to_string())
            .collect();
        v.extend(
            self.unloaded
                .keys()
                .filter(|(p, _)| *p == c)
                .map(|(_, n)| n.to_string()),
        );
        v
    }

    /// Component declared directly in class `c`.
    pub fn local_component(
        &self,
        c: ClassId,
        name: &str,
    ) -> Option<(&'a ast::ComponentClause, &'a ast::ComponentDecl)> {
        let comp = self.info(c).composition()?;
        for e in &comp.elements {
            if let ast::Element::Component(clause, _) = e {
                for d in &clause.components {
                    if &*d.name.name == name {
                        return Some((clause, d));
                    }
                }
            }
        }
        None
    }

    /// Resolves a short class definition chain (`type V = Real(unit="V")`) to its base,
    /// returning the chain of short classes met, outermost first.
    pub fn base_of_short(&mut self, c: ClassId) -> Option<(ClassId, Span)> {
        let def = self.info(c).def?;
        if let ast::ClassBody::Short { base, .. } = &def.body {
            let lexical = self.info(c).parent;
            let found = match lexical {
                // An encapsulated short class sees only the predefined names (4.5.1).
                Some(_) if def.encapsulated && !base.global => match base.parts.as_slice() {
                    [one] => self.builtin(&one.name).map(Found::Class),
                    _ => None,
                },
                Some(p) => self.lookup_name(p, base),
                None => self.lookup_top_name(base),
            };
            return match found {
                Some(Found::Class(b)) => Some((b, base.span)),
                _ => None,
            };
        }
        None
    }

    /// Whether function `c` has an external clause, its own or inherited, and no `pure` or
    /// `impure` along its chain of short definitions and bases: the deprecated semantics of
    /// 12.3, assumed impure, which a model calling it must be told of.
    pub fn undeclared_external(&mut self, c: ClassId) -> bool {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![c];
        let mut external = false;
        while let Some(k) = stack.pop() {
            if !seen.insert(k) {
                continue;
            }
            let Some(def) = self.info(k).def else {
                continue;
            };
            if def.purity.is_some() {
                return false;
            }
            if let ast::ClassBody::Long { composition, .. } = &def.body {
                external |= composition.external.is_some();
            }
            if let Some((b, _)) = self.base_of_short(k) {
                stack.push(b);
            }
            let bases = self.bases(k);
            stack.extend(bases);
        }
        external
    }

    /// Whether function `c` is impure (12.3): the first purity declared along its chain of
    /// short definitions decides (`function f = Imp` is impure, `pure function f = Imp` is
    /// not); none declared, an impure class it extends makes it impure.
    /// Each class is visited once: an inheritance cycle (reported where the classes are
    /// instantiated) neither loops nor, with several bases, takes exponential time.
    pub fn impure(&mut self, c: ClassId) -> bool {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![c];
        while let Some(c) = stack.pop() {
            if !seen.insert(c) {
                continue;
            }
            let mut k = c;
            let mut declared = None;
            for _ in 0..64 {
                if let Some(p) = self.info(k).def.and_then(|d| d.purity) {
                    declared = Some(p);
                    break;
                }
                match self.base_of_short(k) {
                    Some((b, _)) if b != k => k = b,
                    _ => break,
                }
            }
            match declared {
                Some(ast::Purity::Impure) => return true,
                Some(_) => {}
                None => {
                    let bases = self.bases(k);
                    stack.extend(bases.into_iter().filter(|&b| b != k));
                }
            }
        }
        false
    }

    /// The class a chain of short definitions starting at `c` ends in (`type Temp =
    /// Real(unit = "K")`: `Real`); `c` itself if it is none (at most 64 steps).
    pub fn short_chain_end(&mut self, mut c: ClassId) -> ClassId {
        for _ in 0..64 {
            match self.base_of_short(c) {
                Some((b, _)) if b != c => c = b,
                _ => break,
            }
        }
        c
    }

    /// Class `c` is declared `replaceable` in the class that holds it.
    pub fn declared_replaceable(&self, c: ClassId) -> bool {
        let info = self.info(c);
        let Some(parent) = info.parent else {
            return false;
        };
        let Some(comp) = self.info(parent).composition() else {
            return false;
        };
        comp.elements.iter().any(
            |e| matches!(e, ast::Element::Class(d, p) if p.replaceable && d.name.name == info.name),
        )
    }

    /// Class `c` and every class that holds it are not declared `replaceable` (12.4.6:
    /// "transitively non-replaceable", judged along where it is declared).
    pub fn transitively_non_replaceable(&self, c: ClassId) -> bool {
        let mut at = Some(c);
        for _ in 0..64 {
            let Some(k) = at else {
                return true;
            };
            if self.declared_replaceable(k) {
                return false;
            }
            at = self.info(k).parent;
        }
        true
    }

    /// Member of class `c` named `name`: nested class, component, or one inherited via `extends`.
    pub fn member(&mut self, c: ClassId, name: &str, depth: u32) -> Option<Found<'a>> {
        if depth > 32 || self.looking_up.iter().any(|(k, n)| *k == c && &**n == name) {
            return None;
        }
        self.looking_up.push((c, name.into()));
        let found = self.member_uncached(c, name, depth);
        self.looking_up.pop();
        found
    }

    fn member_uncached(&mut self, c: ClassId, name: &str, depth: u32) -> Option<Found<'a>> {
        if let Some(k) = self.child(c, name) {
            return Some(Found::Class(k));
        }
        if let Some((clause, decl)) = self.local_component(c, name) {
            return Some(Found::Component {
                owner: c,
                clause,
                decl,
            });
        }
        // Inherited members.
        for b in self.bases(c) {
            if let Some(f) = self.member(b, name, depth + 1) {
                return Some(f);
            }
        }
        // Members of a short class definition's base (`package P = Q;`).
        if let Some((b, _)) = self.base_of_short_depth(c, depth + 1) {
            if b != c {
                return self.member(b, name, depth + 1);
            }
        }
        None
    }

    /// `c` and the classes it inherits from: its bases and a short definition's base, and
    /// theirs, each once (depth first, at most 32 levels deep).
    pub fn lineage(&mut self, c: ClassId) -> Vec<ClassId> {
        let mut out = Vec::new();
        let mut stack = vec![(c, 0u32)];
        while let Some((k, depth)) = stack.pop() {
            if depth > 32 || out.contains(&k) {
                continue;
            }
            out.push(k);
            if let Some((b, _)) = self.base_of_short(k) {
                stack.push((b, depth + 1));
            }
            for b in self.bases(k).into_iter().rev() {
                stack.push((b, depth + 1));
            }
        }
        out
    }

    /// The classes `c` extends, resolved in `c`'s scope (cached; a cycle yields no base).
    pub fn bases(&mut self, c: ClassId) -> Vec<ClassId> {
        if let Some(b) = self.bases_cache.get(&c) {
            return b.clone();
        }
        if self.resolving_bases.contains(&c) {
            return Vec::new();
        }
        let Some(comp) = self.info(c).composition() else {
            return Vec::new();
        };
        self.resolving_bases.push(c);
        let mut out = Vec::new();
        // `redeclare model extends M … end M;` extends the `M` it replaces (7.3.1).
        if let Some(b) = self.class_extends_base(c) {
            out.push(b);
        }
        for e in &comp.elements {
            if let ast::Element::Extends(ext) = e {
                if let Some(Found::Class(b)) = self.lookup_name_depth(c, &ext.base, 1) {
                    if b != c {
                        out.push(b);
                    }
                }
            }
        }
        self.resolving_bases.pop();
        self.bases_cache.insert(c, out.clone());
        out
    }

    /// The class a class extension (`redeclare model extends M … end M;`, specification
    /// 7.3.1) extends: the element `M` its enclosing class inherits. `None` when `c` is no
    /// class extension or nothing of that name is inherited.
    pub fn class_extends_base(&mut self, c: ClassId) -> Option<ClassId> {
        let def = self.info(c).def?;
        let ast::ClassBody::Long {
            class_extends: Some(_),
            ..
        } = &def.body
        else {
            return None;
        };
        let parent = self.info(c).parent?;
        for b in self.bases(parent) {
            if let Some(Found::Class(k)) = self.member(b, &def.name.name, 1) {
                if k != c {
                    return Some(k);
                }
            }
        }
        None
    }

    fn base_of_short_depth(&mut self, c: ClassId, depth: u32) -> Option<(ClassId, Span)> {
        if depth > 32 {
            return None;
        }
        self.base_of_short(c)
    }

    /// Looks up a dotted name from the scope of class `scope`.
    pub fn lookup_name(&mut self, scope: ClassId, name: &ast::Name) -> Option<Found<'a>> {
        self.lookup_name_depth(scope, name, 0)
    }

    fn lookup_name_depth(
        &mut self,
        scope: ClassId,
        name: &ast::Name,
        depth: u32,
    ) -> Option<Found<'a>> {
        let first = name.parts.first()?;
        let mut found = if name.global {
            self.top_level(&first.name).map(Found::Class)?
        } else {
            self.lookup_simple(scope, &first.name, depth)?
        };
        for part in &name.parts[1..] {
            match found {
                Found::Class(c) => found = self.member(c, &part.name, depth + 1)?,
                Found::Component { .. } => return None,
            }
        }
        Some(found)
    }

    pub fn lookup_top_name(&mut self, name: &ast::Name) -> Option<Found<'a>> {
        let first = name.parts.first()?;
        let mut found = Found::Class(
            self.top_level(&first.name)
                .or_else(|| self.builtin(&first.name))?,
        );
        for part in &name.parts[1..] {
            match found {
                Found::Class(c) => found = self.member(c, &part.name, 1)?,
                Found::Component { .. } => return None,
            }
        }
        Some(found)
    }

    /// Looks up a simple name through the enclosing scopes of `scope`, imports included.
    pub fn lookup_simple(&mut self, scope: ClassId, name: &str, depth: u32) -> Option<Found<'a>> {
        let mut cur = Some(scope);
        while let Some(c) = cur {
            if let Some(f) = self.member(c, name, depth + 1) {
                return Some(f);
            }
            if let Some(f) = self.lookup_import(c, name, depth) {
                return Some(f);
            }
            if self.info(c).def.is_some_and(|d| d.encapsulated) {
                // Past an encapsulated class only the predefined names remain (5.3.1, 13.2).
                return self.builtin(name).map(Found::Class);
            }
            cur = self.info(c).parent;
        }
        if let Some(b) = self.builtin(name) {
            return Some(Found::Class(b));
        }
        self.top_level(name).map(Found::Class)
    }

    fn lookup_import(&mut self, c: ClassId, name: &str, depth: u32) -> Option<Found<'a>> {
        let comp = self.info(c).composition()?;
        // Qualified and renaming imports first, then wildcard ones (specification 13.2.1).
        for e in &comp.elements {
            if let ast::Element::Import(imp) = e {
                match &imp.kind {
                    ast::ImportKind::Qualified(n) => {
                        if n.parts.last().is_some_and(|p| &*p.name == name) {
                            return self.lookup_top_name(n);
                        }
                    }
                    ast::ImportKind::Renamed(alias, n) => {
                        if &*alias.name == name {
                            return self.lookup_top_name(n);
                        }
                    }
                    ast::ImportKind::List(n, ids) => {
                        if ids.iter().any(|i| &*i.name == name) {
                            if let Some(Found::Class(p)) = self.lookup_top_name(n) {
                                return self.member(p, name, depth + 1);
                            }
                        }
                    }
                    ast::ImportKind::Wildcard(_) => {}
                }
            }
        }
        // Every unqualified import is looked in: a name two of them provide is ambiguous
        // (5.3.1), reported once per scope and name.
        let mut first: Option<(Found<'a>, &'a ast::Import)> = None;
        for e in &comp.elements {
            if let ast::Element::Import(imp) = e {
                if let ast::ImportKind::Wildcard(n) = &imp.kind {
                    if let Some(Found::Class(p)) = self.lookup_top_name(n) {
                        if let Some(f) = self.member(p, name, depth + 1) {
                            match first {
                                None => first = Some((f, imp)),
                                Some((g, other)) if !same_found(&f, &g) => {
                                    self.ambiguous_import(c, name, other, imp);
                                }
                                Some(_) => {}
                            }
                        }
                    }
                }
            }
        }
        first.map(|(f, _)| f)
    }

    /// Records that two unqualified imports of class `c` both provide `name` (5.3.1).
    fn ambiguous_import(&mut self, c: ClassId, name: &str, a: &ast::Import, b: &ast::Import) {
        if !self.ambiguous.insert((c, name.into())) {
            return;
        }
        let d = Diagnostic::error(
            "lookup",
            format!("`{name}` is found through two unqualified imports"),
        )
        .at(b.span, "provides it too")
        .also(a.span, "provides it")
        .help(
            "Modelica 3.6 §5.3.1: it is an error if a name is found through several \
             unqualified imports; import it qualified (`import P.name;`)",
        );
        self.load_errors.push(d);
    }

    /// Names visible in scope `c` (for "did you mean" help).
    pub fn visible_names(&self, c: ClassId) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = Some(c);
        while let Some(k) = cur {
            out.extend(self.child_names(k));
            if let Some(comp) = self.info(k).composition() {
                for e in &comp.elements {
                    if let ast::Element::Component(cl, _) = e {
                        out.extend(cl.components.iter().map(|d| d.name.name.to_string()));
                    }
                }
            }
            if self.info(k).def.is_some_and(|d| d.encapsulated) {
                return out;
            }
            cur = self.info(k).parent;
        }
        out.extend(self.top.keys().map(|s| s.to_string()));
        out.extend(self.roots.iter().map(|(n, _)| n.clone()));
        out
    }

    /// All top-level classes of the user's file, for model selection.
    pub fn top_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.top.keys().map(|s| s.to_string()).collect();
        v.sort();
        v
    }
}

fn library_name(p: &Path) -> Option<String> {
    if p.is_dir() {
        if p.join("package.mo").is_file() {
            // `Modelica 4.0.0/` is stored with a version; the library name is before the space.
            let n = p.file_name()?.to_string_lossy().to_string();
            return Some(n.split(' ').next().unwrap_or(&n).to_string());
        }
        None
    } else if p.extension().is_some_and(|e| e == "mo") {
        let n = p.file_stem()?.to_string_lossy().to_string();
        Some(n.split(' ').next().unwrap_or(&n).to_string())
    } else {
        None
    }
}

/// Whether two lookups found the same element (a class, or one component declaration).
pub(super) fn same_found(a: &Found<'_>, b: &Found<'_>) -> bool {
    match (a, b) {
        (Found::Class(x), Found::Class(y)) => x == y,
        (Found::Component { decl: x, .. }, Found::Component { decl: y, .. }) => {
            std::ptr::eq(*x, *y)
        }
        _ => false,
    }
}
