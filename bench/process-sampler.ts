// Memory and CPU of another process (the server under test), read from Linux's
// /proc: its resident set size sampled on a timer (the peak of a phase is the
// largest sample in it), and its CPU time (user + system) at each end of a
// phase, which the kernel counts exactly. Per-unit CPU is the figure that stays
// comparable when the shared machine's load moves wall-clock times.
import { readFileSync } from "node:fs";
import { statFields, TICKS_PER_SECOND } from "./machine-cpu.js";

export interface PhaseFigures {
  /** The largest resident set size sampled during the phase, in MiB. */
  peakRssMiB: number;
  /** The resident set size when the phase ended, in MiB. */
  endRssMiB: number;
  /** CPU seconds the process used during the phase. */
  cpuSeconds: number;
}

/** The process's resident set size in MiB, or NaN once it is gone. */
function rssMiB(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The process's user + system CPU seconds so far, or NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  // utime and stime are fields 14 and 15 of the whole line, so 11 and 12 of those after the name.
  return fields ? (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND : Number.NaN;
}

export class ProcessSampler {
  private readonly timer: NodeJS.Timeout;
  private readonly open = new Set<{ peak: number }>();

  constructor(
    private readonly pid: number,
    intervalMs = 200,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  private sample(): void {
    const rss = rssMiB(this.pid);
    if (Number.isFinite(rss)) for (const phase of this.open) phase.peak = Math.max(phase.peak, rss);
  }

  /** Starts a phase; its `end()` gives the phase's peak RSS and CPU time. */
  phase(): { end(): PhaseFigures } {
    const phase = { peak: 0 };
    const cpuAtStart = cpuSeconds(this.pid);
    this.open.add(phase);
    this.sample();
    return {
      end: () => {
        this.sample();
        this.open.delete(phase);
        return { peakRssMiB: phase.peak, endRssMiB: rssMiB(this.pid), cpuSeconds: cpuSeconds(this.pid) - cpuAtStart };
      },
    };
  }

  /** The process's own peak resident set size since it started (VmHWM), in MiB. */
  highWaterMiB(): number {
    try {
      const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pid}/status`, "utf8"))?.[1];
      return kb ? Number(kb) / 1024 : Number.NaN;
    } catch {
      return Number.NaN;
    }
  }

  close(): void {
    clearInterval(this.timer);
  }
}
