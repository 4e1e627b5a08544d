// The built-in dummy cloud, for an admin: what it offers, what runs on it, and
// the faults to inject (transient start failures, refused constraints, lost
// hardware), so tests outside the process and demos can exercise the agents.
import { LifelineError } from "../../core/errors.js";
import type { DummyDescription } from "../../provider/dummy.js";
import type { Instance } from "../../provider/provider.js";
import { builder } from "../builder.js";
import type { CloudControl, Context } from "../context.js";

const cloudOf = (ctx: Context): CloudControl => {
  if (!ctx.provider)
    throw new LifelineError("NOT_FOUND", "no cloud runs in this process (LIFELINE_AGENTS=0)", { kind: "cloud", id: "dummy" });
  return ctx.provider;
};

/** The dummy's own complaints about an argument (a bad count, rule or instance id) are the caller's to fix. */
async function asked<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof RangeError) throw new LifelineError("INVALID_ARGUMENT", error.message);
    throw error;
  }
}

const HardwareRef = builder.objectRef<Instance["hardware"]>("InstanceHardware").implement({
  fields: (t) => ({
    arch: t.exposeString("arch"),
    cores: t.exposeInt("cores"),
    cpuPower: t.exposeInt("cpuPower"),
    mem: t.exposeInt("mem", { description: "MiB." }),
    rootDisk: t.exposeInt("rootDisk", { description: "MiB." }),
    instanceType: t.exposeString("instanceType"),
    zone: t.exposeString("zone"),
    tags: t.exposeStringList("tags"),
  }),
});

const InstanceRef = builder.objectRef<Instance>("Instance").implement({
  description: "An instance of the cloud, and the machine it was started for.",
  fields: (t) => ({
    id: t.exposeString("id"),
    model: t.exposeString("model"),
    machineId: t.exposeString("machineId"),
    series: t.exposeString("series"),
    status: t.exposeString("status", { description: '"running" or "lost" (failed hardware).' }),
    addresses: t.exposeStringList("addresses", { description: "Private first, then public." }),
    hardware: t.expose("hardware", { type: HardwareRef }),
  }),
});

const InstanceTypeRef = builder.objectRef<DummyDescription["instanceTypes"][number]>("InstanceType").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    arch: t.exposeString("arch"),
    cores: t.exposeInt("cores"),
    cpuPower: t.exposeInt("cpuPower"),
    mem: t.exposeInt("mem", { description: "MiB." }),
    rootDisk: t.exposeInt("rootDisk", { description: "MiB." }),
    tags: t.exposeStringList("tags"),
  }),
});

const CloudRef = builder.objectRef<DummyDescription>("Cloud").implement({
  description: "The cloud the provisioners start instances in: Lifeline's built-in dummy.",
  fields: (t) => ({
    name: t.exposeString("name"),
    instanceTypes: t.field({ type: [InstanceTypeRef], resolve: (c) => [...c.instanceTypes] }),
    zones: t.exposeStringList("zones"),
    instances: t.field({ type: [InstanceRef], resolve: (c) => c.instances }),
    failingStarts: t.exposeInt("failingStarts", { description: "Starts still to fail transiently." }),
    failureMessage: t.exposeString("failureMessage"),
    refusing: t.exposeString("refusing", { nullable: true, description: "The constraints whose starts are refused, if any." }),
  }),
});

builder.queryField("cloud", (t) =>
  t.field({
    type: CloudRef,
    description: "Admin: the dummy cloud's catalog, instances and armed faults.",
    authScopes: { person: "admin" },
    resolve: (_root, _args, ctx) => cloudOf(ctx).describe(),
  }),
);

builder.mutationFields((t) => ({
  failNextStarts: t.field({
    type: CloudRef,
    description: "Admin: the next `count` instance starts fail transiently (a cloud out of capacity); 0 disarms.",
    args: { count: t.arg.int({ required: true }), message: t.arg.string() },
    authScopes: { person: "admin" },
    resolve: async (_root, args, ctx) => {
      const cloud = cloudOf(ctx);
      await asked(() => (args.message ? cloud.failNextStarts(args.count, args.message.slice(0, 500)) : cloud.failNextStarts(args.count)));
      return cloud.describe();
    },
  }),
  refuseConstraints: t.field({
    type: CloudRef,
    description:
      'Admin: starts asking for at least these constraints fail permanently ("mem=64G", "arch=arm64 tags=gpu"); null stops refusing.',
    args: { constraints: t.arg.string() },
    authScopes: { person: "admin" },
    resolve: async (_root, args, ctx) => {
      const cloud = cloudOf(ctx);
      await asked(() => cloud.refuseConstraints(args.constraints ?? null));
      return cloud.describe();
    },
  }),
  loseInstance: t.field({
    type: InstanceRef,
    description: "Admin: the instance's hardware fails (its agent stops; the provisioner reports the machine in error).",
    args: { id: t.arg.string({ required: true }) },
    authScopes: { person: "admin" },
    resolve: (_root, args, ctx) => asked(() => cloudOf(ctx).loseInstance(args.id)),
  }),
}));
