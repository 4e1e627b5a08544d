// The schema is printed from the code and checked in; the typed client is
// generated from it. Both must be fresh, or `npm run codegen` was forgotten.
import { readFileSync } from "node:fs";
import { generate } from "@graphql-codegen/cli";
import { describe, expect, it } from "vitest";
import config from "../codegen.js";
import { printedSchema } from "../src/graphql/schema.js";

describe("generated artefacts", () => {
  it("schema/schema.graphql matches the schema the server runs (run `npm run schema` if not)", () => {
    expect(readFileSync(new URL("../schema/schema.graphql", import.meta.url), "utf8")).toBe(printedSchema());
  });

  it("the typed client in src/client matches schema/ (run `npm run codegen` if not)", async () => {
    const outputs = await generate({ ...config, silent: true, cwd: new URL("..", import.meta.url).pathname }, false);
    expect(outputs.length).toBeGreaterThan(0);
    for (const output of outputs) expect(readFileSync(output.filename, "utf8"), output.filename).toBe(output.content);
  });

  it("documents every stable error code in the schema", () => {
    expect(printedSchema()).toMatch(/enum ErrorCode \{[^}]*NOT_ALIVE[^}]*SERIES_MISMATCH/s);
  });
});
