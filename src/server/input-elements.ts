// How many elements a request's input holds, counted before graphql-js coerces it:
// coercing is itself the cost (300,000 keys of a JSON state took seconds before the
// model could refuse the document's size), so the count comes first, stops at the
// first excess, and never builds anything per element. Lists' lengths and objects'
// keys, in the variables (JSON values' arrays and objects included) and in the
// document's literals. The model then bounds each field by what it is (units a call,
// settings a charm has); this is the floor under all of them.
import { type DocumentNode, GraphQLError, Kind, visit } from "graphql";

export interface ElementLimits {
  maxListLength: number;
  maxObjectKeys: number;
  maxInputValues: number;
}

const refused = (message: string, limit: string, max: number, where: Record<string, unknown>) =>
  new GraphQLError(message, { extensions: { code: "INVALID_ARGUMENT", limit, max, ...where } });

/** Counts one container's elements against the limits; a refusal, or null. `total` is the running count, mutated. */
export function excess(
  kind: "list" | "object",
  size: number,
  total: { values: number },
  limits: ElementLimits,
  where: () => { text: string; details: Record<string, unknown> },
): GraphQLError | null {
  const [max, limit, noun] =
    kind === "list" ? [limits.maxListLength, "listLength", "elements"] : [limits.maxObjectKeys, "objectKeys", "keys"];
  if (size > max) {
    const { text, details } = where();
    return refused(`${text} has ${size} ${noun}; at most ${max} are accepted`, limit, max, details);
  }
  total.values += size;
  if (total.values > limits.maxInputValues) {
    const { text, details } = where();
    return refused(
      `the input holds more than ${limits.maxInputValues} list elements and object keys in all (${text} passes it)`,
      "inputValues",
      limits.maxInputValues,
      details,
    );
  }
  return null;
}

/** The literals' lists and objects, and their count (which the variables' count starts from). */
export function literalElements(document: DocumentNode, limits: ElementLimits): { error: GraphQLError | null; values: number } {
  const total = { values: 0 };
  let error: GraphQLError | null = null;
  const at = (node: { loc?: { startToken: { line: number; column: number } } }) => () => ({
    text: node.loc ? `the literal at line ${node.loc.startToken.line}, column ${node.loc.startToken.column}` : "a literal",
    details: {},
  });
  visit(document, {
    enter(node) {
      if (error) return false;
      if (node.kind === Kind.LIST) error = excess("list", node.values.length, total, limits, at(node));
      else if (node.kind === Kind.OBJECT) error = excess("object", node.fields.length, total, limits, at(node));
      return error ? false : undefined;
    },
  });
  return { error, values: total.values };
}
