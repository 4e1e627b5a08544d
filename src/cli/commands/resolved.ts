// `lifeline resolved <unit> [--no-retry]`: Juju's resolved for a unit whose hook failed.
import type { Command } from "commander";
import { CliResolveUnitDocument } from "../../client/graphql.js";
import { request, type Server } from "../api.js";

export function resolvedCommand(program: Command, connect: () => Server): void {
  program
    .command("resolved")
    .description("let a unit whose hook failed go on: run the hook again, or with --no-retry mark it done")
    .argument("<unit>")
    .option("-m, --model <model>", "the model", "default")
    .option("--no-retry", "mark the failed hook done without running it")
    .addHelpText("after", "\nExample:\n  lifeline resolved wordpress/0 --no-retry")
    .action(async (unit: string, o: { model: string; retry: boolean }) => {
      const { resolveUnit } = await request(connect(), CliResolveUnitDocument, { input: { model: o.model, unit, retry: o.retry } });
      console.log(`${resolveUnit.name}: ${o.retry ? "its failed hook runs again" : "its failed hook is marked done"}`);
    });
}
