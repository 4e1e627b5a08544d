// An operation's type and root fields, which the metrics and the operation log both label a request with: read from
// the document once. Yoga caches parsed documents, so the same query text is the same object, and the answer is
// kept beside it.
import { type DocumentNode, getOperationAST, Kind, type OperationTypeNode } from "graphql";

export interface RootFields {
  operation: OperationTypeNode;
  /** The root fields' names (not their aliases), as the schema names them. */
  fields: string[];
}

const known = new WeakMap<DocumentNode, Map<string | null | undefined, RootFields | null>>();

export function rootFieldsOf(document: DocumentNode, operationName?: string | null): RootFields | null {
  let byName = known.get(document);
  if (!byName) {
    byName = new Map();
    known.set(document, byName);
  }
  if (byName.has(operationName)) return byName.get(operationName)!;
  const operation = getOperationAST(document, operationName);
  const found = operation
    ? {
        operation: operation.operation,
        fields: operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : [])),
      }
    : null;
  byName.set(operationName, found);
  return found;
}
