// GraphiQL in a real browser: the page served on GET /graphql must load all of
// its assets from the server itself (no CDN: it has to work air-gapped) and
// must be able to run a query against the API.
//
// Uses Debian's chromium through playwright-core. Without a chromium binary the
// test is skipped with a reason, unless LIFELINE_REQUIRE_BROWSER=1 (as in CI),
// in which case it fails.
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LifelineError } from "../src/core/errors.js";
import type { Store } from "../src/db/connect.js";
import { addModel, bootstrap, createLoginCode, DEFAULT_MODEL, modelNamed } from "../src/model/index.js";
import { LOGIN_PATH, type RunningServer, startServer } from "../src/server/app.js";
import { openPrivateTestStore } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

const chromiumPath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const browserRequired = process.env.LIFELINE_REQUIRE_BROWSER === "1";
const haveChromium = existsSync(chromiumPath);
const skipReason = `no chromium at ${chromiumPath} (set CHROMIUM_PATH, or install Debian's chromium); LIFELINE_REQUIRE_BROWSER=1 makes this a failure`;

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** True for URLs that leave the machine: http(s)/ws(s) to any non-loopback host. */
function isRemote(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return true;
  }
  // blob: and data: URLs (GraphiQL's Monaco workers) never touch the network.
  if (parsed.protocol === "blob:" || parsed.protocol === "data:" || parsed.protocol === "about:") return false;
  return !LOCAL_HOSTS.has(parsed.hostname);
}

const QUERY = `{ model(name: "default") { name machines { edges { node { id } } } } }`;
const DEADLINE_MS = scaled(20_000);

describe("GraphiQL", () => {
  let store: Store | undefined;
  let server: RunningServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!haveChromium) return;
    store = await openPrivateTestStore();
    await bootstrap(store.db);
    // bootstrap is a no-op when any model exists, which on a shared PostgreSQL
    // database (DATABASE_URL) other test files may already have created.
    try {
      await modelNamed(store.db, DEFAULT_MODEL);
    } catch (error) {
      if (!(error instanceof LifelineError && error.code === "NOT_FOUND")) throw error;
      await addModel(store.db, { name: DEFAULT_MODEL });
    }
    server = await startServer(store, "127.0.0.1", 0);
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  it("GraphiQL served from bundled assets runs a query in a real browser", async (ctx) => {
    if (!haveChromium) {
      if (browserRequired) throw new Error(`LIFELINE_REQUIRE_BROWSER=1 but ${skipReason}`);
      console.warn(`skipping GraphiQL browser test: ${skipReason}`);
      ctx.skip(skipReason);
    }

    const context = await browser!.newContext();
    try {
      const requested: string[] = [];
      const remote: string[] = [];
      context.on("request", (request) => {
        requested.push(request.url());
        if (isRemote(request.url())) remote.push(request.url());
      });
      // Belt and braces: anything bound off the machine is recorded and refused,
      // so the test never depends on (or waits for) the outside network.
      await context.route(
        (url) => isRemote(url.href),
        (route) => {
          remote.push(route.request().url());
          return route.abort("blockedbyclient");
        },
      );
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(String(error)));

      // The login link `npm start` prints logs the browser in (a session cookie) and lands on the status page; GraphiQL
      // is a link from there.
      const login = new URL(LOGIN_PATH, server!.url);
      login.searchParams.set("code", await createLoginCode(store!.db));
      const landed = await page.goto(login.toString());
      expect(landed?.url()).toBe(new URL("/", server!.url).href);

      // GraphiQL takes the initial query from the page URL's ?query= parameter.
      const response = await page.goto(`${server!.url}?query=${encodeURIComponent(QUERY)}`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-type"]).toMatch(/text\/html/);

      // Wait until the editor holds our query, then run it.
      const editor = page.locator(".graphiql-query-editor");
      await expect.poll(async () => text(await editor.innerText()), { timeout: DEADLINE_MS }).toContain('model(name: "default")');
      await page.getByRole("button", { name: /^Execute query/ }).click({ timeout: DEADLINE_MS });

      const result = page.locator(".graphiql-response");
      await expect.poll(async () => text(await result.innerText()), { timeout: DEADLINE_MS, interval: 100 }).toContain('"name": "default"');
      const shown = text(await result.innerText());
      expect(shown).toMatch(/"id":\s*"0"/);
      expect(shown).not.toContain('"errors"');

      expect(remote, `requests to non-local hosts: ${remote.join(", ")}`).toEqual([]);
      expect(requested.some((url) => url.startsWith(server!.url))).toBe(true);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** Monaco renders spaces as non-breaking spaces; compare as plain text. */
const text = (s: string) => s.replace(/\u00a0/g, " ");
