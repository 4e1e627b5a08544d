// `lifeline wait-for application|unit|machine|model <name> [--query …] [--timeout 10m]`: Juju's wait-for, on the
// changes stream (src/cli/wait.ts).
import { Argument, type Command } from "commander";
import type { Server } from "../api.js";
import { UsageError } from "../exit-codes.js";
import { describeTarget, parseDuration, waitFor } from "../wait.js";
import { compileQuery, QueryError } from "../wait-query.js";
import { defaultQuery, fieldsFor, type WaitKind } from "../wait-state.js";

const KINDS: WaitKind[] = ["application", "unit", "machine", "model"];

interface WaitForOptions {
  query?: string;
  timeout: string;
  model: string;
}

export function waitForCommand(program: Command, connect: () => Server): void {
  program
    .command("wait-for")
    .description("wait until an application, unit, machine or model meets a condition (Juju's query language)")
    .addArgument(new Argument("<kind>", "what to wait for").choices(KINDS))
    .argument("<name>", "its name (a model's name for `model`)")
    .option("--query <condition>", 'the goal: Juju\'s query, e.g. \'life=="alive" && status=="active"\' (default: per kind, below)')
    .option("--timeout <duration>", "how long to wait, e.g. 30s, 10m, 1h30m", "10m")
    .option("-m, --model <model>", "the model", "default")
    .addHelpText(
      "after",
      `
Queries compare fields with == != < > <= >=, combine with && || ! and parentheses, and call len(list),
forEach(list, x => …), startsWith(s, prefix), endsWith(s, suffix). Strings in "…" or '…'; numbers; true, false.
Fields:
  application  name life status message charm series subordinate unit-count units
  unit         name application life status workload-status workload-message agent-status agent-message
               machine principal subordinate series
  machine      id life status message series instance-id parent container-type unit-count units
  model        name life status series application-count machine-count unit-count applications machines units
Defaults (Juju's):
${KINDS.map((kind) => `  ${kind.padEnd(12)} ${defaultQuery[kind]}`).join("\n")}

What does not exist yet is waited for. What is removed while waited for ends the wait: met if the query holds of it
as Dead (life=="dead"), else exit 4. On a timeout: exit 4, with the values seen last and what blocks it.

Example:
  lifeline wait-for application mysql
  lifeline wait-for unit mysql/0 --query='workload-status=="active"' --timeout 5m
  lifeline wait-for application wordpress --query='len(units) >= 2 && forEach(units, u => u.agent-status=="idle")'
  lifeline wait-for model staging --query='life=="dead"'`,
    )
    .action(async (kind: WaitKind, name: string, options: WaitForOptions) => {
      const text = options.query ?? defaultQuery[kind];
      let condition: ReturnType<typeof compileQuery>;
      try {
        condition = compileQuery(text, fieldsFor[kind]);
      } catch (error) {
        if (error instanceof QueryError) throw new UsageError(`bad --query: ${error.message}\n${error.pointer()}`);
        throw error;
      }
      const timeoutMs = parseDuration(options.timeout);
      if (timeoutMs === null)
        throw new UsageError(`bad --timeout ${JSON.stringify(options.timeout)}: give a duration such as 30s, 10m or 1h30m`);
      const target = { kind, name, model: kind === "model" ? name : options.model };
      await waitFor(connect(), target, condition, { timeoutMs });
      console.log(`${describeTarget(target)}: ${condition.text} met`);
    });
}
