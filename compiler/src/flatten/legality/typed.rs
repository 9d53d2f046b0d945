//! The rules flattening checks where it meets them, with the types of the expressions known:
//! the arguments of the built-in operators (§3.7, §8.3.6, §8.3.7, §10.3). Each is a [`Rule`],
//! reported through [`Rule::broken`] where the operator is evaluated.

use super::Rule;

pub(in crate::flatten) const SMOOTH_REAL: Rule = Rule {
    section: "3.7.5",
    code: "type",
    text: "smooth(p, expr): expr is Real, or an array or record of Real",
};
pub(in crate::flatten) const INTEGER_OF_ENUM: Rule = Rule {
    section: "3.7.1",
    code: "type",
    text: "Integer(e) gives the ordinal of an enumeration value e; integer(x) converts a Real",
};
pub(in crate::flatten) const STRING_OF_STRING: Rule = Rule {
    section: "3.7.1",
    code: "type",
    text: "String(x) converts a Boolean, Integer, Real or enumeration value, not a String",
};
pub(in crate::flatten) const SAMPLE_ARGUMENTS: Rule = Rule {
    section: "3.7.5",
    code: "type",
    text: "sample(start, interval): start and interval are Real or Integer expressions",
};
pub(in crate::flatten) const VECTOR_ARGUMENT: Rule = Rule {
    section: "10.3.2",
    code: "size",
    text: "vector(A) needs an A with at most one dimension of size greater than 1",
};
pub(in crate::flatten) const REDUCTION_SCALAR: Rule = Rule {
    section: "10.3.4.1",
    code: "type",
    text: "the expression of a product, min or max reduction is a scalar",
};
pub(in crate::flatten) const HOMOTOPY_NAMES: Rule = Rule {
    section: "3.7.4",
    code: "arguments",
    text: "homotopy takes the arguments actual and simplified, by position or by these names",
};
pub(in crate::flatten) const ASSERT_ARGUMENTS: Rule = Rule {
    section: "8.3.7",
    code: "type",
    text: "assert(condition, message, level): the message is a String expression, the level of \
           type AssertionLevel",
};
pub(in crate::flatten) const REINIT_REAL: Rule = Rule {
    section: "8.3.6",
    code: "type",
    text: "reinit(x, expr): x is a Real variable (or an array of them)",
};
pub(in crate::flatten) const WHEN_BRANCHES: Rule = Rule {
    section: "8.3.5.3",
    code: "when",
    text: "the branches of a when-equation (when and elsewhen) have the same set of \
           component references on their left-hand sides",
};
pub(in crate::flatten) const WHEN_TWICE: Rule = Rule {
    section: "8.3.5.4",
    code: "when",
    text: "two when-equations shall not define the same variable",
};
pub(in crate::flatten) const FINAL_MODIFIED: Rule = Rule {
    section: "7.2.6",
    code: "final",
    text: "an element declared final cannot be modified",
};
pub(in crate::flatten) const CONDITION_BOOLEAN: Rule = Rule {
    section: "4.4.5",
    code: "type",
    text: "the condition of a conditional component is a Boolean parameter expression",
};
pub(in crate::flatten) const CONNECT_PRIMITIVES: Rule = Rule {
    section: "9.3",
    code: "connect",
    text: "matched primitive components of connected connectors have the same primitive type, \
           and connect parameters only to parameters and constants only to constants",
};
pub(in crate::flatten) const REDECLARE_CONSTANT_FINAL: Rule = Rule {
    section: "7.3.3",
    code: "redeclare",
    text: "an element declared constant or final cannot be redeclared",
};
pub(in crate::flatten) const PROTECTED_ACCESS: Rule = Rule {
    section: "4.1",
    code: "protected",
    text: "protected elements cannot be accessed via dot notation",
};
pub(in crate::flatten) const REINIT_ONCE: Rule = Rule {
    section: "8.3.6",
    code: "reinit",
    text: "reinit is applied to a variable in one when-equation only (in several of its \
           branches if need be), and once per branch",
};
pub(in crate::flatten) const REAL_EQUALITY: Rule = Rule {
    section: "3.5",
    code: "type",
    text: "== and <> do not compare Real operands outside functions",
};
