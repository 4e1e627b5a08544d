// The text a request carries, checked before anything runs: every string in the
// document's literals and in its variables. PostgreSQL's text holds no NUL, a lone
// UTF-16 surrogate has no UTF-8 form (both used to surface as internal errors from
// the driver), and an unbounded string is a memory and CPU lever. The model then
// bounds each value by what it is (src/model); this is the floor under all of them,
// so an argument added tomorrow is covered without a line here.
import { type DocumentNode, GraphQLError, visit } from "graphql";
import { shortQuote } from "../core/errors.js";

const invalid = (message: string, details: Record<string, unknown> = {}) =>
  new GraphQLError(message, { extensions: { code: "INVALID_ARGUMENT", ...details } });

/**
 * Why a string would be refused: PostgreSQL stores no NUL in text, a lone UTF-16 surrogate has no UTF-8 form, and
 * an unbounded string is a memory and CPU lever. Null when the text is acceptable.
 */
function textProblem(text: string, max: number): string | null {
  if (text.length > max) return `is ${text.length} characters long; at most ${max} are accepted`;
  if (text.includes("\u0000")) return "contains a NUL character";
  if (!text.isWellFormed()) return "contains a lone UTF-16 surrogate";
  return null;
}

export function literalTextError(document: DocumentNode, max: number): GraphQLError | null {
  let found: GraphQLError | null = null;
  visit(document, {
    StringValue(node) {
      const problem = textProblem(node.value, max);
      if (!problem) return undefined;
      const at = node.loc ? ` at line ${node.loc.startToken.line}, column ${node.loc.startToken.column}` : "";
      found = invalid(`the string ${shortQuote(node.value)}${at} ${problem}`);
      return false;
    },
  });
  return found;
}

/**
 * Walks the variables without recursion: their JSON may nest as deep as the body allows. Strings are checked where
 * they stand and only containers go on the stack, so a path is built for a container or a refusal, not every value.
 */
export function variableTextError(variables: Record<string, unknown>, max: number): GraphQLError | null {
  const stack: [object, string][] = [[variables, ""]];
  const check = (text: string, path: () => string) => {
    const problem = textProblem(text, max);
    if (!problem) return null;
    const where = path();
    return invalid(`variable ${shortQuote(where)} ${problem}`, { variable: where.slice(0, 100) });
  };
  const step = (item: unknown, path: () => string): GraphQLError | null => {
    if (typeof item === "string") return check(item, path);
    if (item !== null && typeof item === "object") stack.push([item, path()]);
    return null;
  };
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const error = step(value[i], () => `${path}[${i}]`);
        if (error) return error;
      }
    } else
      for (const key of Object.keys(value)) {
        // The variables' own names are GraphQL names; below them, keys are JSON's and are text too.
        const at = () => (path ? `${path}.${key}` : `$${key}`);
        const error = (path ? check(key, () => `${path} (a key)`) : null) ?? step((value as Record<string, unknown>)[key], at);
        if (error) return error;
      }
  }
  return null;
}
