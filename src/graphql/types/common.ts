// Small shared types: constraints, status, and key/value settings as inputs.
import { type Constraints, formatConstraints } from "../../model/index.js";
import { builder } from "../builder.js";

export const ConstraintsRef = builder.objectRef<Constraints>("Constraints").implement({
  description: "Juju constraints. Sizes are in megabytes (MiB); an empty list or zero means explicitly unconstrained.",
  fields: (t) => ({
    text: t.string({ description: 'In Juju\'s syntax, e.g. "cores=2 mem=4G"; empty when none are set.', resolve: formatConstraints }),
    arch: t.exposeString("arch", { nullable: true }),
    container: t.exposeString("container", { nullable: true }),
    cores: t.exposeInt("cores", { nullable: true }),
    cpuPower: t.exposeInt("cpuPower", { nullable: true }),
    instanceType: t.exposeString("instanceType", { nullable: true }),
    mem: t.exposeInt("mem", { nullable: true, description: "Memory in MiB." }),
    rootDisk: t.exposeInt("rootDisk", { nullable: true, description: "Root disk in MiB." }),
    tags: t.exposeStringList("tags", { nullable: true }),
    zones: t.exposeStringList("zones", { nullable: true }),
  }),
});

export interface StatusShape {
  current: string;
  message: string;
  since: Date;
}

export const StatusRef = builder.objectRef<StatusShape>("Status").implement({
  fields: (t) => ({
    current: t.exposeString("current", { description: 'e.g. "pending", "started", "waiting", "active", "error".' }),
    message: t.exposeString("message"),
    since: t.expose("since", { type: "DateTime" }),
  }),
});

/** A key and its value: a relation setting a hook writes, or a config option in `juju config`'s string form. */
export const SettingInput = builder.inputType("SettingInput", {
  fields: (t) => ({ key: t.string({ required: true }), value: t.string({ required: true }) }),
});
