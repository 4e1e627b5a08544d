// LISTEN on one channel, on a PostgreSQL connection of its own, kept listening across
// whatever happens to the connection: when it closes (terminated, reset, the server
// restarted or failed over), the LISTEN is sent again on a new one, and again every
// reconnect backoff until it is answered. `onListening` runs each time it is, since
// notifications sent while nobody listened are gone and the caller must catch up.
//
// postgres.js's own `listen` sends the LISTEN again once on a close and forgets the
// channel if that one attempt fails (the server still down, say): its listeners then
// never hear anything again. This keeps trying.
import postgres from "postgres";
import { driverConnection, reconnectBackoff } from "./server.js";

export interface Listening {
  close(): Promise<void>;
}

/** Resolves once the first LISTEN is answered (so a caller starts knowing it hears everything from then on). */
export async function listenOnServer(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onListening: () => void,
): Promise<Listening> {
  let closing = false;
  let subscribing: Promise<void> | null = null;
  // postgres.js calls `onnotify` for every notification on a connection (its types leave the option out).
  const driver = driverConnection(url);
  const options: postgres.Options<Record<string, postgres.PostgresType>> & { onnotify: (channel: string, payload: string) => void } = {
    ...driver.options,
    max: 1,
    // Never closed by postgres.js for being idle or old: a LISTEN lives as long as its session.
    idle_timeout: 0,
    max_lifetime: 0,
    fetch_types: false,
    onnotify: (heard, payload) => {
      if (heard === channel) onNotify(payload);
    },
    onclose: () => {
      if (!closing) void subscribe();
    },
  };
  const sql = postgres(driver.url, options);
  const listenStatement = `listen "${channel.replace(/"/g, '""')}"`;

  const subscribe = (): Promise<void> => {
    subscribing ??= (async () => {
      for (let attempt = 0; !closing; attempt++) {
        try {
          await sql.unsafe(listenStatement);
          if (!closing) onListening();
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, reconnectBackoff(attempt) * 1000).unref());
        }
      }
    })().finally(() => {
      subscribing = null;
    });
    return subscribing;
  };

  // The first LISTEN must succeed: the store has just connected, so a failure here is the caller's to hear.
  await sql.unsafe(listenStatement).catch(async (error) => {
    await sql.end({ timeout: 0 });
    throw error;
  });
  onListening();
  return {
    async close() {
      closing = true;
      await sql.end({ timeout: 1 });
    },
  };
}
