// The installed postgres.js carries Lifeline's patch for lost connections (patches/, applied by patch-package on
// `npm install`): without it a terminated connection can end the process (docs/decisions.md, "Outages and high
// availability").
import { expect, it } from "vitest";
import { driverPatched } from "../src/db/server.js";

it("the installed postgres.js is the patched one", () => {
  expect(driverPatched()).toBe(true);
});
