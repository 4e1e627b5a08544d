// The --format option the show-* and config commands share, and how a document prints in each format.
import { Option } from "commander";
import { stringify } from "yaml";
import { Refusal } from "./api.js";

export type Format = "tabular" | "yaml" | "json";

/** --format with these choices; Juju's show-* commands default to yaml, its listings to tabular. */
export function formatOption(choices: Format[], byDefault: Format): Option {
  return new Option("--format <format>", "output format").choices(choices).default(byDefault);
}

/** A document as yaml or json on stdout. */
export function printDocument(document: unknown, format: "yaml" | "json"): void {
  if (format === "json") console.log(JSON.stringify(document, null, 2));
  else process.stdout.write(stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 }));
}

/** The query's model, or the refusal a missing one gets (the API answers null for a model the token cannot see). */
export function foundModel<M>(model: M | null | undefined, name: string): M {
  if (!model) throw new Refusal("NOT_FOUND", `no model named ${name}`, { kind: "model" });
  return model;
}
