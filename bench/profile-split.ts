// Where a server thread's CPU went over a window, from a V8 CPU profile (node --cpu-prof): each sample is put on the
// path that spent it, so that "where the CPU goes" is printed by a benchmark run, not reckoned by hand.
//
// A sample belongs to the innermost frame of Lifeline's own code on its stack (a library's time is charged to the code
// of ours that called it: JSON.stringify under a stream's frame is the streams'); with none of ours on the stack (a
// socket's data handler, a timer of a library), to the innermost library frame a rule names. Samples in V8's garbage
// collector are their own path: an allocation cannot be told from a sample.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The paths, in the order they are printed. */
export const PATHS = ["streams", "writes and reads", "requests", "agents", "garbage collection", "other"] as const;
export type Path = (typeof PATHS)[number];

/** Our own modules, by the path they serve (the first rule that matches a frame's file wins). */
const OWN: readonly (readonly [RegExp, Path])[] = [
  // The change log's append is part of a write.
  [/\/src\/(model|db)\/|\/src\/changes\/append\.ts$/, "writes and reads"],
  // The feed, fan-out, execution of events, frames and the sockets' writes.
  [
    /\/src\/changes\/|\/src\/net\/|\/src\/server\/(shared-|live-frames|coalesce-writes|websocket-frame)|\/src\/graphql\/types\/change/,
    "streams",
  ],
  [/\/src\/(agents|provider)\//, "agents"],
  [/\/src\//, "requests"],
];

/** Libraries, where no frame of ours is on the stack. */
const LIBRARY: readonly (readonly [RegExp, Path])[] = [
  [/\/node_modules\/(postgres|drizzle-orm|@electric-sql)\//, "writes and reads"],
  [
    /\/node_modules\/(ws|graphql-ws|graphql|graphql-yoga|graphql-jit|@envelop|@graphql-tools|@graphql-yoga|@whatwg-node|@pothos)\//,
    "requests",
  ],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A thread's busy time in a window, in seconds, by path. */
export interface Split {
  busySeconds: number;
  byPath: Record<Path, number>;
  /** True when some of its samples ran our agents' code: the agents' thread. */
  runsAgents: boolean;
}

/** Splits a profile's samples from `fromUs` to `toUs` (the monotonic clock's microseconds, as the profile's). */
export function splitProfile(profile: CpuProfile, fromUs: number, toUs: number): Split {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const pathOf = new Map<number, Path | null>();
  const classify = (id: number): Path | null => {
    let path = pathOf.get(id);
    if (path !== undefined) return path;
    const name = nodes.get(id)!.callFrame.functionName;
    if (name === "(idle)") path = null;
    else if (name === "(garbage collector)") path = "garbage collection";
    else path = innermost(id, OWN, true) ?? innermost(id, LIBRARY, false) ?? "other";
    pathOf.set(id, path);
    return path;
  };
  /** The path of the innermost frame a rule names; `oursOnly`: frames of libraries skipped (their files have `src/` too). */
  const innermost = (id: number, rules: typeof OWN, oursOnly: boolean): Path | undefined => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = nodes.get(at)!.callFrame.url;
      if (oursOnly && url.includes("/node_modules/")) continue;
      for (const [pattern, path] of rules) if (pattern.test(url)) return path;
    }
    return undefined;
  };
  const byPath = Object.fromEntries(PATHS.map((p) => [p, 0])) as Record<Path, number>;
  let busy = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    if (at < fromUs || at > toUs) continue;
    // A sample's time runs until the next one.
    const spent = (profile.timeDeltas[i + 1] ?? 0) / 1e6;
    const path = classify(profile.samples[i]!);
    if (path === null) continue;
    byPath[path] += spent;
    busy += spent;
  }
  const runsAgents = [...nodes.values()].some((n) => /\/src\/agents\//.test(n.callFrame.url));
  return { busySeconds: busy, byPath, runsAgents };
}

/** The CPU profiles process `pid` wrote in `dir`, by thread id (node names them CPU.<date>.<time>.<pid>.<thread>.<n>). */
export function profilesOf(dir: string, pid: number): Map<number, CpuProfile> {
  const found = new Map<number, CpuProfile>();
  for (const name of readdirSync(dir)) {
    const m = /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+\.cpuprofile$/.exec(name);
    if (m && Number(m[1]) === pid) found.set(Number(m[2]), JSON.parse(readFileSync(join(dir, name), "utf8")) as CpuProfile);
  }
  return found;
}
