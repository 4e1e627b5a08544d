// Assembles the schema from one file per type. A mutation is declared with the type it answers with (addUnit,
// setUnitDead: Unit), in its type's module or, where they are many, beside it (unit-mutations.ts); one answering with a
// shared shape (RemovalResult, Boolean) with the type of what it acts on.
import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "./builder.js";
import { unfenced } from "./fenced.js";
import "./types/scalars.js";
import "./types/enums.js";
import "./types/common.js";
import "./types/removal.js";
import "./types/model.js";
import "./types/machine.js";
import "./types/machine-mutations.js";
import "./types/charm.js";
import "./types/application.js";
import "./types/unit.js";
import "./types/unit-mutations.js";
import "./types/relation.js";
import "./types/relation-mutations.js";
import "./types/changes.js";
import "./types/blocker.js";
import "./types/cleanup.js";
import "./types/unit-agent.js";
import "./types/credentials.js";
import "./types/cloud.js";

export const schema = builder.toSchema();

// A field nobody declared a scope for would answer anyone: the schema refuses to exist instead.
const open = unfenced(schema);
if (open.length) throw new Error(`fields and types without authorization scopes (src/graphql/fenced.ts): ${open.join(", ")}`);

/** The SDL checked in as schema/schema.graphql. */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
