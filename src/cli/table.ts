// Borderless tables, as Juju prints them.
import Table from "cli-table3";

const none = { top: "", "top-mid": "", "top-left": "", "top-right": "", bottom: "", "bottom-mid": "", "bottom-left": "" };
const chars = { ...none, "bottom-right": "", left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "  " };

export function table(head: string[], rows: string[][]): string {
  const t = new Table({ head, chars, style: { head: [], border: [], "padding-left": 0, "padding-right": 0 } });
  t.push(...rows);
  return t
    .toString()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n");
}
