// Values of any GraphQL input type, well-typed but otherwise arbitrary: what a test
// sends where only the shape must pass (variable coercion), not the model's rules.
import {
  type GraphQLInputType,
  type GraphQLNamedInputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from "graphql";

const scalars: Record<string, unknown> = {
  String: "x",
  ID: "1",
  Int: 1,
  Float: 1,
  Boolean: false,
  DateTime: "2026-01-01T00:00:00Z",
  JSONObject: {},
};

/** A value of `type`; lists hold one item, input objects every field (so a nested leaf can be reached). */
export function sampleValue(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sampleValue(type.ofType);
  if (isListType(type)) return [sampleValue(type.ofType)];
  const named = getNamedType(type) as GraphQLNamedInputType;
  if (isEnumType(named)) return named.getValues()[0]!.name;
  if (isInputObjectType(named)) return Object.fromEntries(Object.values(named.getFields()).map((f) => [f.name, sampleValue(f.type)]));
  if (isScalarType(named)) {
    if (!(named.name in scalars)) throw new Error(`no sample for scalar ${named.name}: add one`);
    return scalars[named.name];
  }
  throw new Error(`not an input type: ${String(type)}`);
}

/** Variables for every variable an operation declares. */
export function sampleVariables(
  definitions: readonly { variable: { name: { value: string } }; type: unknown }[],
  typeOf: (node: never) => GraphQLInputType,
) {
  return Object.fromEntries(definitions.map((d) => [d.variable.name.value, sampleValue(typeOf(d.type as never))]));
}
