// The one typed entry to the schema: every GraphQL type is declared through it.
import SchemaBuilder from "@pothos/core";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import RelayPlugin from "@pothos/plugin-relay";
import type { Context } from "./context.js";

export const builder = new SchemaBuilder<{
  Context: Context;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSONObject: { Input: Record<string, unknown>; Output: object };
  };
}>({
  plugins: [RelayPlugin, DataloaderPlugin],
  // Non-null by default, so generated clients get honest types.
  defaultFieldNullability: false,
  relay: {
    // Entities are addressed by their Juju names within a model, not by global ids.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    cursorType: "String",
    clientMutationId: "omit",
  },
});

builder.queryType({ description: "Reads a model the way `juju status` does." });
builder.mutationType({ description: "Operations named after Juju's commands; each is one transaction." });
builder.subscriptionType({
  description: "Change streams: a snapshot at a revision, then every change after it, in order; resumable with `since`.",
});
