// Colour by state, only on a terminal and never when NO_COLOR is set (no-color.org): piped output stays plain text.
import { createColors } from "picocolors";

export type Paint = (text: string) => string;

export function colours(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env) {
  const c = createColors(Boolean(stream.isTTY) && !env.NO_COLOR);
  const bad = new Set(["error", "blocked", "lost", "down", "dead"]);
  const busy = new Set(["waiting", "maintenance", "executing", "allocating", "pending", "dying", "rebooting"]);
  const good = new Set(["active", "idle", "started", "running", "alive"]);
  /** One word of state (life, agent or workload status), coloured by what it means. */
  const state: Paint = (word) => {
    const key = word.toLowerCase();
    if (bad.has(key)) return c.red(word);
    if (busy.has(key)) return c.yellow(word);
    if (good.has(key)) return c.green(word);
    return word;
  };
  return { state, bold: c.bold as Paint, dim: c.dim as Paint };
}
