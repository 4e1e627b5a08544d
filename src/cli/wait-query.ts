// `lifeline wait-for --query`: Juju's wait-for query language, parsed and evaluated here. A hand parser rather than a
// general expression library: Juju's grammar is a dozen rules (comparisons, &&, ||, !, parentheses, literals, fields
// spelled with dashes such as `workload-status`, member access, and a few functions: len, forEach with a `u => …`
// lambda, startsWith, endsWith), where a JavaScript-expression library would read `workload-status` as a subtraction
// and need plugins for lambdas. It also lets every error name its position, and every field be checked against the
// entity's before anything is waited for.

/** What a query reads: an entity's fields, some of them lists of other entities (`units`). */
export type Value = string | number | boolean | null | Value[] | Scope;
export interface Scope {
  [field: string]: Value;
}

/** The fields a kind of entity offers a query: a plain value, or a list of entities with fields of their own. */
export type Fields = { [field: string]: "value" | Fields };

/** A query that cannot be parsed, or names what its entity does not have: a usage error, with where. */
export class QueryError extends Error {
  constructor(
    readonly reason: string,
    readonly position: number,
    readonly query: string,
  ) {
    super(`${reason} at position ${position + 1}`);
  }

  /** The query with a caret under the position, for the terminal. */
  pointer(): string {
    return `  ${this.query}\n  ${" ".repeat(this.position)}^`;
  }
}

type Token =
  | { kind: "string" | "number" | "name" | "op"; text: string; value?: string | number; at: number }
  | { kind: "end"; text: ""; at: number };

const OPERATORS = ["==", "!=", "<=", ">=", "&&", "||", "=>", "<", ">", "!", "(", ")", ",", "."];

function tokens(query: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const at = i;
    if (c === '"' || c === "'") {
      let text = "";
      i++;
      while (i < query.length && query[i] !== c) {
        if (query[i] === "\\" && i + 1 < query.length) i++;
        text += query[i++];
      }
      if (i >= query.length) throw new QueryError("unterminated string", at, query);
      i++;
      out.push({ kind: "string", text: query.slice(at, i), value: text, at });
      continue;
    }
    const number = /^\d+(\.\d+)?/.exec(query.slice(i));
    if (number) {
      i += number[0].length;
      out.push({ kind: "number", text: number[0], value: Number(number[0]), at });
      continue;
    }
    // Juju spells fields with dashes (workload-status): a name may hold them, but not start or end with one.
    const name = /^[A-Za-z_][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*/.exec(query.slice(i));
    if (name) {
      i += name[0].length;
      out.push({ kind: "name", text: name[0], at });
      continue;
    }
    const op = OPERATORS.find((o) => query.startsWith(o, i));
    if (!op) throw new QueryError(`unexpected character ${JSON.stringify(c)}`, at, query);
    i += op.length;
    out.push({ kind: "op", text: op, at });
  }
  out.push({ kind: "end", text: "", at: query.length });
  return out;
}

export type Node =
  | { type: "literal"; value: string | number | boolean; at: number }
  | { type: "field"; name: string; at: number }
  | { type: "member"; object: Node; name: string; at: number }
  | { type: "not"; operand: Node; at: number }
  | { type: "binary"; op: string; left: Node; right: Node; at: number }
  | { type: "call"; name: string; args: Node[]; at: number }
  | { type: "lambda"; param: string; body: Node; at: number };

const COMPARISONS = new Set(["==", "!=", "<", ">", "<=", ">="]);
const FUNCTIONS: Record<string, number> = { len: 1, forEach: 2, startsWith: 2, endsWith: 2 };

/** Parses a query; throws QueryError with the position of the first thing that does not fit. */
export function parseQuery(query: string): Node {
  const list = tokens(query);
  let i = 0;
  const peek = () => list[i]!;
  const next = () => list[i++]!;
  const fail = (reason: string, token = peek()): never => {
    throw new QueryError(token.kind === "end" ? `${reason}, found the end` : `${reason}, found ${token.text}`, token.at, query);
  };
  const expect = (text: string) => (peek().text === text && peek().kind === "op" ? next() : fail(`expected ${text}`));

  const or = (): Node => {
    let left = and();
    while (peek().text === "||") {
      const at = next().at;
      left = { type: "binary", op: "||", left, right: and(), at };
    }
    return left;
  };
  const and = (): Node => {
    let left = comparison();
    while (peek().text === "&&") {
      const at = next().at;
      left = { type: "binary", op: "&&", left, right: comparison(), at };
    }
    return left;
  };
  const comparison = (): Node => {
    const left = unary();
    if (peek().kind === "op" && COMPARISONS.has(peek().text)) {
      const { text: op, at } = next();
      return { type: "binary", op, left, right: unary(), at };
    }
    return left;
  };
  const unary = (): Node => {
    if (peek().kind === "op" && peek().text === "!") {
      const at = next().at;
      return { type: "not", operand: unary(), at };
    }
    return postfix();
  };
  const postfix = (): Node => {
    let node = primary();
    while (peek().kind === "op" && peek().text === ".") {
      next();
      const name = peek().kind === "name" ? next() : fail("expected a field name after .");
      node = { type: "member", object: node, name: name.text, at: name.at };
    }
    return node;
  };
  const primary = (): Node => {
    const token = peek();
    if (token.kind === "string" || token.kind === "number") {
      next();
      return { type: "literal", value: token.value!, at: token.at };
    }
    if (token.kind === "op" && token.text === "(") {
      next();
      const inner = or();
      expect(")");
      return inner;
    }
    if (token.kind !== "name") return fail("expected a value");
    next();
    if (token.text === "true" || token.text === "false") return { type: "literal", value: token.text === "true", at: token.at };
    if (!(peek().kind === "op" && peek().text === "(")) return { type: "field", name: token.text, at: token.at };
    const arity = FUNCTIONS[token.text];
    if (arity === undefined) throw new QueryError(`unknown function ${token.text} (${Object.keys(FUNCTIONS).join(", ")})`, token.at, query);
    next();
    const args: Node[] = [];
    if (!(peek().kind === "op" && peek().text === ")"))
      do args.push(argument());
      while (peek().text === "," && next());
    expect(")");
    if (args.length !== arity) throw new QueryError(`${token.text} takes ${arity} argument(s), got ${args.length}`, token.at, query);
    if (token.text === "forEach" && args[1]!.type !== "lambda")
      throw new QueryError("forEach's second argument is a lambda: forEach(units, unit => …)", args[1]!.at, query);
    return { type: "call", name: token.text, args, at: token.at };
  };
  /** A function's argument: an expression, or a lambda `name => expression`. */
  const argument = (): Node => {
    if (peek().kind === "name" && list[i + 1]?.text === "=>") {
      const param = next();
      next();
      return { type: "lambda", param: param.text, body: or(), at: param.at };
    }
    return or();
  };

  const tree = or();
  if (peek().kind !== "end") fail("expected && or || or the end");
  return tree;
}

/** A node's sub-expressions. */
const children = (n: Node): Node[] => {
  if (n.type === "member") return [n.object];
  if (n.type === "not") return [n.operand];
  if (n.type === "binary") return [n.left, n.right];
  if (n.type === "lambda") return [n.body];
  if (n.type === "call") return n.args;
  return [];
};

/** Checks that every field the query reads is one the entity (or a list's element) has: a typo fails now, not never. */
export function checkFields(node: Node, fields: Fields, query: string): void {
  const unknown = (name: string, known: Fields, at: number) =>
    new QueryError(`unknown field ${name} (known: ${Object.keys(known).join(", ")})`, at, query);
  /** What an expression's value offers for `.field`: an entity's fields, or "value" for anything else. */
  const fieldsOf = (n: Node, scope: Record<string, Fields>): Fields | "value" | undefined => {
    if (n.type === "field") return scope[n.name] ?? fields[n.name];
    if (n.type !== "member") return "value";
    const object = fieldsOf(n.object, scope);
    return object && object !== "value" ? object[n.name] : undefined;
  };
  const visit = (n: Node, scope: Record<string, Fields>): void => {
    if (n.type === "field" && !(n.name in scope) && !(n.name in fields)) throw unknown(n.name, fields, n.at);
    if (n.type === "member") {
      const object = fieldsOf(n.object, scope);
      if (!object || object === "value") throw new QueryError(`${n.name}: only an entity has fields`, n.at, query);
      if (!(n.name in object)) throw unknown(n.name, object, n.at);
    }
    if (n.type === "call" && n.name === "forEach") {
      const [list, lambda] = n.args as [Node, Node & { type: "lambda" }];
      visit(list, scope);
      const elements = fieldsOf(list, scope);
      if (!elements || elements === "value") throw new QueryError("forEach takes a list of entities (units, …)", list.at, query);
      visit(lambda.body, { ...scope, [lambda.param]: elements });
      return;
    }
    for (const child of children(n)) visit(child, scope);
  };
  visit(node, {});
}

/** A query ready to evaluate, and the top-level fields it reads (what a progress line or a timeout shows). */
export interface Condition {
  text: string;
  reads: string[];
  holds(scope: Scope): boolean;
}

export function compileQuery(query: string, fields: Fields): Condition {
  const tree = parseQuery(query);
  checkFields(tree, fields, query);
  const reads = new Set<string>();
  const collect = (n: Node, bound: Set<string>): void => {
    if (n.type === "field" && !bound.has(n.name)) reads.add(n.name);
    const inner = n.type === "lambda" ? new Set([...bound, n.param]) : bound;
    for (const child of children(n)) collect(child, inner);
  };
  collect(tree, new Set());
  return { text: query, reads: [...reads], holds: (scope) => truthy(evaluate(tree, scope)) };
}

const truthy = (value: Value): boolean => value === true;

function compare(op: string, left: Value, right: Value): boolean {
  if (op === "==") return left === right;
  if (op === "!=") return left !== right;
  // Ordering is between two numbers or two strings; anything else is simply not in order.
  if (!((typeof left === "number" && typeof right === "number") || (typeof left === "string" && typeof right === "string"))) return false;
  if (op === "<") return left < right;
  if (op === ">") return left > right;
  if (op === "<=") return left <= right;
  return left >= right;
}

export function evaluate(node: Node, scope: Scope): Value {
  switch (node.type) {
    case "literal":
      return node.value;
    case "field":
      return scope[node.name] ?? null;
    case "member": {
      const object = evaluate(node.object, scope);
      return object && typeof object === "object" && !Array.isArray(object) ? (object[node.name] ?? null) : null;
    }
    case "not":
      return !truthy(evaluate(node.operand, scope));
    case "binary":
      if (node.op === "&&") return truthy(evaluate(node.left, scope)) && truthy(evaluate(node.right, scope));
      if (node.op === "||") return truthy(evaluate(node.left, scope)) || truthy(evaluate(node.right, scope));
      return compare(node.op, evaluate(node.left, scope), evaluate(node.right, scope));
    case "lambda":
      return null; // only forEach applies one
    case "call": {
      const [first, second] = node.args as [Node, Node];
      if (node.name === "forEach") {
        const list = evaluate(first, scope);
        const lambda = second as Node & { type: "lambda" };
        return Array.isArray(list) && list.every((item) => truthy(evaluate(lambda.body, { ...scope, [lambda.param]: item })));
      }
      const value = evaluate(first, scope);
      if (node.name === "len") return Array.isArray(value) || typeof value === "string" ? value.length : 0;
      const other = evaluate(second, scope);
      if (typeof value !== "string" || typeof other !== "string") return false;
      return node.name === "startsWith" ? value.startsWith(other) : value.endsWith(other);
    }
  }
}
