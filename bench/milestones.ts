// When each unit of an application reached each step of a phase, as the model's stream told it: a phase's chain
// (added, in scope, idle; or out of scope, Dying, Dead, removed) as the spread of its units over time. A step whose
// units all reach it late, or one far behind the step before, is where the phase waits.
import type { ChangeEvent, ModelWatch } from "./model-watch.js";
import { percentile, printHeader, printRow } from "./stats.js";

/** A unit's steps, in the order a phase's chain takes them. */
const STEPS = ["added", "in scope", "idle", "out of scope", "dying", "dead", "removed"] as const;
type Step = (typeof STEPS)[number];

export class Milestones {
  /** step → unit → performance.now() of the first event that showed it. */
  private readonly reached = new Map<Step, Map<string, number>>(STEPS.map((s) => [s, new Map()]));

  /** Every change event's kind and performance.now(), in order. */
  private readonly changes: { kind: string; at: number }[] = [];

  constructor(
    watch: ModelWatch,
    private readonly application: string,
  ) {
    watch.listen((event) => this.apply(event));
  }

  private mark(step: Step, unit: string): void {
    const units = this.reached.get(step)!;
    if (!units.has(unit)) units.set(unit, performance.now());
  }

  private apply(event: ChangeEvent): void {
    if (event.type !== "CHANGE" || !event.entity) return;
    this.changes.push({ kind: event.kind ?? "?", at: performance.now() });
    if (event.kind === "UNIT" && event.entity.startsWith(`${this.application}/`)) {
      const unit = event.entity;
      if (event.removed) this.mark("removed", unit);
      else {
        this.mark("added", unit);
        if (event.unit?.agentStatus?.current === "idle") this.mark("idle", unit);
        if (event.life === "DYING") this.mark("dying", unit);
        if (event.life === "DEAD") this.mark("dead", unit);
      }
    }
    // A scope's entity is "<relation id>:<unit>".
    if (event.kind === "SCOPE") {
      const unit = event.entity.slice(event.entity.indexOf(":") + 1);
      if (unit.startsWith(`${this.application}/`)) this.mark(event.removed ? "out of scope" : "in scope", unit);
    }
  }

  /** One row a step some unit reached in [start, end]: how many, and when (seconds since `start`): the first, p10, p50, p90, the last. */
  print(label: string, phase: string, { start, end }: { start: number; end: number }): void {
    for (const step of STEPS) {
      const times = [...this.reached.get(step)!.values()].filter((t) => t >= start && t <= end).map((t) => (t - start) / 1000);
      if (times.length === 0) continue;
      times.sort((a, b) => a - b);
      const second = (t: number) => `${t.toFixed(1)} s`;
      const at = (p: number) => second(percentile(times, p));
      printRow([
        label,
        phase,
        step,
        times.length.toLocaleString("en-US"),
        second(times[0]!),
        at(10),
        at(50),
        at(90),
        second(times.at(-1)!),
      ]);
    }
  }

  /** The change events of each kind the watch took in [start, end], a unit of `units`: "HOOK 6.1 · UNIT 4.0 · …". */
  changesByKind({ start, end }: { start: number; end: number }, units: number): string {
    const counts = new Map<string, number>();
    for (const { kind, at } of this.changes) if (at >= start && at <= end) counts.set(kind, (counts.get(kind) ?? 0) + 1);
    return [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([kind, n]) => `${kind} ${(n / units).toFixed(1)}`)
      .join(" · ");
  }

  static header(): void {
    printHeader(["units", "phase", "step", "units reaching it", "first", "p10", "p50", "p90", "last"]);
  }
}
