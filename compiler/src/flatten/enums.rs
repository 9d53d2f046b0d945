//! Enumeration types (specification 4.9.5): `type E = enumeration(a, b, c)` declares a type
//! whose values are its literals `E.a`, `E.b`, `E.c`, numbered 1, 2, 3 in the flat model. The
//! type is named, not numeric: literals compare with literals of the same type, `Integer(E.b)`
//! is 2, `String(E.b)` is "b", `E.a : E.c` is a range and `E` itself sizes an array or is a
//! loop range. The predefined `StateSelect` and `AssertionLevel` are enumerations too.

use super::*;

impl<'t, 'a> Flattener<'t, 'a> {
    /// The enumeration type of class `c` (registered on first use), if `c` is an enumeration.
    pub(super) fn enumeration(&mut self, c: ClassId) -> DResult<Option<EnumId>> {
        if let Some(&id) = self.enum_ids.get(&c) {
            return Ok(Some(id));
        }
        let info = self.tree.info(c);
        let Some(def) = info.def else {
            return Ok(None);
        };
        let ast::ClassBody::Enumeration { literals, open } = &def.body else {
            return Ok(None);
        };
        if *open {
            return Err(self.unsupported(def.span, "open enumerations `enumeration(:)`"));
        }
        for (k, (lit, _)) in literals.iter().enumerate() {
            if let Some((first, _)) = literals[..k].iter().find(|(l, _)| l.name == lit.name) {
                return Err(Box::new(
                    Diagnostic::error(
                        "duplicate",
                        format!("enumeration literal `{}` is declared twice", lit.name),
                    )
                    .at(lit.span, "declared again here")
                    .also(first.span, "first declared here"),
                ));
            }
        }
        let id = EnumId::new(self.flat.enums.len());
        self.flat.enums.push(crate::flat::EnumType {
            name: info.full_name.clone(),
            literals: literals.iter().map(|(l, _)| l.name.to_string()).collect(),
        });
        self.enum_ids.insert(c, id);
        Ok(Some(id))
    }

    /// The enumeration a class denotes through short class definitions (`type E2 = E;`).
    pub(super) fn enumeration_through_short(&mut self, mut c: ClassId) -> DResult<Option<EnumId>> {
        for _ in 0..64 {
            if let Some(id) = self.enumeration(c)? {
                return Ok(Some(id));
            }
            match self.tree.base_of_short(c) {
                Some((b, _)) if b != c => c = b,
                _ => return Ok(None),
            }
        }
        Ok(None)
    }

    /// The value of literal `name` of enumeration `e`, or a located error listing the literals.
    pub(super) fn enum_literal_value(&mut self, e: EnumId, name: &ast::Ident) -> DResult<Arr> {
        let ty = &self.flat.enums[e.0 as usize];
        match ty.literals.iter().position(|l| *l == *name.name) {
            Some(k) => Ok(Arr::scalar(
                self.flat.arena.constant((k + 1) as f64),
                ScalarType::Enum(e),
            )),
            None => {
                let mut d = Diagnostic::error(
                    "unknown-name",
                    format!("enumeration `{}` has no literal `{}`", ty.name, name.name),
                )
                .at(name.span, "not a literal");
                d = match suggest(&name.name, &ty.literals) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None => d.help(format!("its literals are: {}", ty.literals.join(", "))),
                };
                Err(Box::new(d))
            }
        }
    }

    /// The enumeration type an expression names (`E` in `Real x[E]` or `for e in E`), if it is
    /// a reference to an enumeration class; `Boolean` as such a range is not supported.
    pub(super) fn enum_type_expr(&mut self, e: &'a ast::Expr, env: Env) -> DResult<Option<EnumId>> {
        let ast::ExprKind::Ref(r) = &e.kind else {
            return Ok(None);
        };
        if r.parts.iter().any(|p| !p.subscripts.is_empty()) {
            return Ok(None);
        }
        // A component or loop variable of that name comes first.
        if r.parts.len() == 1 && !r.global {
            let n = &r.parts[0].ident.name;
            if self.ctx.loop_vars.iter().any(|(v, _, _)| v == n) {
                return Ok(None);
            }
            if let Some(node) = env.node {
                if self.inst.nodes[node.0 as usize].slots.contains_key(n) {
                    return Ok(None);
                }
            }
        }
        let Some(name) = builtins::ref_as_name(r) else {
            return Ok(None);
        };
        match self.tree.lookup_name(env.class, &name) {
            Some(Found::Class(c)) => self.enumeration_through_short(c),
            _ => Ok(None),
        }
    }

    /// All values of an enumeration, in order, as a vector (`for e in E`).
    pub(super) fn enum_values(&mut self, e: EnumId) -> Arr {
        let n = self.flat.enums[e.0 as usize].literals.len();
        let data = (1..=n)
            .map(|k| self.flat.arena.constant(k as f64))
            .collect();
        Arr {
            dims: vec![n],
            data,
            ty: ScalarType::Enum(e),
        }
    }

    /// The literal's name of a constant enumeration value (`String(E.b)` is "b").
    pub(super) fn enum_literal_name(&self, e: EnumId, v: f64) -> Option<String> {
        let lits = &self.flat.enums[e.0 as usize].literals;
        if v.fract() != 0.0 || v < 1.0 {
            return None;
        }
        lits.get(v as usize - 1).cloned()
    }
}
