// The text a request carries, checked before anything runs: every string in the
// document's literals and in its variables. PostgreSQL's text holds no NUL, a lone
// UTF-16 surrogate has no UTF-8 form (both used to surface as internal errors from
// the driver), and an unbounded string is a memory and CPU lever. The variables'
// strings are checked in their one walk (src/server/variable-walk.ts). The model then
// bounds each value by what it is (src/model); this is the floor under all of them,
// so an argument added tomorrow is covered without a line here.
import { type DocumentNode, GraphQLError, visit } from "graphql";
import { shortQuote } from "../core/errors.js";

const invalid = (message: string, details: Record<string, unknown> = {}) =>
  new GraphQLError(message, { extensions: { code: "INVALID_ARGUMENT", ...details } });

/** A variable's string (or a JSON key within one) refused: `path` is where, "$input.state.k1" or "$input.state (a key)". */
export const variableTextRefusal = (path: string, problem: string) =>
  invalid(`variable ${shortQuote(path)} ${problem}`, { variable: path.slice(0, 100) });

/**
 * Why a string would be refused: PostgreSQL stores no NUL in text, a lone UTF-16 surrogate has no UTF-8 form, and
 * an unbounded string is a memory and CPU lever. Null when the text is acceptable.
 */
export function textProblem(text: string, max: number): string | null {
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
