// Where a benchmark's CPU goes on this machine, read from Linux's /proc: the whole
// machine's busy time (/proc/stat), and PostgreSQL's, all its processes together. A
// write's cost on a machine of 2 cores is shared out between the database, the server
// and the clients; with both counted over the same window as the server's own
// (process-sampler.ts), a ratio of throughputs can be read as a ratio of CPU per write.
import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import type postgres from "postgres";

/** Linux reports CPU times in USER_HZ ticks, 100 a second on every architecture Node runs on. */
export const TICKS_PER_SECOND = 100;

export const machineCores = () => cpus().length;

/** The share of the machine's cores that `cpuSeconds` of CPU over `seconds` of wall-clock time kept busy, as "N%". */
export const busyShare = (cpuSeconds: number, seconds: number) => `${Math.round((100 * cpuSeconds) / (machineCores() * seconds))}%`;

/** Seconds the machine's cores have been busy since boot (user, nice, system, irq, softirq), or NaN off Linux. */
export function machineBusySeconds(): number {
  try {
    const [user, nice, system, , , irq, softirq] = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** A process's /proc/<pid>/stat fields after its command name (field 3 onwards), or null once it is gone. */
export function statFields(pid: number): string[] | null {
  try {
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)!.split(" ");
  } catch {
    return null;
  }
}

function commandOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return null;
  }
}

/**
 * PostgreSQL's CPU seconds so far: the postmaster's own, its children's that have exited (the kernel adds
 * a child's time to its parent's cutime and cstime once the parent reaps it, as the postmaster does each
 * backend's), and its live children's. Between two readings, that counts every backend's time in the
 * window, those that came and went in it included. NaN when the postmaster is not a process of this machine.
 */
export function postgresCpuSeconds(postmaster: number): number {
  // A child reaped between reading the postmaster and finding it would be counted nowhere (pgbench's backends
  // end together with it, at a window's end): read again until the reaped children's time held still throughout.
  for (let attempt = 0; ; attempt++) {
    const before = statFields(postmaster);
    if (!before) return Number.NaN;
    let live = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const fields = statFields(Number(entry));
      // Field 4 (ppid) is 1 here.
      if (fields && Number(fields[1]) === postmaster) live += Number(fields[11]) + Number(fields[12]);
    }
    const after = statFields(postmaster);
    if (!after) return Number.NaN;
    // Fields 14 to 17 of the whole line (utime, stime, cutime, cstime) are 11 to 14 here, counting from 0.
    const reaped = (f: string[]) => Number(f[13]) + Number(f[14]);
    if (reaped(before) === reaped(after) || attempt >= 10)
      return (Number(after[11]) + Number(after[12]) + reaped(after) + live) / TICKS_PER_SECOND;
  }
}

/** The postmaster's pid when the server `sql` talks to runs on this machine (its backend's parent), else null. */
export async function localPostmaster(sql: postgres.Sql): Promise<number | null> {
  const [{ pid }] = (await sql`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
  // A backend's pid is a process here only when the server is local (and then it is one of PostgreSQL's).
  const fields = statFields(pid);
  return fields && commandOf(pid) === "postgres" ? Number(fields[1]) : null;
}

export interface CpuShares {
  /** CPU seconds of the machine's cores over the window. */
  machine: number;
  /** CPU seconds of PostgreSQL's processes over the window (NaN when not local). */
  postgres: number;
}

/** Starts counting; `end()` gives the machine's and PostgreSQL's CPU seconds since. */
export function cpuWindow(postmaster: number | null): { end(): CpuShares } {
  const pg = () => (postmaster === null ? Number.NaN : postgresCpuSeconds(postmaster));
  const machineAtStart = machineBusySeconds();
  const postgresAtStart = pg();
  return {
    end: () => ({ machine: machineBusySeconds() - machineAtStart, postgres: pg() - postgresAtStart }),
  };
}
