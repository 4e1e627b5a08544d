// `npm run schema`: writes schema/schema.graphql from the code.
import { writeFileSync } from "node:fs";
import { printedSchema } from "./schema.js";

const target = new URL("../../schema/schema.graphql", import.meta.url);
writeFileSync(target, printedSchema());
console.log(`wrote ${target.pathname}`);
