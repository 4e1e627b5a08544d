// The variables, walked once before graphql-js coerces them: every list's and
// object's elements counted (src/server/input-elements.ts) and every string and JSON
// key checked as text (src/server/argument-text.ts). One walk, not one per check: a
// 20,000-key agent state cost a pass of Object.keys and a closure per key for each
// check, and the two walks were a third of the request's time.
import type { GraphQLError } from "graphql";
import { textProblem, variableTextRefusal } from "./argument-text.js";
import { type ElementLimits, excess } from "./input-elements.js";

export interface VariableLimits extends ElementLimits {
  maxStringLength: number;
}

/** A container on the walk's stack; `key` is its segment of the path (".state" or "[3]"), kept to name a refusal. */
interface Visit {
  value: object;
  key: string;
  parent: Visit | null;
}

/** "$input.state", built only for a refusal; "" for the variables object itself. */
function pathOf(visit: Visit): string {
  const segments: string[] = [];
  for (let v: Visit | null = visit; v?.parent; v = v.parent) segments.push(v.key);
  return segments.reverse().join("").replace(/^\./, "$");
}

/**
 * The first refusal the variables earn, or null. Without recursion: their JSON may nest as deep as the body allows.
 * A container's size is counted before any of its elements is looked at, so an excess costs no more than the cap.
 * `counted`: the elements the document's literals already hold. The variables object counts as one object; its
 * keys are GraphQL names, every key below is JSON's and is text.
 */
export function variablesError(variables: Record<string, unknown>, limits: VariableLimits, counted = 0): GraphQLError | null {
  const total = { values: counted };
  const max = limits.maxStringLength;
  const elementsAt = (visit: Visit) => () => {
    const path = pathOf(visit).slice(0, 100) || "the variables";
    return { text: path === "the variables" ? path : `variable "${path}"`, details: { variable: path } };
  };
  const stack: Visit[] = [{ value: variables, key: "", parent: null }];
  while (stack.length) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (Array.isArray(value)) {
      const error = excess("list", value.length, total, limits, elementsAt(visit));
      if (error) return error;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === "string") {
          const problem = textProblem(item, max);
          if (problem) return variableTextRefusal(`${pathOf(visit)}[${i}]`, problem);
        } else if (item !== null && typeof item === "object") stack.push({ value: item, key: `[${i}]`, parent: visit });
      }
    } else {
      const keys = Object.keys(value);
      const error = excess("object", keys.length, total, limits, elementsAt(visit));
      if (error) return error;
      const named = visit.parent !== null;
      for (const key of keys) {
        if (named) {
          const problem = textProblem(key, max);
          if (problem) return variableTextRefusal(`${pathOf(visit)} (a key)`, problem);
        }
        const item = (value as Record<string, unknown>)[key];
        if (typeof item === "string") {
          const problem = textProblem(item, max);
          if (problem) return variableTextRefusal(named ? `${pathOf(visit)}.${key}` : `$${key}`, problem);
        } else if (item !== null && typeof item === "object") stack.push({ value: item, key: `.${key}`, parent: visit });
      }
    }
  }
  return null;
}
