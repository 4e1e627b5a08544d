// Assembles the schema from one file per type.
import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "./builder.js";
import "./types/scalars.js";
import "./types/enums.js";
import "./types/common.js";
import "./types/model.js";
import "./types/machine.js";
import "./types/charm.js";
import "./types/application.js";
import "./types/unit.js";
import "./types/relation.js";
import "./types/changes.js";
import "./types/blocker.js";
import "./types/removal.js";
import "./types/agent-operations.js";
import "./types/unit-agent.js";
import "./types/credentials.js";
import "./types/cloud.js";

export const schema = builder.toSchema();

/** The SDL checked in as schema/schema.graphql. */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
