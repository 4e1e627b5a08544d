// `lifeline config <application> [key | key=value …] [--reset key]`, as `juju config`: no key prints every option
// (its type, default, value and where that comes from), one key prints its value, key=value pairs set them.
import type { Command } from "commander";
import { CliApplicationConfigDocument, type CliApplicationConfigQuery, CliSetApplicationConfigDocument } from "../../client/graphql.js";
import { Refusal, request, type Server } from "../api.js";
import { UsageError } from "../exit-codes.js";
import { type Format, formatOption, foundModel, printDocument } from "../format.js";
import { table } from "../table.js";

type Connect = () => Server;
type Application = NonNullable<NonNullable<CliApplicationConfigQuery["model"]>["application"]>;
interface ConfigOptions {
  model: string;
  format: Format;
  reset?: string[];
}

/** `--reset a,b --reset c`, as Juju takes it. */
const resetKeys = (value: string, previous: string[] = []) => [...previous, ...value.split(",").filter(Boolean)];

/** A setting in `juju config`'s string form, as the charm's defaults are given. */
const spelled = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * Each option with its value and its source, as `juju config` prints them: "user" for a value other than its
 * default (one set to its default reads as "default": the API keeps effective values), "unset" for neither.
 */
function settings(application: Application) {
  return Object.fromEntries(
    [...application.charm.configOptions]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((option) => {
        const set = Object.hasOwn(application.config, option.name);
        const value = set ? application.config[option.name] : undefined;
        const source = !set ? "unset" : option.default !== null && spelled(value) === option.default ? "default" : "user";
        return [
          option.name,
          { type: option.type.toLowerCase(), default: option.default ?? undefined, description: option.description, source, value },
        ];
      }),
  );
}

function printSettings(application: Application, format: Format): void {
  const all = settings(application);
  if (format !== "tabular") {
    printDocument({ application: application.name, charm: application.charm.url, settings: all }, format);
    return;
  }
  const rows = Object.entries(all).map(([key, s]) => [
    key,
    s.type,
    s.default ?? "",
    s.value === undefined ? "" : spelled(s.value),
    s.source,
  ]);
  console.log(table(["Key", "Type", "Default", "Value", "Source"], rows));
}

export function configCommand(program: Command, connect: Connect): void {
  program
    .command("config")
    .description("an application's settings: all of them, one key's value, or set key=value pairs and --reset keys")
    .argument("<application>")
    .argument("[settings...]", "a key to print its value, or key=value pairs to set")
    .option("-m, --model <model>", "the model", "default")
    .option("--reset <keys>", "return these options to their charm's defaults (comma-separated, repeatable)", resetKeys)
    .addOption(formatOption(["tabular", "yaml", "json"], "tabular"))
    .addHelpText(
      "after",
      "\nExample:\n  lifeline config wordpress\n  lifeline config wordpress port\n  lifeline config wordpress port=8080 --reset fail-hook",
    )
    .action(async (name: string, words: string[], o: ConfigOptions) => {
      const server = connect();
      const pairs = words.filter((word) => word.includes("="));
      const keys = words.filter((word) => !word.includes("="));
      if (pairs.length || o.reset?.length) {
        if (keys.length) throw new UsageError(`give key=value pairs to set, or one key to read, not both (${keys.join(", ")})`);
        const values = pairs.map((pair) => ({ key: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1) }));
        const { setApplicationConfig } = await request(server, CliSetApplicationConfigDocument, {
          input: { model: o.model, application: name, values, reset: o.reset },
        });
        const changed = [...pairs.map((pair) => `set ${pair}`), ...(o.reset ?? []).map((key) => `reset ${key}`)];
        return console.log(`${setApplicationConfig.name}: ${changed.join(", ")} (config version ${setApplicationConfig.configVersion})`);
      }
      if (keys.length > 1) throw new UsageError(`read one key at a time (got ${keys.join(", ")}), or set key=value pairs`);
      const data = await request(server, CliApplicationConfigDocument, { model: o.model, application: name });
      const application = foundModel(data.model, o.model).application;
      if (!application) throw new Refusal("NOT_FOUND", `no application ${name} in model ${o.model}`, { kind: "application" });
      const [key] = keys;
      if (key === undefined) return printSettings(application, o.format);
      if (!application.charm.configOptions.some((option) => option.name === key))
        throw new Refusal("INVALID_ARGUMENT", `application "${name}" has no config option "${key}"`, { key });
      // Unset with no default: nothing to print, as juju config prints nothing.
      if (Object.hasOwn(application.config, key)) console.log(spelled(application.config[key]));
    });
}
