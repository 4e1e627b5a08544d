import { defineConfig } from "vitest/config";
import { scaled, TIME_SCALE } from "./test/support/time-scale.js";

export default defineConfig({
  resolve: {
    // graphql ships CJS (main) and ESM (module) builds; Node loads the CJS one for yoga and
    // Pothos, so our own sources must get the same copy or `instanceof GraphQLError` breaks.
    alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    // Deadlines stretch with the machine's load (test/support/time-scale.ts); every worker uses the run's one scale.
    // In-process servers log refusals at info (operation-log.ts): the tests make hundreds on purpose. Processes the
    // tests start (npm start) log at info again: test/support/lifeline-process.ts.
    env: { LIFELINE_TEST_TIME_SCALE: String(TIME_SCALE), LIFELINE_LOG: "warn" },
    testTimeout: scaled(30_000),
    hookTimeout: scaled(60_000),
    // Two cores: more workers only add PGlite start-up cost.
    maxWorkers: 2,
    // Each file still gets a worker of its own, so a fresh module graph, but a thread starts and loads sooner than a
    // process: ten light files ran in 0.5 to 0.7 of the time they took in forks. Not isolate: false (about as fast):
    // support modules register afterAll hooks as they load, so only a worker's first file would get them.
    pool: "threads",
  },
});
