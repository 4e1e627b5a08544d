// Percentiles and formatting for the benchmarks' reports.
import { cpus, loadavg } from "node:os";

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

export const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 2 : 1)} ms` : "n/a");
export const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 2 : 1)}×` : "n/a");
export const rate = (value: number) => `${Math.round(value).toLocaleString("en-US")}/s`;

/** This machine's load averages (1, 5, 15 min), as the reports print them. */
export const loadAverages = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");

/** Every report's first line: figures from two runs compare only at similar load. */
export const machineLine = (startLoad: string) =>
  `machine: ${cpus().length} cores; load average at the end ${loadAverages()} (at the start ${startLoad})`;

/** A markdown table row. */
export const printRow = (cells: readonly string[]) => console.log(`| ${cells.join(" | ")} |`);

/** A markdown table's header and the line under it. */
export function printHeader(header: readonly string[]): void {
  printRow(header);
  console.log(`|${header.map(() => "---").join("|")}|`);
}
