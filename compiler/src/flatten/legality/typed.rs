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
pub(in crate::flatten) const POWER_EXCEPTIONAL: Rule = Rule {
    section: "10.6.7",
    code: "power",
    text: "a ^ b is illegal for a = 0.0 and a Real b = 0.0, for a = 0 and b < 0, and for a < 0 and b without an integer value",
};
pub(in crate::flatten) const STRING_OF_SCALAR: Rule = Rule {
    section: "3.7.1",
    code: "arguments",
    text: "the first argument of String(x) is a scalar Boolean, Integer, Real or enumeration",
};
pub(in crate::flatten) const FUNCTION_COMPONENT: Rule = Rule {
    section: "12.2",
    code: "restriction",
    text: "a function may only contain components of type, record, operator record and function classes",
};
pub(in crate::flatten) const LOOP_VARIABLE_ASSIGNED: Rule = Rule {
    section: "11.2.2",
    code: "loop",
    text: "the loop variable of a for-statement shall not be assigned to (as in for-equations, 8.3.2.1)",
};
pub(in crate::flatten) const TERMINATE_IN_FUNCTION: Rule = Rule {
    section: "11.2.8.2",
    code: "function",
    text: "the terminate-statement shall not be used in functions",
};
pub(in crate::flatten) const PRE_SUBSCRIPT: Rule = Rule {
    section: "3.7.5",
    code: "arguments",
    text: "the argument y of pre(y) is a variable; any subscripts in it are parameter expressions",
};
pub(in crate::flatten) const WHEN_CONDITION_DISCRETE: Rule = Rule {
    section: "8.3.5",
    code: "when",
    text: "the condition of a when-equation or when-statement (11.2.7) shall be a discrete-time expression",
};
pub(in crate::flatten) const WHEN_EQUATION_FORM: Rule = Rule {
    section: "8.3.5.3",
    code: "when",
    text: "the equations in a when-equation are v = expr (v a component reference with parameter subscripts), (out1, ...) = f(...), assert, terminate, reinit, and for- and if-equations of these",
};
pub(in crate::flatten) const POWER_OPERANDS: Rule = Rule {
    section: "10.6.7",
    code: "power",
    text: "a ^ b needs scalar Real or Integer operands, or a square matrix and an Integer exponent (10.6.8)",
};
pub(in crate::flatten) const MATRIX_POWER: Rule = Rule {
    section: "10.6.8",
    code: "power",
    text: "a matrix power a ^ s needs a square numeric matrix a and an Integer s >= 0",
};
pub(in crate::flatten) const DISCRETE_VALUED_EQUATION: Rule = Rule {
    section: "3.8.4",
    code: "variability",
    text: "Boolean, Integer, String and enumeration variables are discrete-time: both sides of their equations outside when-clauses are discrete-time expressions (noEvent of a continuous-time relation is not)",
};
pub(in crate::flatten) const DISCRETE_UNDER_CONTINUOUS_IF: Rule = Rule {
    section: "3.8.4",
    code: "variability",
    text: "no equation between discrete-time expressions under an if-equation whose condition \
           is not a discrete-time expression",
};
pub(in crate::flatten) const EVENT_UNDER_CONTINUOUS_IF: Rule = Rule {
    section: "3.8.4",
    code: "variability",
    text: "no event-generating relation in the branches of an if whose condition is not a \
           discrete-time expression",
};
pub(in crate::flatten) const REAL_EQUALITY: Rule = Rule {
    section: "3.5",
    code: "type",
    text: "== and <> do not compare Real operands outside functions",
};
pub(in crate::flatten) const REDECLARE_INHERITED: Rule = Rule {
    section: "7.3",
    code: "redeclare",
    text: "a redeclare element (or class extension, 7.3.1) replaces an element the class \
           inherits: one of that name must be inherited",
};
pub(in crate::flatten) const REDECLARE_VISIBILITY: Rule = Rule {
    section: "7.3.3",
    code: "redeclare",
    text: "a public element may not be redeclared as protected, nor a protected one as public",
};
pub(in crate::flatten) const REDECLARE_DIMENSIONS: Rule = Rule {
    section: "7.3.2",
    code: "redeclare",
    text: "a redeclared component keeps the number of dimensions of the declaration it \
           replaces (of its type too), and each size given there (6.4: `p[3]` cannot become \
           `p[2]`; `p[:]` may become `p[2]`)",
};
pub(in crate::flatten) const REDECLARE_CONDITION: Rule = Rule {
    section: "4.4.5",
    code: "redeclare",
    text: "a redeclaration of a component shall not include a condition attribute",
};
pub(in crate::flatten) const REDECLARE_KIND: Rule = Rule {
    section: "6.4",
    code: "redeclare",
    text: "a redeclared class is of the constraining class's kind (function, package, \
           connector, model or block, type or record), has the same operator record base \
           class (or neither has one), and an enumeration has the same literals in the same \
           order",
};
pub(in crate::flatten) const REDECLARE_AND_MODIFIED: Rule = Rule {
    section: "7.3",
    code: "redeclare",
    text: "a redeclare element cannot be combined with a modifier of the same element in \
           the extends-clause",
};
pub(in crate::flatten) const PROTECTED_MODIFIED: Rule = Rule {
    section: "4.1",
    code: "protected",
    text: "protected elements shall not be modified or redeclared, except by an extends \
           clause's modification and on their own declaration",
};
pub(in crate::flatten) const SPLIT_REDECLARATION: Rule = Rule {
    section: "7.2.5",
    code: "each",
    text: "a nested modifier split over the elements of an array may not contain a \
           redeclaration that is split with it (write it with each)",
};
pub(in crate::flatten) const EACH_ON_SCALAR: Rule = Rule {
    section: "7.2.5",
    code: "each",
    text: "each requires that the modifier is applied inside an array declaration or \
           modification",
};
pub(in crate::flatten) const PARAMETER_BINDING: Rule = Rule {
    section: "4.4.2.1",
    code: "variability",
    text: "a declaration equation must not have higher variability than its component: a \
           parameter's binding is a parameter expression",
};
pub(in crate::flatten) const CONSTANT_BINDING: Rule = Rule {
    section: "4.4.4",
    code: "variability",
    text: "the declaration equation of a constant shall be a constant expression",
};
pub(in crate::flatten) const DER_DISCRETE: Rule = Rule {
    section: "4.4.4",
    code: "variability",
    text: "der shall not be applied to discrete-time variables",
};
pub(in crate::flatten) const OUTER_MODIFIED: Rule = Rule {
    section: "5.4",
    code: "outer",
    text: "an outer element shall not be modified, neither on its declaration nor from \
           an enclosing instance: modify the inner element",
};
pub(in crate::flatten) const INNER_SUBTYPE: Rule = Rule {
    section: "5.4",
    code: "outer",
    text: "the inner component shall be a subtype of the corresponding outer component",
};
pub(in crate::flatten) const INHERITED_PROTECTION: Rule = Rule {
    section: "7.1",
    code: "duplicate",
    text: "elements of the same name inherited twice must be identical, protection included",
};
pub(in crate::flatten) const VECTORIZED_REPLACEABLE: Rule = Rule {
    section: "12.4.6",
    code: "function",
    text: "only transitively non-replaceable function classes may be called vectorized",
};
pub(in crate::flatten) const REDECLARE_PLUG: Rule = Rule {
    section: "6.5",
    code: "redeclare",
    text: "a redeclaration other than of an inherited top-level component is plug-compatible \
           with the constraining class: each public component it adds is default-connectable \
           (no input or expandable connector, no parameter, constant or non-connector input \
           without a binding equation)",
};
pub(in crate::flatten) const REDECLARE_ELEMENT: Rule = Rule {
    section: "6.4",
    code: "redeclare",
    text: "each public element of the constraining class has a plug-compatible element of \
           the same name: the same flow/stream, input/output and inner/outer prefixes, no \
           higher variability, final where it is final, as many dimensions, conditional \
           where it is, the same predefined type",
};
pub(in crate::flatten) const REDECLARE_NESTED: Rule = Rule {
    section: "6.4",
    code: "redeclare",
    text: "each member class of a constraining package has one of the same name in the new \
           package: replaceable only where it is, transitively non-replaceable where it is \
           (then with the same public components, no more), a long definition where it is \
           a non-replaceable long one",
};
pub(in crate::flatten) const FUNCTION_COMPATIBLE: Rule = Rule {
    section: "6.6",
    code: "redeclare",
    text: "a redeclared function is function-compatible with its constraining function: the \
           same inputs and outputs by name in the same order, before any additional ones; an \
           input with a default there has one here, and an additional input has one",
};
pub(in crate::flatten) const CONNECTOR_BALANCE: Rule = Rule {
    section: "9.3.1",
    code: "connector",
    text: "a non-partial, non-expandable connector has as many flow variables as variables \
           that are neither parameter, constant, input, output, stream nor flow",
};
pub(in crate::flatten) const CONNECT_CAUSAL: Rule = Rule {
    section: "9.3",
    code: "connect",
    text: "variables declared input or output in connectors may only be connected to \
           variables declared input or output",
};
pub(in crate::flatten) const MODIFIED_BINDING: Rule = Rule {
    section: "4.7",
    code: "modifier",
    text: "the binding equations in modifiers of model and block components, and of extends \
           clauses and short class definitions, are only for parameters, constants, inputs and \
           variables having a default binding equation",
};
pub(in crate::flatten) const CAUSAL_SET_SOURCES: Rule = Rule {
    section: "9.3",
    code: "connect",
    text: "a connection set of input/output variables holds variables of at most one inside \
           output connector or one public outside input connector: one source of its signal",
};
pub(in crate::flatten) const CAUSAL_SET_SOURCE: Rule = Rule {
    section: "9.3",
    code: "connect",
    text: "a connection set of input/output variables of a non-partial model or block holds a \
           source of its signal (an inside output, a public outside input), a protected outside \
           connector or an element of an expandable connector",
};
pub(in crate::flatten) const CONNECT_IN_IF: Rule = Rule {
    section: "9.3",
    code: "connect",
    text: "connect and Connections.branch/root/potentialRoot cannot be used inside \
           if-equations with non-parameter conditions",
};
pub(in crate::flatten) const CONNECT_CONDITION: Rule = Rule {
    section: "8.3.3",
    code: "connect",
    text: "the conditions of if-equations and the ranges of for-equations holding connect \
           may not use cardinality, rooted or Connections.isRoot",
};
pub(in crate::flatten) const DISCRETE_REAL: Rule = Rule {
    section: "4.4.4",
    code: "variability",
    text: "a Real variable declared discrete must in a simulation model be assigned in a \
           when-clause, by an equation or an assignment",
};
pub(in crate::flatten) const REINIT_STATE: Rule = Rule {
    section: "8.3.6",
    code: "when",
    text: "the variable of reinit must be a state: it appears differentiated (or is selected \
           as a state)",
};
pub(in crate::flatten) const WHEN_SUBCOMPONENT: Rule = Rule {
    section: "4.4.4",
    code: "when",
    text: "a variable assigned in a when-clause shall not be defined in a sub-component of \
           model or block class",
};
pub(in crate::flatten) const CONDITIONAL_USED: Rule = Rule {
    section: "4.4.5",
    code: "conditional",
    text: "a conditional component may only be modified and used in connections; it is not \
           read in equations, bindings or modifiers",
};
pub(in crate::flatten) const ENCAPSULATED_SHORT: Rule = Rule {
    section: "4.5.1",
    code: "unknown-name",
    text: "the type-specifier and the modifiers of an encapsulated short class definition are \
           not looked up in the enclosing scope (only the predefined names and global names \
           `.A.B` are found)",
};
pub(in crate::flatten) const FINAL_MODIFICATION: Rule = Rule {
    section: "7.2.6",
    code: "final",
    text: "an element made final by a final modification cannot be modified again",
};
pub(in crate::flatten) const PROTECTED_OUTSIDE_SET: Rule = Rule {
    section: "9.3",
    code: "connect",
    text: "a protected outside connector must be part of a connection set with at least one \
           inside connector or one declared public outside connector",
};
pub(in crate::flatten) const PART_OVER_WHOLE: Rule = Rule {
    section: "7.2.3",
    code: "modification",
    text: "a modification of a part of a non-simple component may not override the value \
           the component's declaration gives the whole",
};
pub(in crate::flatten) const CONNECT_OVERDETERMINED: Rule = Rule {
    section: "9.4.1",
    code: "connect",
    text: "connected overdetermined type or record instances shall have the same type",
};
pub(in crate::flatten) const CONNECT_QUANTITY: Rule = Rule {
    section: "9.3",
    code: "connect",
    text: "all variables of a connection set with a non-empty quantity have the same quantity",
};
pub(in crate::flatten) const MUST_BE_CONNECTED: Rule = Rule {
    section: "18.5.2",
    code: "connect",
    text: "a connector annotated mustBeConnected (each element of an array of them, where \
           enabled) is connected from the outside",
};
pub(in crate::flatten) const MAY_ONLY_CONNECT_ONCE: Rule = Rule {
    section: "18.5.2",
    code: "connect",
    text: "a connector annotated mayOnlyConnectOnce, connected from the outside, is in a \
           connection set of at most two elements (of a stream connector's, two whose flow may \
           be negative by its min)",
};
pub(in crate::flatten) const TEST_CASE_USED: Rule = Rule {
    section: "18.4",
    code: "annotation",
    text: "a class with a TestCase annotation is not used in other classes unless they have one \
           too",
};
pub(in crate::flatten) const CONNECT_TWO_OUTER: Rule = Rule {
    section: "9.3",
    code: "connect",
    text: "a connect-equation shall not connect two connectors of outer elements",
};
pub(in crate::flatten) const ROOTLESS_GRAPH: Rule = Rule {
    section: "9.4.2",
    code: "connections",
    text: "every virtual connection subgraph has at least one root or potential root \
           (Connections.root, Connections.potentialRoot)",
};
pub(in crate::flatten) const PRE_CONTINUOUS: Rule = Rule {
    section: "3.7.5",
    code: "variability",
    text: "outside a when-clause the argument of pre is a discrete-time expression",
};
pub(in crate::flatten) const CONNECT_PATH: Rule = Rule {
    section: "9.1",
    code: "connect",
    text: "a connect argument is a connector of the class (c, c.d) or a connector of one of \
           its components (m.c), not one deeper inside (m1.m2.c)",
};
pub(in crate::flatten) const EXTENDS_ARRAY_OR_PREFIXED: Rule = Rule {
    section: "4.5.2",
    code: "extends",
    text: "a class extending an array class, a class with input or output in its short \
           definition or a predefined type declares no components or equations of its own",
};
