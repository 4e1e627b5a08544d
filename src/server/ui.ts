// The status page (src/ui) at `/`, its assets under /ui/, for a browser logged in by the login link's session cookie.
// The bundle is built in memory by esbuild the first time a process serves it, then kept: no build step, no build
// output to go stale beside the sources, and no internet (Preact and graphql-ws are bundled from node_modules).
// esbuild is already what runs the server (tsx): its binary is there wherever `npm start` works.
import type { IncomingMessage, ServerResponse } from "node:http";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { LOGIN_PATH } from "./login.js";

export const UI_PATH = "/";
export const UI_ASSETS = "/ui/";

interface Asset {
  type: string;
  body: Uint8Array;
}

const ENTRY = fileURLToPath(new URL("../ui/main.tsx", import.meta.url));
const TYPES: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };

let bundle: Promise<Map<string, Asset>> | undefined;

/** The page's assets by name (app.js, app.css): built once a process, on first use. */
export function uiAssets(): Promise<Map<string, Asset>> {
  bundle ??= buildAssets().catch((error) => {
    bundle = undefined; // the next request tries again
    throw error;
  });
  return bundle;
}

async function buildAssets(): Promise<Map<string, Asset>> {
  const result = await build({
    entryPoints: [ENTRY],
    entryNames: "app",
    bundle: true,
    write: false,
    outdir: "/ui",
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    jsx: "automatic",
    jsxImportSource: "preact",
    logLevel: "silent",
  });
  const assets = new Map<string, Asset>();
  for (const file of result.outputFiles) {
    const name = basename(file.path);
    assets.set(name, { type: TYPES[name.slice(name.lastIndexOf("."))] ?? "application/octet-stream", body: file.contents });
  }
  return assets;
}

/** Only the server's own scripts, styles and socket; no page may frame it. */
const HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

const SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lifeline status</title>
<link rel="stylesheet" href="${UI_ASSETS}app.css">
<script type="module" src="${UI_ASSETS}app.js"></script>
</head>
<body><div id="app"></div></body>
</html>
`;

/** Said to a browser without a session: how to get one, and nothing of any model. */
const LOG_IN = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Lifeline: log in</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:40em;margin:4em auto;padding:0 1em}code{background:#eee;padding:0 .3em}</style>
</head>
<body>
<h1>Log in to Lifeline</h1>
<p id="login-needed">This browser has no Lifeline session (or it ended). Open the login link <code>npm start</code> printed
(<code>${LOGIN_PATH}?code=…</code>): it works once, for a while; restart the server for a new one.</p>
<p>Scripts and the <code>lifeline</code> command use a bearer token instead.</p>
</body>
</html>
`;

/** True for the paths this module answers. */
export const servesUi = (path: string | undefined) => path === UI_PATH || (path?.startsWith(UI_ASSETS) ?? false);

/** Answers `/` and /ui/… : the page and its assets to a logged-in browser, how to log in to any other. */
export async function answerUi(
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
  loggedIn: (req: IncomingMessage) => Promise<boolean>,
) {
  try {
    if (!(await loggedIn(req))) {
      if (path === UI_PATH) res.writeHead(401, { ...HEADERS, "content-type": "text/html; charset=utf-8" }).end(LOG_IN);
      else res.writeHead(401, { ...HEADERS, "content-type": "text/plain; charset=utf-8" }).end("log in first: open the login link\n");
      return;
    }
    if (path === UI_PATH) {
      res.writeHead(200, { ...HEADERS, "content-type": "text/html; charset=utf-8" }).end(SHELL);
      return;
    }
    const asset = (await uiAssets()).get(path.slice(UI_ASSETS.length));
    if (!asset) res.writeHead(404, { ...HEADERS, "content-type": "text/plain; charset=utf-8" }).end("not found\n");
    else res.writeHead(200, { ...HEADERS, "content-type": asset.type }).end(asset.body);
  } catch (error) {
    // The store out of reach (the session is read from it), or the bundle failed to build: said, not a dropped socket.
    if (!res.headersSent) res.writeHead(503, { "content-type": "text/plain; charset=utf-8" });
    res.end(`the status page is unavailable: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
