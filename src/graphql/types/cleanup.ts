// The cleaner's operation (seed 001 "Agents"): it runs the cleanups removals queue, on each model's manager machine.
import { type CleanupReport, runCleanups } from "../../model/index.js";
import { builder } from "../builder.js";

const CleanupReportRef = builder.objectRef<CleanupReport>("CleanupReport").implement({
  fields: (t) => ({
    batches: t.exposeInt("batches", { description: "Bounded transactions run." }),
    finished: t.exposeInt("finished"),
    failed: t.exposeInt("failed", {
      description: "Cleanup runs that failed; each is retried later, with backoff, and shows as a blocker with its error meanwhile.",
    }),
    remaining: t.exposeInt("remaining", { description: "Cleanups still queued (waiting on agents, or not yet due)." }),
  }),
});

builder.mutationFields((t) => ({
  runCleanups: t.field({
    type: CleanupReportRef,
    description: "Cleaner: run the due cleanups (of one model, or all), each in bounded batches.",
    args: { model: t.arg.string(), maxBatches: t.arg.int() },
    // The cleaner runs on a model's manager machine; cleaning every model at once is for people.
    authScopes: (_root, args) => (args.model ? { provisioner: { model: args.model } } : { person: "operator" }),
    resolve: (_root, args, ctx) => runCleanups(ctx.db, args),
  }),
}));
