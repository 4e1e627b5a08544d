#!/usr/bin/env node
// The `lifeline` executable (package.json bin): Lifeline is TypeScript run by tsx, as `npm start` runs it.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
