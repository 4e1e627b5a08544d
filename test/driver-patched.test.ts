// The installed postgres.js carries Lifeline's patch (patches/, applied by patch-package on `npm install`): without it a
// terminated connection can end the process (docs/decisions.md, "Outages and high availability"), and the driver runs
// unoptimised ("The driver's own classes keep V8's optimised code").
import { expect, it } from "vitest";
import { driverPatched } from "../src/db/server.js";

/** One of the installed driver's modules, by its file (the package exports only its index). */
const driverModule = (file: string) => import(new URL(file, import.meta.resolve("postgres")).href);

it("the installed postgres.js is the patched one", () => {
  expect(driverPatched()).toBe(true);
});

it("postgres.js's results and queries name their species by a data property: with a getter V8 kept discarding the driver's optimised code", async () => {
  const { default: Result } = await driverModule("./result.js");
  const { Query } = await driverModule("./query.js");
  expect(Object.getOwnPropertyDescriptor(Result, Symbol.species)).toMatchObject({ value: Array });
  expect(Object.getOwnPropertyDescriptor(Query, Symbol.species)).toMatchObject({ value: Promise });
});
