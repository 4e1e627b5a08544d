// `lifeline status --watch`: the status, redrawn from the `changes` stream (never polled). Changes are merged into a
// WatchView and drawn at most once per REDRAW_MS. Blockers and endpoints' roles are not in the stream: they are read
// (CliWatchAnnotations) once per redraw, and only when the view says they may have moved (something not Alive, or an
// integration changed), so a settling model costs no queries. On a terminal the screen is redrawn in place; in a pipe
// each redraw is a block of its own, after a header line.
import { stringify } from "yaml";
import { ChangesDocument, CliWatchAnnotationsDocument } from "../client/graphql.js";
import { request, type Server } from "./api.js";
import { colours } from "./colour.js";
import { statusView, tabular } from "./status-view.js";
import { follow } from "./stream.js";
import { WATCHED_KINDS, WatchView } from "./watch-view.js";

export type StatusFormat = "tabular" | "yaml" | "json";

/**
 * At most one redraw per this many ms. The first change after a quiet spell is drawn at once (on the next turn of the
 * event loop, so that a write's changes, arriving together, are drawn together); changes within the window after a
 * redraw are drawn together at its end.
 */
const REDRAW_MS = 200;

const CLEAR = "\u001b[H\u001b[2J";
const clock = () => new Date().toISOString().slice(11, 19);

export async function watchStatus(server: Server, model: string, names: string[], format: StatusFormat): Promise<void> {
  const terminal = process.stdout.isTTY === true;
  const view = new WatchView();
  /** The connection's state on a terminal's header: why it was lost, or when it came back. */
  let connection = "";
  let timer: NodeJS.Timeout | undefined;
  let drawing = false;
  let pending = false;
  let stopped = false;
  let drawnAt = 0;

  const render = () => {
    const input = view.input();
    if (!input) return;
    const status = statusView(input, names);
    const body =
      format === "json"
        ? `${JSON.stringify(status, null, 2)}\n`
        : format === "yaml"
          ? stringify(status, { aliasDuplicateObjects: false })
          : tabular(status, colours());
    const header = `${clock()}  model ${model} at revision ${view.revision}  watching, Ctrl-C to stop`;
    if (terminal) process.stdout.write(`${CLEAR}${header}\n${connection ? `${connection}\n` : ""}\n${body}`);
    else process.stdout.write(`\n--- ${header}\n${body}`);
  };

  const redraw = async () => {
    timer = undefined;
    if (stopped) return;
    if (drawing) {
      pending = true;
      return;
    }
    drawing = true;
    try {
      if (view.stale) {
        view.stale = false;
        const data = await request(server, CliWatchAnnotationsDocument, { model }).catch(() => null);
        if (data?.model) view.annotate(data.model);
        else view.stale = true; // not reached this time: read them at the next redraw
      }
      if (!stopped) {
        drawnAt = Date.now();
        render();
      }
    } finally {
      drawing = false;
      if (pending) {
        pending = false;
        schedule();
      }
    }
  };
  const schedule = () => {
    timer ??= setTimeout(redraw, Math.max(0, drawnAt + REDRAW_MS - Date.now()));
  };

  const following = follow(server, ChangesDocument, { model, kinds: WATCHED_KINDS }, (data) => data.changes, {
    reset: () => view.reset(),
    event: (event) => {
      if (view.apply(event)) schedule();
    },
    connection: (state, detail) => {
      const line = state === "lost" ? `connection lost at ${clock()}: ${detail}; retrying` : `connection resumed at ${clock()}`;
      if (!terminal) return void process.stdout.write(`${line}\n`);
      connection = line;
      render();
    },
  });
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    void following.stop();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await following.ended;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    clearTimeout(timer);
  }
}
