// Issue 32, point 2: "Any web page on the host can act as the admin." A browser sends the session cookie with a
// request from any page on the host (SameSite does not separate ports), so the server tells its own pages from the
// others by their origin: CORS for none but an allow-list, the cookie only from the server's own pages or the list,
// WebSocket upgrades from the same. Scripts and agents, which send a bearer token and name no page, are not affected.
// A real server on a real port; fetch and ws send the headers a browser would.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { Store } from "../src/db/connect.js";
import { type RunningServer, startServer } from "../src/server/app.js";
import { configFromEnv } from "../src/server/config.js";
import { logIn, postFrom } from "./support/browser.js";
import { adminHeaders, openPrivateTestStore, uniqueName } from "./support/store.js";

const ALLOWED = "http://console.example:8080";
const PUBLIC_URL = "https://lifeline.example/";
const FOREIGN = "http://127.0.0.1:9999"; // a page on the same host, another port: the attacker
const VIEWER = `{ viewer { kind role } }`;
const ADD_MODEL = `mutation ($name: String!) { addModel(input: { name: $name }) { name } }`;

let store: Store;
/** On defaults: the server's own pages only. */
let plain: RunningServer;
/** With LIFELINE_ALLOWED_ORIGINS and LIFELINE_PUBLIC_URL. */
let configured: RunningServer;
let cookie: string;

beforeAll(async () => {
  store = await openPrivateTestStore();
  plain = await startServer(store, "127.0.0.1", 0);
  configured = await startServer(store, "127.0.0.1", 0, { origins: { allowedOrigins: [ALLOWED], publicUrl: PUBLIC_URL } });
  cookie = await logIn(store.db, plain.url);
});
afterAll(async () => {
  await plain?.close();
  await configured?.close();
  await store?.close();
});

const own = (server: RunningServer) => new URL(server.url).origin;

const preflight = (server: RunningServer, origin: string) =>
  fetch(server.url, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
  });

const modelExists = async (name: string) =>
  (await postFrom(plain.url, adminHeaders, `query ($name: String!) { model(name: $name) { name } }`, { name })).codes.length === 0;

/** Opens a WebSocket to `server` with these headers; resolves with the upgrade's answer: open, or refused with a status and body. */
const upgrade = (server: RunningServer, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const socket = new WebSocket(server.url.replace(/^http/, "ws"), "graphql-transport-ws", { headers });
    socket.on("open", () => {
      socket.close();
      resolve({ status: 101, body: "" });
    });
    socket.on("unexpected-response", (_request, response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.on("error", reject);
  });

describe("CORS", () => {
  it("off by default: a preflight from another origin is told nothing (no access-control-allow-origin, no credentials)", async () => {
    const response = await preflight(plain, FOREIGN);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("an origin in LIFELINE_ALLOWED_ORIGINS is allowed, with credentials", async () => {
    const response = await preflight(configured, ALLOWED);
    expect(response.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(response.headers.get("access-control-allow-credentials")).toBe("true");
  });

  it("with an allow-list, an origin not on it is still told nothing", async () => {
    const response = await preflight(configured, FOREIGN);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("requests the session cookie authenticates", () => {
  it("from another page on the host are refused FORBIDDEN, 403, and run nothing", async () => {
    const name = uniqueName();
    const refused = await postFrom(plain.url, { cookie, origin: FOREIGN }, ADD_MODEL, { name });
    expect(refused.status).toBe(403);
    expect(refused.codes).toEqual(["FORBIDDEN"]);
    expect(refused.body.data ?? null).toBeNull();
    expect(await modelExists(name)).toBe(false);
  });

  it("from the server's own page (GraphiQL) run", async () => {
    const answered = await postFrom(plain.url, { cookie, origin: own(plain) }, VIEWER);
    expect(answered.body).toEqual({ data: { viewer: { kind: "person", role: "ADMIN" } } });
  });

  it("from an origin in LIFELINE_ALLOWED_ORIGINS, or LIFELINE_PUBLIC_URL's, run", async () => {
    for (const origin of [ALLOWED, new URL(PUBLIC_URL).origin, own(configured)])
      expect((await postFrom(configured.url, { cookie, origin }, VIEWER)).codes, origin).toEqual([]);
  });

  it("an Origin of null (a sandboxed page, a file) is refused", async () => {
    expect((await postFrom(plain.url, { cookie, origin: "null" }, VIEWER)).codes).toEqual(["FORBIDDEN"]);
  });

  it("without an Origin, Sec-Fetch-Site says where the page is: same-origin and none (opened by the person) run, same-site and cross-site are refused", async () => {
    const codes = async (site: string) => (await postFrom(plain.url, { cookie, "sec-fetch-site": site }, VIEWER)).codes;
    expect(await codes("same-origin")).toEqual([]);
    expect(await codes("none")).toEqual([]);
    expect(await codes("same-site")).toEqual(["FORBIDDEN"]);
    expect(await codes("cross-site")).toEqual(["FORBIDDEN"]);
  });

  it("without Origin or Sec-Fetch-Site, the Referer's origin is held to the same rule", async () => {
    expect((await postFrom(plain.url, { cookie, referer: `${FOREIGN}/attack.html` }, VIEWER)).codes).toEqual(["FORBIDDEN"]);
    expect((await postFrom(plain.url, { cookie, referer: `${own(plain)}/graphql` }, VIEWER)).codes).toEqual([]);
  });

  it("naming no page at all (not a browser: a script holding the cookie) run", async () => {
    expect((await postFrom(plain.url, { cookie }, VIEWER)).codes).toEqual([]);
  });
});

describe("requests with a bearer token", () => {
  it("run from any origin, the session cookie beside them or not (scripts, agents, another site's own client)", async () => {
    const pages: Record<string, string>[] = [{ origin: FOREIGN }, { origin: FOREIGN, cookie }, { origin: "null" }];
    for (const headers of pages) expect((await postFrom(plain.url, { ...headers, ...adminHeaders }, VIEWER)).codes).toEqual([]);
  });
});

describe("WebSocket upgrades", () => {
  it("from another page on the host are refused 403 with FORBIDDEN in a JSON body, whatever the credentials", async () => {
    const credentials: Record<string, string>[] = [{ cookie }, adminHeaders];
    for (const headers of credentials.map((given) => ({ origin: FOREIGN, ...given }))) {
      const { status, body } = await upgrade(plain, headers);
      expect(status).toBe(403);
      expect(JSON.parse(body).errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(["FORBIDDEN"]);
    }
  });

  it("from the server's own page, an allowed origin, or no page (agents) are accepted", async () => {
    expect((await upgrade(plain, { origin: own(plain), cookie })).status).toBe(101);
    expect((await upgrade(configured, { origin: ALLOWED, cookie })).status).toBe(101);
    expect((await upgrade(plain, {})).status).toBe(101);
  });
});

describe("configuration", () => {
  it("LIFELINE_ALLOWED_ORIGINS takes comma-separated origins; anything else (a path, a wildcard) stops the start", () => {
    const origins = (value: string) => configFromEnv({ LIFELINE_ALLOWED_ORIGINS: value }).origins.allowedOrigins;
    expect(origins("")).toEqual([]);
    expect(origins(" https://a.example, http://b.example:8080/ ")).toEqual(["https://a.example", "http://b.example:8080"]);
    expect(() => origins("https://a.example/console")).toThrow(/LIFELINE_ALLOWED_ORIGINS/);
    expect(() => origins("*")).toThrow(/LIFELINE_ALLOWED_ORIGINS/);
  });

  it("LIFELINE_PUBLIC_URL is an http(s) URL", () => {
    expect(configFromEnv({ LIFELINE_PUBLIC_URL: PUBLIC_URL }).origins.publicUrl).toBe(PUBLIC_URL);
    expect(() => configFromEnv({ LIFELINE_PUBLIC_URL: "lifeline.example" })).toThrow(/LIFELINE_PUBLIC_URL/);
  });
});
