// The limits every request meets before anything of it runs, on every transport
// (HTTP, SSE and graphql-ws all go through yoga's one envelop pipeline):
//
//   parse      the document's size, then graphql-js's own token limit (which also keeps
//              the recursive parser far from the stack's end);
//   validate   aliases and directives (graphql-armor's rules), root fields (ours);
//   execute    elements of every list and object in the variables and the literals
//              (counted before anything coerces them), text in every argument and
//              variable (no NUL, no lone surrogate, no string beyond a size),
//              variables coerced with a code, then depth,
//              breadth and cost (Pothos' complexity rule: lists weighted by their page
//              size, the cost declared beside each field in src/graphql).
//
// Depth and cost wait for execute because a page size may come from a variable, and
// yoga caches validation by document text alone. Each refusal carries a code from
// src/core/errors.ts; nothing of the operation has run when it is sent.

import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { createComplexityRule } from "@pothos/plugin-complexity";
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  validate,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import type { ErrorCode } from "../core/errors.js";
import { literalTextError } from "./argument-text.js";
import { literalElements } from "./input-elements.js";
import { variablesError } from "./variable-walk.js";

export interface RequestLimits {
  /** Bytes of an HTTP request body, and of one graphql-ws message. */
  maxRequestBytes: number;
  /** Characters of the GraphQL document. */
  maxDocumentLength: number;
  /** Lexical tokens of the document (graphql-js `maxTokens`). */
  maxTokens: number;
  /** Nesting of selections. */
  maxDepth: number;
  /** Field selections in all, at every level. */
  maxBreadth: number;
  /** Estimated cost: 1 a field, a connection's selections times its page size, a plain list's times 10. */
  maxCost: number;
  maxAliases: number;
  /** Fields selected at the root of one operation (each root mutation field is a transaction). */
  maxRootFields: number;
  maxDirectives: number;
  /** Characters of one string, in an argument or a variable. */
  maxStringLength: number;
  /** Elements of any one list, in the variables or the document's literals (a JSON value's arrays too). */
  maxListLength: number;
  /** Keys of any one input object or JSON object. */
  maxObjectKeys: number;
  /** List elements and object keys in all, across the variables and the document's literals. */
  maxInputValues: number;
}

export const defaultRequestLimits: RequestLimits = {
  // The largest request Lifeline's clients send is a charm with its hooks (1 MiB of them, 64 KiB of metadata and of
  // config): 2 MiB holds it. A body is parsed whole before anything can count its elements: 4.9 MB took 60 ms idle.
  maxRequestBytes: 2 * 1024 * 1024,
  maxDocumentLength: 64 * 1024,
  maxTokens: 1000,
  maxDepth: 12,
  maxBreadth: 500,
  maxCost: 250_000,
  maxAliases: 32,
  maxRootFields: 16,
  maxDirectives: 32,
  maxStringLength: 1024 * 1024,
  maxListLength: 1000,
  maxObjectKeys: 20_000,
  maxInputValues: 50_000,
};

/** A refusal made before execution: a GraphQLError with one of our codes. */
function refusal(code: ErrorCode, message: string, details: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...details } });
}

const tooComplex = (limit: string, max: number, actual: number | undefined, message: string) =>
  refusal("QUERY_TOO_COMPLEX", message, { limit, max, ...(actual === undefined ? {} : { actual }) });

/** Parses within the document-length and token limits; each refusal carries its code. */
export function parseWithin(limits: RequestLimits) {
  return (source: unknown): DocumentNode => {
    const text = typeof source === "string" ? source : ((source as { body?: string }).body ?? "");
    if (text.length > limits.maxDocumentLength)
      throw refusal(
        "REQUEST_TOO_LARGE",
        `the document is ${text.length} characters long; at most ${limits.maxDocumentLength} are accepted`,
        {
          limit: "documentLength",
          max: limits.maxDocumentLength,
        },
      );
    try {
      return parse(text, { maxTokens: limits.maxTokens });
    } catch (error) {
      // graphql-js says so only in its message; test/request-limits.test.ts pins the wording.
      if (error instanceof GraphQLError && error.message.includes("tokens. Parsing aborted"))
        throw tooComplex("tokens", limits.maxTokens, undefined, `the document has more than ${limits.maxTokens} tokens`);
      // Only when an operator raises maxTokens far enough for the recursive parser to reach the stack's end.
      if (error instanceof RangeError)
        throw new GraphQLError("the document is nested too deeply to parse", { extensions: { code: "GRAPHQL_PARSE_FAILED" } });
      throw error;
    }
  };
}

/** The rules that need only the document: yoga caches their verdict with the parsed document. */
export function documentRules(limits: RequestLimits): ValidationRule[] {
  const rejectAs = (limit: string, max: number) => [
    (context: ValidationContext | null, error: GraphQLError) =>
      context?.reportError(tooComplex(limit, max, undefined, plain(error.message))),
  ];
  return [
    maxAliasesRule({ n: limits.maxAliases, propagateOnRejection: false, onReject: rejectAs("aliases", limits.maxAliases) }),
    maxDirectivesRule({ n: limits.maxDirectives, propagateOnRejection: false, onReject: rejectAs("directives", limits.maxDirectives) }),
    rootFieldsRule(limits.maxRootFields),
  ];
}

/** Depth, breadth and cost of the operation with these variables (page sizes may come from them). */
export function complexityRule(
  limits: RequestLimits,
  request: { variables: Record<string, unknown>; operationName?: string | null | undefined; context: object },
): ValidationRule {
  return createComplexityRule({
    variableValues: request.variables,
    operationName: request.operationName ?? undefined,
    context: request.context,
    validate: ({ depth, breadth, complexity }, report) => {
      if (depth > limits.maxDepth)
        report(tooComplex("depth", limits.maxDepth, depth, `the query is ${depth} levels deep; at most ${limits.maxDepth} are accepted`));
      else if (breadth > limits.maxBreadth)
        report(
          tooComplex(
            "breadth",
            limits.maxBreadth,
            breadth,
            `the query selects ${breadth} fields; at most ${limits.maxBreadth} are accepted`,
          ),
        );
      else if (complexity > limits.maxCost)
        report(
          tooComplex(
            "cost",
            limits.maxCost,
            complexity,
            `the query's estimated cost is ${complexity}; at most ${limits.maxCost} is accepted (ask for smaller pages)`,
          ),
        );
    },
  });
}

interface Execution {
  schema: GraphQLSchema;
  document: DocumentNode;
  variableValues?: unknown;
  operationName?: string | null | undefined;
  contextValue: unknown;
}

export function useRequestLimits(limits: RequestLimits = defaultRequestLimits): Plugin {
  const parseFn = parseWithin(limits);
  const rules = documentRules(limits);
  const literalErrors = new WeakMap<DocumentNode, GraphQLError | null>();
  const literalCounts = new WeakMap<DocumentNode, ReturnType<typeof literalElements>>();
  // An operation whose cost no variable can change (most: every agent's) is measured once, with its parsed document.
  const shapeVerdicts = new WeakMap<OperationDefinitionNode, readonly GraphQLError[] | null>();

  /** What to refuse the execution with, or null to let it run. */
  const refusals = (args: Execution): readonly GraphQLError[] | null => {
    const variables = (args.variableValues ?? {}) as Record<string, unknown>;
    // The literals first (once per document), then the variables' one walk: coercion costs a step an element.
    let literals = literalCounts.get(args.document);
    if (!literals) {
      literals = literalElements(args.document, limits);
      literalCounts.set(args.document, literals);
    }
    if (literals.error) return [literals.error];
    let literalError = literalErrors.get(args.document);
    if (literalError === undefined) {
      literalError = literalTextError(args.document, limits.maxStringLength);
      literalErrors.set(args.document, literalError);
    }
    if (literalError) return [literalError];
    const variablesRefusal = variablesError(variables, limits, literals.values);
    if (variablesRefusal) return [variablesRefusal];
    const operation = getOperationAST(args.document, args.operationName);
    if (!operation) return null;
    // graphql-js coerces again when it executes; done here first so a bad variable is refused with a code.
    const coerced = getVariableValues(args.schema, operation.variableDefinitions ?? [], variables, { maxErrors: 5 });
    if (coerced.errors) return coerced.errors.map((e) => refusal("INVALID_ARGUMENT", shorten(e.message)));
    const fixed = !takesPageSize(operation);
    const known = fixed ? shapeVerdicts.get(operation) : undefined;
    if (known !== undefined) return known;
    // The specified rules ran in validate; this runs the one rule that needs the variables, alone.
    const rule = complexityRule(limits, { variables, operationName: args.operationName, context: args.contextValue as object });
    const errors = validate(args.schema, args.document, [rule]);
    const verdict = errors.length ? errors.map((e) => (e.extensions.code ? e : refusal("INVALID_ARGUMENT", shorten(e.message)))) : null;
    if (fixed) shapeVerdicts.set(operation, verdict);
    return verdict;
  };

  return {
    onParse({ setParseFn }) {
      setParseFn(parseFn);
    },
    onValidate({ addValidationRule }) {
      for (const rule of rules) addValidationRule(rule);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const errors = refusals(args);
      if (errors) setResultAndStopExecution({ errors });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const errors = refusals(args);
      if (errors) setResultAndStopExecution({ errors });
    },
  };
}

/** Whether a variable could set a page size: only an Int can (`first`, `last`), and only at an argument's top. */
function takesPageSize(operation: OperationDefinitionNode): boolean {
  return (operation.variableDefinitions ?? []).some((d) => {
    const type = d.type.kind === Kind.NON_NULL_TYPE ? d.type.type : d.type;
    return type.kind === Kind.NAMED_TYPE && type.name.value === "Int";
  });
}

/** graphql-armor's messages begin "Syntax Error:", which these are not. */
const plain = (message: string) => message.replace(/^Syntax Error: /, "");

const shorten = (message: string) => (message.length > 300 ? `${message.slice(0, 300)}…` : message);

/** No more than `max` fields at the root of any operation, fragments spread into it counted. */
function rootFieldsRule(max: number): ValidationRule {
  return (context) => ({
    OperationDefinition(operation: OperationDefinitionNode) {
      const fragments = new Map<string, FragmentDefinitionNode>();
      for (const definition of context.getDocument().definitions)
        if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
      const count = countRootFields(operation.selectionSet, fragments, new Set());
      if (count > max)
        context.reportError(
          tooComplex(
            "rootFields",
            max,
            count,
            `the operation selects ${count} root fields; at most ${max} are accepted (send several requests)`,
          ),
        );
    },
  });
}

function countRootFields(selections: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): number {
  let count = 0;
  for (const selection of selections.selections) {
    if (selection.kind === Kind.FIELD) count += selection.name.value === "__typename" ? 0 : 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT) count += countRootFields(selection.selectionSet, fragments, seen);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) count += countRootFields(fragment.selectionSet, fragments, seen);
    }
  }
  return count;
}
