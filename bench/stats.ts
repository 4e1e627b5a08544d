// Percentiles and formatting for the benchmark's report.

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
