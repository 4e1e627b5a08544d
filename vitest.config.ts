import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // graphql ships CJS (main) and ESM (module) builds; Node loads the CJS one for yoga and
    // Pothos, so our own sources must get the same copy or `instanceof GraphQLError` breaks.
    alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more workers only add PGlite start-up cost.
    maxWorkers: 2,
  },
});
