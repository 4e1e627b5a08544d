import { GraphQLError, Kind } from "graphql";
import { builder } from "../builder.js";

builder.scalarType("DateTime", {
  description: "An instant, as an ISO 8601 string in UTC.",
  serialize: (value) => (value instanceof Date ? value : new Date(String(value))).toISOString(),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new GraphQLError(`invalid DateTime "${String(value)}"`);
    return date;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError("DateTime must be a string");
    return new Date(ast.value);
  },
});
