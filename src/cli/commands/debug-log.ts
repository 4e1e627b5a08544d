// `lifeline debug-log [-m model] [--include …] [--exclude …] [--replay] [--lines N] [--level LEVEL] [--no-tail]`:
// Juju's debug-log. The history kept (Model.hookHistory: hook runs and their juju-log lines, removed units' too) first,
// all of it with --replay or else its last N lines; then, from the revision that history was read at, the changes
// stream's HOOK, UNIT and MACHINE events as they come.
import { type Command, InvalidArgumentError } from "commander";
import {
  ChangesDocument,
  CliHookHistoryDocument,
  type CliHookHistoryQuery,
  type CliHookRunFieldsFragment,
  type HookLogLevel,
} from "../../client/graphql.js";
import { Refusal, request, type Server } from "../api.js";
import { chronological, formatLine, LEVELS, LiveLines, type LogLine, runLines, type Selection, selected } from "../debug-log-lines.js";
import { follow } from "../stream.js";

interface Options {
  model: string;
  include: string[];
  exclude: string[];
  replay?: boolean;
  lines: number;
  level: HookLogLevel;
  tail: boolean;
}

const PAGE = 500;

const collect = (value: string, previous: string[]) => [...previous, value];

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("not a count");
  return n;
}

function level(value: string): HookLogLevel {
  const upper = value.toUpperCase() as HookLogLevel;
  if (!LEVELS.includes(upper)) throw new InvalidArgumentError(`one of ${LEVELS.join(", ")}`);
  return upper;
}

export function debugLogCommand(program: Command, connect: () => Server): void {
  program
    .command("debug-log")
    .description("hook runs, their juju-log lines and agents' actions, as they happen (Juju's debug-log)")
    .option("-m, --model <model>", "the model", "default")
    .option("--include <entity>", "only lines of this unit, application or machine (repeatable)", collect, [])
    .option("--exclude <entity>", "no lines of this unit, application or machine (repeatable)", collect, [])
    .option("--replay", "start from the oldest line kept (removed units' hooks included)")
    .option("-n, --lines <n>", "without --replay: start from the last n lines", count, 10)
    .option("--level <level>", `the least severe level shown: ${LEVELS.join(", ")}`, level, "DEBUG" as HookLogLevel)
    .option("--no-tail", "print the lines kept and exit, without following")
    .addHelpText(
      "after",
      "\nExample:\n  lifeline debug-log\n  lifeline debug-log --replay --no-tail --include wordpress/0\n  lifeline debug-log --level ERROR --exclude machine-0",
    )
    .action(async (o: Options) => {
      const server = connect();
      const selection: Selection = { include: o.include, exclude: o.exclude, level: o.level };
      const { revision, lines } = await history(server, o, selection);
      const printed = new Set<string>();
      const print = (line: LogLine) => {
        if (printed.has(line.key) || !selected(line, selection)) return;
        printed.add(line.key);
        process.stdout.write(`${formatLine(line)}\n`);
      };
      for (const line of lines) print(line);
      if (!o.tail) return;
      await followLive(server, o.model, revision, print);
    });
}

/** The history's lines to start with (all of them, or the last --lines), and the model's revision read with them. */
async function history(server: Server, o: Options, selection: Selection): Promise<{ revision: string; lines: LogLine[] }> {
  const runs: CliHookRunFieldsFragment[] = [];
  let revision: string | null = null;
  let after: string | null = null;
  for (;;) {
    const data: CliHookHistoryQuery = await request(server, CliHookHistoryDocument, {
      model: o.model,
      order: o.replay ? "OLDEST_FIRST" : "NEWEST_FIRST",
      first: o.replay ? PAGE : Math.min(Math.max(o.lines, 10), PAGE),
      after,
    });
    if (!data.model) throw new Refusal("NOT_FOUND", `no model named ${o.model} (lifeline models lists them)`);
    revision ??= data.model.revision;
    const page = data.model.hookHistory;
    runs.push(...page.edges.map((e) => e.node));
    // Newest first, a run has at least one line: enough runs read once there are --lines lines to show.
    const enough = !o.replay && runs.flatMap(runLines).filter((line) => selected(line, selection)).length >= o.lines;
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor || enough) break;
    after = page.pageInfo.endCursor;
  }
  const lines = chronological(runs.flatMap(runLines)).filter((line) => selected(line, selection));
  return { revision: revision ?? "0", lines: o.replay ? lines : lines.slice(Math.max(lines.length - o.lines, 0)) };
}

/** Follows the stream from `since` until Ctrl-C. */
async function followLive(server: Server, model: string, since: string, print: (line: LogLine) => void): Promise<void> {
  const live = new LiveLines();
  const following = follow(server, ChangesDocument, { model, kinds: ["HOOK", "UNIT", "MACHINE"], since }, (data) => data.changes, {
    event: (event) => {
      for (const line of live.of(event)) print(line);
    },
    connection: (state, detail) =>
      process.stderr.write(state === "lost" ? `connection lost: ${detail}; retrying\n` : "connection resumed\n"),
  });
  const stop = () => void following.stop();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await following.ended;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
