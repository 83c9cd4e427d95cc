// ESLint rule `masthead/no-string-key-on-plain-object` (type-aware): a string that is not a literal
// (reader or staff text: a word, a tag, a header, a query parameter) used as a key into a plain
// object. `obj[text]` on `{}` or a Record answers Object.prototype's members for "constructor",
// "toString" or "__proto__", and `obj[text] = v` with "__proto__" replaces the prototype; `text in
// obj` is true for them. Use a Map, an object made by Object.create(null), or check
// Object.hasOwn(obj, text) first (in the same condition).
//
// Flagged: `o[k]`, `o[k] = v` and `k in o`, where k's type is string (not a union of literals:
// a key already narrowed to a closed set is fine) and o's type is an object that is not an array,
// a tuple or a string. Left alone: literal keys, number keys, objects created by
// Object.create(null) in their declaration or typed NullPrototypeRecord, and accesses guarded by Object.hasOwn(o, k) in an
// enclosing condition (`Object.hasOwn(o, k) ? o[k] : …`, `Object.hasOwn(o, k) && o[k]`, `if`).
import ts from "typescript";

const MESSAGE =
  'A string key into a plain object answers Object.prototype\'s members ("constructor", "__proto__"): use a Map, Object.create(null), or check Object.hasOwn first.';

/** Whether `type` is a string that is not a literal (or a union that contains one), or any; not a type parameter. */
function isOpenString(type) {
  if (type.isUnion()) return type.types.some(isOpenString);
  const f = type.flags;
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping))
    return true;
  // A type parameter (`F extends string`) is left to its callers: a form's field names, a closed set.
  return false;
}

/** Whether `type` is an object looked up by string key: not an array, tuple, string or number-indexed. */
function isPlainObject(checker, type) {
  if (type.isUnion()) return type.types.some((t) => isPlainObject(checker, t));
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return false;
  if (!(type.flags & ts.TypeFlags.Object)) return false;
  if (checker.isArrayType(type) || checker.isTupleType(type)) return false;
  // NullPrototypeRecord (server/own-keys.ts): made without a prototype.
  if (type.getProperties().some((p) => String(p.escapedName).startsWith("__@nullPrototype@"))) return false;
  const symbol = type.getSymbol();
  const name = symbol?.getName();
  if (name && /^(?:ReadonlyArray|Array|\w+Array|String|Map|Set|WeakMap|URLSearchParams|Headers|FormData)$/.test(name))
    return false;
  // Number-indexed only (array-likes such as NodeList, arguments).
  if (!checker.getIndexInfoOfType(type, ts.IndexKind.String) && checker.getIndexInfoOfType(type, ts.IndexKind.Number))
    return false;
  return true;
}

/**
 * The key under `!` and `as keyof …`: `obj[word as keyof typeof obj]` is still `word` (a cast to a
 * named union is the author's claim that the key was checked, and is taken as such).
 */
function unwrapKey(node) {
  let n = node;
  while (
    n.type === "TSNonNullExpression" ||
    (n.type === "TSAsExpression" && n.typeAnnotation.type === "TSTypeOperator" && n.typeAnnotation.operator === "keyof")
  )
    n = n.expression;
  return n;
}

/** The expression under `as`, `satisfies` and `!`. */
function unwrap(node) {
  let n = node;
  while (n.type === "TSAsExpression" || n.type === "TSNonNullExpression" || n.type === "TSSatisfiesExpression")
    n = n.expression;
  return n;
}

function isNullPrototypeCall(node) {
  const n = node && unwrap(node);
  if (!n || n.type !== "CallExpression") return false;
  const callee = n.callee;
  if (callee.type === "Identifier" && callee.name === "nullPrototypeRecord") return true;
  const isObjectMethod = (method) =>
    callee.type === "MemberExpression" &&
    callee.object.type === "Identifier" &&
    callee.object.name === "Object" &&
    callee.property.type === "Identifier" &&
    callee.property.name === method;
  if (isObjectMethod("create")) return n.arguments[0]?.type === "Literal" && n.arguments[0].value === null;
  if (isObjectMethod("assign")) return isNullPrototypeCall(n.arguments[0]);
  return false;
}

/** @type {import("eslint").Rule.RuleModule} */
export const noStringKeyOnPlainObject = {
  meta: {
    type: "problem",
    docs: {
      description: "Disallow non-literal string keys into plain objects (use a Map or a null-prototype object).",
    },
    schema: [],
    messages: { plain: MESSAGE },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program) return {};
    const checker = services.program.getTypeChecker();
    const typeOf = (node) => checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node));
    const text = (node) => context.sourceCode.getText(unwrap(node));

    const declaredNullPrototype = (node) => {
      const object = unwrap(node);
      if (object.type !== "Identifier") return false;
      let scope = context.sourceCode.getScope(object);
      while (scope) {
        const variable = scope.set.get(object.name);
        if (variable) {
          return variable.defs.some(
            (def) => def.node.type === "VariableDeclarator" && isNullPrototypeCall(def.node.init),
          );
        }
        scope = scope.upper;
      }
      return false;
    };

    /** An enclosing condition checks Object.hasOwn(object, key) (or hasOwnProperty.call) on the taken branch. */
    const guarded = (node, object, key) => {
      const wanted = new Set([
        `Object.hasOwn(${text(object)}, ${text(key)})`,
        `Object.prototype.hasOwnProperty.call(${text(object)}, ${text(key)})`,
      ]);
      const mentions = (test) => {
        const source = context.sourceCode.getText(test).replace(/\s+/g, " ");
        return [...wanted].some((w) => source.includes(w));
      };
      let child = node;
      for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
        if (parent.type === "ConditionalExpression" && parent.consequent === child && mentions(parent.test))
          return true;
        if (
          parent.type === "LogicalExpression" &&
          parent.operator === "&&" &&
          parent.right === child &&
          mentions(parent.left)
        )
          return true;
        if (parent.type === "IfStatement" && parent.consequent === child && mentions(parent.test)) return true;
        if (parent.type.startsWith("Function") || parent.type === "ArrowFunctionExpression") return false;
      }
      return false;
    };

    const check = (node, object, key) => {
      const inner = unwrapKey(key);
      if (inner.type === "Literal" || (inner.type === "TemplateLiteral" && inner.expressions.length === 0)) return;
      if (!isOpenString(typeOf(inner))) return;
      if (!isPlainObject(checker, typeOf(object))) return;
      if (declaredNullPrototype(object) || guarded(node, object, key)) return;
      context.report({ node, messageId: "plain" });
    };

    return {
      MemberExpression(node) {
        if (node.computed) check(node, node.object, node.property);
      },
      BinaryExpression(node) {
        if (node.operator === "in" && node.left.type !== "PrivateIdentifier") check(node, node.right, node.left);
      },
    };
  },
};

const plugin = { rules: { "no-string-key-on-plain-object": noStringKeyOnPlainObject } };

export default plugin;
