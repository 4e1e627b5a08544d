// `lifeline models`, `add-model`, `destroy-model`.
import type { Command } from "commander";
import { AddModelDocument, CliModelsDocument, DestroyModelDocument, DestroyModelDryRunDocument } from "../../client/graphql.js";
import { request, type Server } from "../api.js";
import { colours } from "../colour.js";
import { UsageError } from "../exit-codes.js";
import { table } from "../table.js";
import { parseDuration, waitFor } from "../wait.js";
import { compileQuery } from "../wait-query.js";
import { fieldsFor } from "../wait-state.js";
import { printRemoval } from "./removal.js";

type Connect = () => Server;

async function modelNames(server: Server) {
  const models = [];
  let after: string | null | undefined;
  do {
    const page = (await request(server, CliModelsDocument, { after })).models;
    models.push(...page.edges.map((e) => e.node));
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  return models;
}

export function modelCommands(program: Command, connect: Connect): void {
  program
    .command("models")
    .description("list the models your token reaches")
    .addHelpText("after", "\nExample:\n  lifeline models --url http://127.0.0.1:4000 --token llt_…")
    .action(async () => {
      const { state } = colours();
      const models = await modelNames(connect());
      console.log(
        table(
          ["Model", "Life", "Series", "Created"],
          models.map((m) => [m.name, state(m.life.toLowerCase()), m.defaultSeries, m.createdAt]),
        ),
      );
    });

  program
    .command("add-model")
    .description("add a model (with machine 0, as after bootstrap)")
    .argument("<name>")
    .option("--series <series>", "the model's default series")
    .option("--constraints <constraints>", "e.g. 'mem=2G cores=2'")
    .addHelpText("after", "\nExample:\n  lifeline add-model staging --series jammy")
    .action(async (name: string, options: { series?: string; constraints?: string }) => {
      const { addModel } = await request(connect(), AddModelDocument, {
        input: { name, defaultSeries: options.series, constraints: options.constraints },
      });
      console.log(`added model ${addModel.name} (${addModel.uuid})`);
    });

  program
    .command("destroy-model")
    .description("destroy a model: Dying, emptied by the agents, then removed")
    .argument("<name>")
    .option("--force", "remove what its agents do not clean up")
    .option("--no-wait", "return once it is Dying instead of waiting until it is gone")
    .option("--timeout <duration>", "stop waiting after this long (e.g. 10m), exiting 4; the destruction goes on")
    .option("--dry-run", "say what would become Dying, be removed and block, changing nothing")
    .addHelpText("after", "\nExample:\n  lifeline destroy-model staging --force\n  lifeline destroy-model staging --dry-run")
    .action(async (name: string, options: { force?: boolean; wait: boolean; timeout?: string; dryRun?: boolean }) => {
      const timeoutMs = options.timeout === undefined ? undefined : parseDuration(options.timeout);
      if (timeoutMs === null) throw new UsageError(`bad --timeout ${JSON.stringify(options.timeout)}: give a duration such as 30s or 10m`);
      const server = connect();
      const force = Boolean(options.force);
      if (options.dryRun) {
        printRemoval((await request(server, DestroyModelDryRunDocument, { name, force })).destroyModelDryRun);
        return;
      }
      const { destroyModel } = await request(server, DestroyModelDocument, { name, force });
      console.log(`model ${name}: ${destroyModel.toLowerCase()}`);
      if (!options.wait || destroyModel === "REMOVED") return;
      console.error(`waiting for model ${name} to be removed (Ctrl-C stops waiting; the destruction goes on)`);
      // Followed on the model's changes stream; the progress line shows what it still holds.
      const gone = compileQuery('life=="dead"', fieldsFor.model);
      const condition = { ...gone, reads: ["life", "application-count", "unit-count", "machine-count"] };
      await waitFor(server, { kind: "model", name, model: name }, condition, {
        purpose: "waiting for it to be removed",
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
      console.log(`model ${name}: removed`);
    });
}
