// Juju's identifier grammar, checked at the edge so malformed ids get
// INVALID_ID / INVALID_NAME instead of a confusing NOT_FOUND.
import { LifelineError, shortQuote } from "../core/errors.js";

// Lengths are capped where Juju leaves them open: an application name is a DNS label (63, as Kubernetes requires),
// so a name always fits the store's unique indexes and every message that quotes it.
const applicationName = /^(?=.{1,63}$)[a-z][a-z0-9]*(?:-[a-z0-9]*[a-z][a-z0-9]*)*$/;
const modelName = /^[a-z0-9][a-z0-9-]{0,62}$/;
// Numbers are at most 9 digits: they are stored as 32-bit integers.
const unitName = /^((?=.{1,63}\/)[a-z][a-z0-9]*(?:-[a-z0-9]*[a-z][a-z0-9]*)*)\/(0|[1-9][0-9]{0,8})$/;
const machineId = /^(?=.{1,128}$)(?:0|[1-9][0-9]{0,8})(?:\/(?:lxd|kvm)\/(?:0|[1-9][0-9]{0,8}))*$/;
const seriesName = /^(?=.{1,64}$)[a-z][a-z0-9.-]*$/;
const relationName = /^(?=.{1,63}$)[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$/;

export function checkApplicationName(name: string): string {
  if (!applicationName.test(name))
    throw new LifelineError(
      "INVALID_NAME",
      `invalid application name ${shortQuote(name)}: use at most 63 lower-case letters, digits and single hyphens, starting with a letter and not ending in a digit-only segment (e.g. "wordpress", "my-db")`,
    );
  return name;
}

export function checkCharmName(name: string): string {
  if (!applicationName.test(name))
    throw new LifelineError("INVALID_CHARM_METADATA", `invalid charm name ${shortQuote(name)}: same rules as application names`);
  return name;
}

export function checkModelName(name: string): string {
  if (!modelName.test(name))
    throw new LifelineError(
      "INVALID_NAME",
      `invalid model name ${shortQuote(name)}: use lower-case letters, digits and hyphens (at most 63), starting with a letter or digit`,
    );
  return name;
}

/** Splits "wordpress/3" into its application and number. */
export function parseUnitName(name: string): { application: string; number: number } {
  const match = unitName.exec(name);
  if (!match)
    throw new LifelineError("INVALID_ID", `invalid unit name ${shortQuote(name)}: expected <application>/<number>, e.g. "wordpress/0"`);
  return { application: match[1]!, number: Number(match[2]) };
}

export function checkMachineId(id: string): string {
  if (!machineId.test(id))
    throw new LifelineError("INVALID_ID", `invalid machine id ${shortQuote(id)}: expected "<n>" or a container id such as "1/lxd/0"`);
  return id;
}

export function checkSeries(series: string): string {
  if (!seriesName.test(series))
    throw new LifelineError("INVALID_ARGUMENT", `invalid series ${shortQuote(series)}: expected a name such as "jammy" or "noble"`);
  return series;
}

export function isRelationName(name: string) {
  return relationName.test(name);
}
