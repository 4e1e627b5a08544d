// remove-application, remove-unit, remove-machine, remove-relation: one shape, built by removalCommand, so an option
// every removal takes (Juju's --force and --no-wait, and --dry-run) is added in one place.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { Command } from "commander";
import {
  type RemovalFieldsFragment,
  RemoveApplicationDocument,
  RemoveMachineDocument,
  RemoveRelationDocument,
  RemoveUnitDocument,
} from "../../client/graphql.js";
import { request, type Server } from "../api.js";
import { colours } from "../colour.js";
import { UsageError } from "../exit-codes.js";

type Connect = () => Server;

/** Juju's default --max-wait for a forced removal: a clean exit may take this long before the forced fallback. */
const FORCE_MAX_WAIT_SECONDS = 60;

/** What every removal's input shares; `targets` is the field naming what goes (applications, units, …). */
interface RemovalInput {
  model: string;
  force: boolean;
  maxWait?: number;
  dryRun: boolean;
}

export interface RemovalOptions {
  model: string;
  force?: boolean;
  wait: boolean;
  dryRun?: boolean;
}

/** The removal inputs' common part, from the common options. */
export function removalInput(options: RemovalOptions): RemovalInput {
  if (!options.wait && !options.force) throw new UsageError("--no-wait applies only with --force");
  const force = Boolean(options.force);
  const dryRun = Boolean(options.dryRun);
  return { model: options.model, force, dryRun, ...(force ? { maxWait: options.wait ? FORCE_MAX_WAIT_SECONDS : 0 } : {}) };
}

interface Removal<Key extends string, Result> {
  name: string;
  what: string;
  /** The input field naming the targets. */
  targets: Key;
  document: TypedDocumentNode<Result, { input: RemovalInput & Record<Key, string[]> }>;
  results: (data: Result) => readonly RemovalFieldsFragment[];
  example: string;
}

function removalCommand<Key extends string, Result>(program: Command, connect: Connect, removal: Removal<Key, Result>) {
  program
    .command(removal.name)
    .description(`remove ${removal.what}: Dying now, removed once their agents are done`)
    .argument(`<${removal.targets}...>`)
    .option("-m, --model <model>", "the model", "default")
    .option("--force", "finish the job if the agents do not, keeping every reference consistent")
    .option("--no-wait", `with --force: no clean exit allowed first (default: ${FORCE_MAX_WAIT_SECONDS} s)`)
    .option("--dry-run", "say what would become Dying, be removed and block, changing nothing")
    .addHelpText("after", `\nExample:\n  ${removal.example}\n  ${removal.example} --dry-run`)
    .action(async (targets: string[], options: RemovalOptions) => {
      const input = { ...removalInput(options), [removal.targets]: targets } as RemovalInput & Record<Key, string[]>;
      const data = await request(connect(), removal.document, { input });
      for (const result of removal.results(data)) printRemoval(result);
    });
}

/** A target's outcome; for a dry run, what would happen to each entity and what would hold it. */
export function printRemoval(result: RemovalFieldsFragment): void {
  const { state } = colours();
  console.log(`${result.id}: ${result.dryRun ? "would be " : ""}${state(result.outcome.toLowerCase())}`);
  for (const effect of result.effects ?? []) {
    const what = effect.cleanup ? `cleanup ${effect.cleanup}` : `${effect.kind.toLowerCase()} ${effect.entity}`;
    const becomes = effect.cleanup ? "queued" : effect.removed ? "removed" : (effect.life?.toLowerCase() ?? "changed");
    console.log(`  ${what}: ${state(becomes)}`);
  }
  for (const blocker of result.blockers ?? []) console.log(`  blocked by ${blocker.kind}: ${blocker.message}`);
}

export function removalCommands(program: Command, connect: Connect): void {
  removalCommand(program, connect, {
    name: "remove-application",
    what: "applications and their units",
    targets: "applications",
    document: RemoveApplicationDocument,
    results: (data) => data.removeApplication,
    example: "lifeline remove-application wordpress",
  });
  removalCommand(program, connect, {
    name: "remove-unit",
    what: "units",
    targets: "units",
    document: RemoveUnitDocument,
    results: (data) => data.removeUnit,
    example: "lifeline remove-unit wordpress/1",
  });
  removalCommand(program, connect, {
    name: "remove-machine",
    what: "machines (with --force, their units and containers too)",
    targets: "machines",
    document: RemoveMachineDocument,
    results: (data) => data.removeMachine,
    example: "lifeline remove-machine 3 --force",
  });
  removalCommand(program, connect, {
    name: "remove-relation",
    what: "integrations, named by id or key ('wordpress:db mysql:server')",
    targets: "relations",
    document: RemoveRelationDocument,
    results: (data) => data.removeRelation,
    example: "lifeline remove-relation 3",
  });
}
