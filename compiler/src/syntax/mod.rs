//! Syntax: Modelica source text to an [`ast::StoredDefinition`].
//!
//! The grammar (`modelica.pest`) follows Appendix B of the Modelica 3.6 specification; `build`
//! turns pest's parse tree into the typed AST. A syntax error becomes one diagnostic that names
//! what was expected at the exact position. Deeply nested input is refused before parsing, so
//! no input can overflow the parser's stack.

pub mod ast;
mod build;
mod expressions;

use crate::diag::{Diagnostic, FileId, Span};
use pest::Parser;

#[derive(pest_derive::Parser)]
#[grammar = "syntax/modelica.pest"]
struct ModelicaParser;

/// Bracket nesting beyond this is refused (no real model comes close).
const MAX_NESTING: usize = 200;

/// Parses one file.
pub fn parse(text: &str, file: FileId) -> Result<ast::StoredDefinition, Box<Diagnostic>> {
    check_nesting(text, file)?;
    let pairs = ModelicaParser::parse(Rule::stored_definition, text)
        .map_err(|e| Box::new(syntax_error(e, file, text)))?;
    build::stored_definition(pairs, file)
}

/// Parses a single expression (used by `--param name=expr` style overrides and tests).
pub fn parse_expression(text: &str, file: FileId) -> Result<ast::Expr, Box<Diagnostic>> {
    check_nesting(text, file)?;
    let mut pairs = ModelicaParser::parse(Rule::expression, text)
        .map_err(|e| Box::new(syntax_error(e, file, text)))?;
    let pair = pairs.next().ok_or_else(|| {
        Box::new(
            Diagnostic::error("syntax", "expected an expression")
                .at(Span::new(file, 0, text.len()), "here"),
        )
    })?;
    let end = pair.as_span().end();
    if end != text.trim_end().len() {
        return Err(Box::new(
            Diagnostic::error("syntax", "unexpected text after the expression").at(
                Span::new(file, end, text.len()),
                "not part of the expression",
            ),
        ));
    }
    build::expression(pair, file)
}

fn check_nesting(text: &str, file: FileId) -> Result<(), Box<Diagnostic>> {
    let mut depth = 0usize;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Skip string contents: brackets there do not nest.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(Box::new(
                        Diagnostic::error(
                            "syntax",
                            format!("brackets nested deeper than {MAX_NESTING} levels"),
                        )
                        .at(Span::new(file, i, i + 1), "too deep")
                        .help("split the expression with intermediate variables"),
                    ));
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Human names for grammar rules in "expected …" messages.
fn rule_name(rule: &Rule) -> String {
    let s = match rule {
        Rule::EOI => "end of file",
        Rule::SEMI => "`;`",
        Rule::IDENT => "an identifier",
        Rule::STRING => "a string",
        Rule::UNSIGNED_INTEGER => "an integer",
        Rule::UNSIGNED_REAL | Rule::number_literal => "a number",
        Rule::expression | Rule::simple_expression | Rule::primary => "an expression",
        Rule::relational_operator => "a comparison operator",
        Rule::add_operator => "`+` or `-`",
        Rule::mul_operator => "`*` or `/`",
        Rule::pow_operator => "`^`",
        Rule::class_definition | Rule::class_prefixes | Rule::class_restriction => {
            "a class definition (`model`, `package`, `connector`, …)"
        }
        Rule::element => "a declaration",
        Rule::class_specifier
        | Rule::long_class_specifier
        | Rule::short_class_specifier
        | Rule::der_class_specifier => "a class name",
        Rule::some_equation => "an equation",
        Rule::statement => "a statement",
        Rule::component_reference => "a component reference",
        Rule::name | Rule::type_specifier => "a name",
        Rule::array_subscripts => "`[`",
        Rule::function_call_args => "`(`",
        Rule::class_modification => "a modification `(…)`",
        Rule::modification => "a modification",
        Rule::description_string | Rule::description => "a description string",
        Rule::annotation_clause => "`annotation`",
        Rule::within_clause => "`within`",
        Rule::component_list | Rule::component_declaration | Rule::declaration => {
            "a component name"
        }
        Rule::equation_section => "`equation`",
        Rule::algorithm_section => "`algorithm`",
        Rule::public_section => "`public`",
        Rule::protected_section => "`protected`",
        Rule::external_clause => "`external`",
        Rule::argument | Rule::argument_list => "a modification argument",
        Rule::for_indices | Rule::for_index => "a loop index",
        Rule::type_prefix => "a type prefix",
        Rule::final_ => "`final`",
        Rule::encapsulated => "`encapsulated`",
        Rule::partial => "`partial`",
        Rule::initial_ => "`initial`",
        Rule::each => "`each`",
        Rule::redeclare => "`redeclare`",
        Rule::function_arguments => "function arguments",
        Rule::named_arguments | Rule::named_argument => "a named argument",
        Rule::array_arguments => "array elements",
        Rule::expression_list => "an expression list",
        Rule::output_expression_list => "an expression list",
        Rule::subscript => "a subscript",
        other => {
            let dbg = format!("{other:?}");
            if let Some(kw) = dbg.strip_prefix("kw_") {
                return format!("`{kw}`");
            }
            return dbg.replace('_', " ");
        }
    };
    s.to_string()
}

fn syntax_error(e: pest::error::Error<Rule>, file: FileId, text: &str) -> Diagnostic {
    let (start, end) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p),
        pest::error::InputLocation::Span((a, b)) => (a, b),
    };
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            let mut names: Vec<String> = positives.iter().map(rule_name).collect();
            names.dedup();
            let mut seen = std::collections::HashSet::new();
            names.retain(|n| seen.insert(n.clone()));
            // The usual culprit first.
            if let Some(k) = names.iter().position(|n| n == "`;`") {
                let semi = names.remove(k);
                names.insert(0, semi);
            }
            if !names.is_empty() {
                let list = match names.len() {
                    1 => names[0].clone(),
                    _ => {
                        let (last, rest) = names.split_last().unwrap_or((&names[0], &[]));
                        format!("{} or {}", rest.join(", "), last)
                    }
                };
                format!("syntax error: expected {list}")
            } else if !negatives.is_empty() {
                let names: Vec<String> = negatives.iter().map(rule_name).collect();
                format!("syntax error: unexpected {}", names.join(", "))
            } else {
                "syntax error".to_string()
            }
        }
        pest::error::ErrorVariant::CustomError { message } => format!("syntax error: {message}"),
    };
    // A token missing at the end of a line is reported right after the previous token,
    // where it belongs, rather than at the start of the next line.
    let (start, end) = match text.get(..start) {
        Some(before) => {
            let trimmed = before.trim_end();
            if start == end && before[trimmed.len()..].contains('\n') && !trimmed.is_empty() {
                (trimmed.len(), trimmed.len())
            } else {
                (start, end)
            }
        }
        None => (start, end),
    };
    Diagnostic::error("syntax", message).at(Span::new(file, start, end.max(start)), "here")
}

#[cfg(test)]
mod tests;
