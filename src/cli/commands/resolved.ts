// `lifeline resolved <unit> [--no-retry]` (Juju's resolved for a unit whose hook failed) and
// `lifeline resolved <machine> [--constraints …]` (seed 004: a machine whose provisioning failed is tried again).
import type { Command } from "commander";
import { CliResolveMachineDocument, CliResolveUnitDocument } from "../../client/graphql.js";
import { request, type Server } from "../api.js";
import { UsageError } from "../exit-codes.js";

/** An application's name, a slash, the unit's number: wordpress/0. */
const UNIT = /^[a-z][a-z0-9-]*\/\d+$/;
/** A machine id (3), or a container's (3/lxd/0, nested as deep as it goes). */
const MACHINE = /^\d+(\/(lxd|kvm)\/\d+)*$/;

/** Which of the two `name` is; anything else is a usage error. */
export function resolvedTarget(name: string): "unit" | "machine" {
  if (UNIT.test(name)) return "unit";
  if (MACHINE.test(name)) return "machine";
  throw new UsageError(`${JSON.stringify(name)} is neither a unit (wordpress/0) nor a machine (3, 3/lxd/0)`);
}

interface ResolvedOptions {
  model: string;
  retry: boolean;
  constraints?: string;
}

export function resolvedCommand(program: Command, connect: () => Server): void {
  program
    .command("resolved")
    .description(
      "let a unit whose hook failed go on (run the hook again, or with --no-retry mark it done); " +
        "or try again to provision a machine in error (with --constraints, new ones)",
    )
    .argument("<unit-or-machine>", "a unit (wordpress/0) or a machine (3, 3/lxd/0)")
    .option("-m, --model <model>", "the model", "default")
    .option("--no-retry", "a unit's: mark the failed hook done without running it")
    .option("--constraints <constraints>", "a machine's: its new constraints (Juju syntax, e.g. 'mem=2G cores=2')")
    .addHelpText("after", "\nExample:\n  lifeline resolved wordpress/0 --no-retry\n  lifeline resolved 3 --constraints 'mem=2G cores=2'")
    .action(async (name: string, o: ResolvedOptions) => {
      if (resolvedTarget(name) === "machine") {
        if (!o.retry) throw new UsageError("--no-retry applies to units only: a machine in error is always tried again");
        const { resolveMachine } = await request(connect(), CliResolveMachineDocument, {
          input: { model: o.model, machine: name, constraints: o.constraints },
        });
        const constraints = resolveMachine.constraints.text;
        return console.log(
          `machine ${resolveMachine.id}: ${resolveMachine.status.current}, to be provisioned again${constraints ? ` (constraints ${constraints})` : ""}`,
        );
      }
      if (o.constraints !== undefined)
        throw new UsageError("--constraints applies to machines only (lifeline set-constraints for an application)");
      const { resolveUnit } = await request(connect(), CliResolveUnitDocument, { input: { model: o.model, unit: name, retry: o.retry } });
      console.log(`${resolveUnit.name}: ${o.retry ? "its failed hook runs again" : "its failed hook is marked done"}`);
    });
}
