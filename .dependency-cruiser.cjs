// Lifeline's import rules, checked by `npm run lint` (and so by `npm test` and CI).
// Each folder may import only the folders below it in this order:
//
//   src/core      the shared vocabulary (life, roles, machine jobs, refusal codes): imports nothing
//   src/net       socket plumbing the server and the agents share (write batching): imports nothing
//   src/db        tables and drivers: core
//   src/changes   the change log and its streams: db, core
//   src/model     the seeds' rules: db, core, and of src/changes only the write side (change.ts, append.ts)
//   src/graphql   the schema: model (through src/model/index.ts only), changes, core, provider (the admin's cloud API); never db
//   src/server    wiring: anything above
//   src/agents    GraphQL clients: src/client, src/provider, core, net only
//   src/cli       the lifeline command, a GraphQL client too: src/client, core, net only (and, to start an agent,
//                 src/cli/commands/agent.ts the agent runner src/agents/cli.ts); agents never import it
//   src/ui        the status page, a GraphQL client in the browser: src/client and core only; nothing imports it (the
//                 server bundles it from its path: src/server/ui.ts)
//   src/provider: core only; src/client (generated): nothing of ours
//
// and nothing may form a cycle, type-only imports included.
const folder = (name) => `^src/${name}/`;
const outside = (...allowed) => `^src/(?!(${allowed.join("|")})/)`;

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "Modules form a graph without cycles: a reader can start at the bottom and never loop.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-imports-nothing",
      severity: "error",
      from: { path: folder("core") },
      to: { path: outside("core") },
    },
    {
      name: "net-imports-nothing",
      comment: "Sockets and turns of the event loop, no domain words: both the server and the agents use it.",
      severity: "error",
      from: { path: folder("net") },
      to: { path: outside("net") },
    },
    {
      name: "db-imports-only-core",
      severity: "error",
      from: { path: folder("db") },
      to: { path: outside("db", "core") },
    },
    {
      name: "changes-imports-only-db-and-core",
      severity: "error",
      from: { path: folder("changes") },
      to: { path: outside("changes", "db", "core") },
    },
    {
      name: "model-imports-only-db-core-and-the-log-write-side",
      severity: "error",
      from: { path: folder("model") },
      to: { path: outside("model", "db", "core", "changes") },
    },
    {
      name: "model-appends-changes-only",
      comment: "The model writes change rows; reading the log (streams, snapshots) is src/changes' and src/graphql's business.",
      severity: "error",
      from: { path: folder("model") },
      to: { path: "^src/changes/", pathNot: "^src/changes/(change|append)\\.ts$" },
    },
    {
      name: "model-index-is-for-outside",
      comment: "src/model/index.ts is the model's public face; modules inside the model import each other directly.",
      severity: "error",
      from: { path: folder("model") },
      to: { path: "^src/model/index\\.ts$" },
    },
    {
      name: "graphql-never-imports-db",
      severity: "error",
      from: { path: folder("graphql") },
      to: { path: outside("graphql", "model", "changes", "core", "provider") },
    },
    {
      name: "graphql-calls-the-model-through-its-index",
      comment: "Resolvers call the model's public operations and reads, nothing internal.",
      severity: "error",
      from: { path: folder("graphql") },
      to: { path: "^src/model/", pathNot: "^src/model/index\\.ts$" },
    },
    {
      name: "only-the-process-entry-starts-agents",
      comment:
        "The API never calls agent code; npm start runs the agents beside it, as clients of it, on their own thread (agents-worker.ts).",
      severity: "error",
      from: { path: folder("server"), pathNot: "^src/server/agents-worker\\.ts$" },
      to: { path: folder("agents") },
    },
    {
      name: "agents-are-clients",
      comment: "Agents see only the API: the generated client and the provider (and how their sockets write: src/net).",
      severity: "error",
      from: { path: folder("agents") },
      to: { path: outside("agents", "client", "provider", "core", "net") },
    },
    {
      name: "cli-is-a-client",
      comment: "The lifeline command sees only the API, through the generated client, as the agents do.",
      severity: "error",
      from: { path: folder("cli") },
      to: { path: outside("cli", "client", "core", "net"), pathNot: "^src/agents/cli\\.ts$" },
    },
    {
      name: "cli-starts-agents-through-their-runner-alone",
      comment: "`lifeline agent` hands its arguments to the agent runner; nothing else of src/cli knows the agents.",
      severity: "error",
      from: { path: folder("cli"), pathNot: "^src/cli/commands/agent\\.ts$" },
      to: { path: folder("agents") },
    },
    {
      name: "agents-never-import-the-cli",
      severity: "error",
      from: { path: folder("agents") },
      to: { path: folder("cli") },
    },
    {
      name: "ui-is-a-client",
      comment: "The status page runs in the browser and sees only the API, through the generated client (and the shared vocabulary).",
      severity: "error",
      from: { path: folder("ui") },
      to: { path: outside("ui", "client", "core") },
    },
    {
      name: "ui-runs-only-in-the-browser",
      comment: "Nothing imports the page's modules: the server serves them bundled (src/server/ui.ts), the browser runs them.",
      severity: "error",
      from: { pathNot: folder("ui") },
      to: { path: folder("ui") },
    },
    {
      name: "provider-imports-only-core",
      severity: "error",
      from: { path: folder("provider") },
      to: { path: outside("provider", "core") },
    },
    {
      name: "client-imports-nothing-of-ours",
      severity: "error",
      from: { path: folder("client") },
      to: { path: outside("client") },
    },
    {
      name: "src-never-imports-tests-or-benchmarks",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^(test|bench)/" },
    },
    {
      name: "no-unresolvable-imports",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
  },
};
