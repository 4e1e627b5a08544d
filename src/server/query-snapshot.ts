// Each GraphQL query reads one moment (src/db/one-moment.ts), over HTTP, SSE and graphql-ws
// alike: they all execute through yoga's envelop pipeline. Its resolvers and dataloaders
// read through the context's `db`, which is, for the query's execution, the moment's handle;
// sign-in (the context's token lookup) reads before, outside it. Mutations are left as they
// are: each field is its own transaction, and the selection on its result is read after the
// commit, at the moment each read runs. Subscriptions read their snapshots themselves.
import { type ExecutionArgs, type ExecutionResult, GraphQLError, getOperationAST } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Database } from "../db/connect.js";
import { atOneMoment } from "../db/one-moment.js";
import type { Context } from "../graphql/context.js";
import { unavailable } from "../model/index.js";

export function useQuerySnapshot(db: Database): Plugin<Context> {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== "query") return;
      setExecuteFn(
        (execution: ExecutionArgs) =>
          new Promise((resolve, reject) => {
            const context = execution.contextValue as Context;
            let answered = false;
            atOneMoment(db, async (moment) => {
              const answer = await executeFn({ ...execution, contextValue: { ...context, db: moment } });
              // The answer is complete: it goes while the read-only COMMIT is on its way (the slot is held until it is back).
              answered = true;
              resolve(answer);
            }).catch((error: unknown) => {
              // Read, then the COMMIT lost with its connection: the reads stand (their own errors say UNAVAILABLE).
              if (answered) return;
              try {
                resolve(outageAnswer(error));
              } catch (unexpected) {
                reject(unexpected);
              }
            });
          }),
      );
    },
  };
}

/** No moment to read in (the database out of reach as the query began): UNAVAILABLE, as any read would have said. */
function outageAnswer(error: unknown): ExecutionResult {
  const outage = unavailable(error);
  if (!outage) throw error;
  return {
    errors: [
      new GraphQLError(outage.message, { originalError: error instanceof Error ? error : undefined, extensions: outage.extensions }),
    ],
  };
}
