// The process's log: JSON lines (time, level, component, message, and the fields that go with it) for machines to
// read, as pino writes them; on a terminal the same records printed for people (pino-pretty). LIFELINE_LOG sets the
// level; LIFELINE_LOG_FORMAT=json keeps JSON on a terminal too, =pretty makes it pretty everywhere.
import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";

export type { Logger };

const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
type Level = (typeof LEVELS)[number];

function levelOf(text: string | undefined): { level: Level; unknown?: string } {
  if (!text) return { level: "info" };
  const level = text.toLowerCase();
  return (LEVELS as readonly string[]).includes(level) ? { level: level as Level } : { level: "info", unknown: text };
}

// The asynchronous destination, if the log has one: exitAfterLog waits for it.
let asynchronous: ReturnType<typeof pino.destination> | undefined;

function destination(env: NodeJS.ProcessEnv): DestinationStream {
  const format = env.LIFELINE_LOG_FORMAT ?? (process.stdout.isTTY ? "pretty" : "json");
  // Asynchronous writes: with thousands of agents the log is a line per hook, and a synchronous write into a full pipe
  // (a reader that fell behind) held the API's thread, sonic-boom sleeping 100 ms a try until the reader caught up.
  // Lines wait in memory meanwhile; pino writes out what is left when the process exits.
  if (format !== "pretty") {
    asynchronous = pino.destination({ dest: 1, sync: false });
    return asynchronous;
  }
  return pretty({
    sync: true,
    translateTime: "SYS:HH:MM:ss.l",
    // The fields a message already says (the start lines'), left to the JSON; the others (an error's stack, a
    // refusal's code and actor) are printed under it.
    ignore: "pid,hostname,component,url,healthz,readyz,metrics,driver,location,token,command,requestId,fields,operation,ms",
    messageFormat: "{if component}{component}: {end}{msg}",
  });
}

function rootLogger(env: NodeJS.ProcessEnv = process.env): Logger {
  const { level, unknown } = levelOf(env.LIFELINE_LOG);
  const logger = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // "level":"info", not pino's number: readable by people and by tools that expect a name.
      formatters: { level: (label) => ({ level: label }) },
    },
    destination(env),
  );
  if (unknown) logger.warn({ component: "log", given: unknown, levels: LEVELS }, `LIFELINE_LOG=${unknown} is not a level: using info`);
  return logger;
}

let root: Logger | undefined;

/** The logger of one part of the process (`server`, `feed`, `agents`…): every record it writes names it. */
export function loggerFor(component: string): Logger {
  root ??= rootLogger();
  return root.child({ component });
}

/** How long exitAfterLog waits for the log's reader before exiting regardless (pino's own write at exit still waits). */
const EXIT_WAIT_MS = 2_000;
let ending = false;

/**
 * Exits with `code` once every line logged so far is written, after `lastWords` (the fatal line) when given. pino
 * writes what waits in memory when the process exits, but not a write already handed to the thread pool (say, the
 * line before a fatal one, waiting on a full pipe): process.exit cuts it off. And pino's fatal() writes what waits at
 * once, ahead of such a write. So the last words wait until nothing is in flight, and the exit until they are written.
 */
export function exitAfterLog(code: number, lastWords?: () => void): void {
  const stream = asynchronous;
  if (!stream) {
    lastWords?.();
    process.exit(code);
  }
  if (ending) return; // the first call exits
  ending = true;
  const exit = () => process.exit(code);
  setTimeout(exit, EXIT_WAIT_MS);
  stream.once("error", exit);
  // sonic-boom emits drain when what it was given is written; an empty write makes one when nothing is waiting.
  stream.once("drain", () => {
    lastWords?.();
    // Synchronous, in the close event itself: a line logged after it would throw on the closed stream.
    stream.once("close", exit);
    stream.end();
  });
  stream.write("");
}
