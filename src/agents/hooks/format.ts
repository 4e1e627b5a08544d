// The --format choices of hook tools, as Juju's cmd package formats: smart (the
// default) prints a string as it is, a list one item a line, a bool as
// True/False (pyjuju's spelling) and anything else as YAML; yaml prints nothing
// for null; json prints null as "null". Maps come out with sorted keys, as Go's
// encoders write them.
import { stringify } from "yaml";

export const formats = ["smart", "yaml", "json"] as const;
export type Format = (typeof formats)[number];

export const isFormat = (name: string): name is Format => (formats as readonly string[]).includes(name);

export function formatValue(format: Format, value: unknown): string {
  switch (format) {
    case "json":
      return `${JSON.stringify(sortedKeys(value) ?? null)}\n`;
    case "yaml":
      return yaml(value);
    case "smart":
      return smart(value);
  }
}

function smart(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text: string;
  if (typeof value === "string") text = value;
  else if (Array.isArray(value) && value.every((item) => typeof item === "string")) text = value.join("\n");
  else if (typeof value === "boolean") text = value ? "True" : "False";
  else return yaml(value);
  return text === "" ? "" : `${text}\n`;
}

function yaml(value: unknown): string {
  if (value === null || value === undefined) return "";
  // lineWidth 0: long values stay on one line, as Go's yaml.v2 writes them.
  const text = stringify(value, { sortMapEntries: true, lineWidth: 0 }).replace(/\n+$/, "");
  return text === "" ? "" : `${text}\n`;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, item]) => [key, sortedKeys(item)]),
    );
  }
  return value;
}
