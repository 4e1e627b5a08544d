// The status page (`/`) in a real browser, against a real `npm start` whose agents settle what the lifeline command
// asks for: the page shows machine 0, then a deploy, an integrate and a removal as they happen. Screenshots of each
// step go to a temporary directory (their paths are printed), to be looked at by eye.
//
// Debian's chromium through playwright-core, as test/graphiql.test.ts: skipped without it unless LIFELINE_REQUIRE_BROWSER=1.
// Without a session, `/` says how to log in and shows nothing of any model: that part needs no browser.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type WebSocketRoute } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../src/db/connect.js";
import { addModel, addUnit, createLoginCode, deploy, MAX_UNITS_PER_REQUEST_IN_PROCESS } from "../src/model/index.js";
import { LOGIN_PATH, type RunningServer, startServer } from "../src/server/app.js";
import { type CliServer, cliConfigHome, runCli, startCli, startCliServer } from "./support/lifeline-cli.js";
import { openPrivateTestStore } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

const chromiumPath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const browserRequired = process.env.LIFELINE_REQUIRE_BROWSER === "1";
const haveChromium = existsSync(chromiumPath);
const skipReason = `no chromium at ${chromiumPath} (set CHROMIUM_PATH, or install Debian's chromium); LIFELINE_REQUIRE_BROWSER=1 makes this a failure`;

/** The most units one call may add on PGlite. */
const UNITS_A_CALL = MAX_UNITS_PER_REQUEST_IN_PROCESS;

/** What the agents do (provision, run hooks) takes a while on two shared cores. */
const SETTLED_MS = scaled(60_000);

let server: CliServer;
let base: string;
let browser: Browser | undefined;
const config = cliConfigHome();
const lifeline = async (...args: string[]) => {
  const run = await runCli(config, args, server.env);
  expect(run.code, `lifeline ${args.join(" ")}: ${run.stdout}${run.stderr}`).toBe(0);
  return run;
};

beforeAll(async () => {
  server = await startCliServer();
  base = new URL("/", server.url).href;
  if (haveChromium)
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
    });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the status page without a session", () => {
  it("says how to log in, with 401, and nothing of any model; its assets are refused too", async () => {
    const page = await fetch(base);
    expect(page.status).toBe(401);
    const body = await page.text();
    expect(body).toContain("Log in to Lifeline");
    expect(body).toContain("/login?code=");
    expect(body).not.toMatch(/default|machine 0|<script/);
    const script = await fetch(new URL("/ui/app.js", base));
    expect(script.status).toBe(401);
    expect(await script.text()).not.toContain("graphql");
  });

  it("a stale cookie gets the same answer", async () => {
    const page = await fetch(base, { headers: { cookie: "lifeline_token=llt_not-a-session" } });
    expect(page.status).toBe(401);
    expect(await page.text()).toContain("Log in to Lifeline");
  });
});

describe("the status page in a browser", () => {
  /** One browser, logged in once by the printed link (it works once), for every test here. */
  let context: BrowserContext;
  const remote: string[] = [];
  /** The page's sockets to /graphql, passed through to the server; a test closes one to drop the connection. */
  const sockets: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
  /** The variables of each `changes` subscription a page sent. */
  const subscribed: { since?: string | null }[] = [];

  beforeAll(async () => {
    if (!browser) return;
    context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.route(
      (url) => !["127.0.0.1", "localhost"].includes(url.hostname) && url.protocol !== "data:",
      (route) => {
        remote.push(route.request().url());
        return route.abort("blockedbyclient");
      },
    );
    await context.routeWebSocket(/\/graphql$/, (socket) => {
      const toServer = socket.connectToServer();
      socket.onMessage((message) => {
        const sent = JSON.parse(String(message));
        if (sent.type === "subscribe" && String(sent.payload?.query).includes("subscription Changes"))
          subscribed.push(sent.payload.variables);
        toServer.send(message);
      });
      sockets.push({ page: socket, server: toServer });
    });
  });

  afterAll(async () => {
    await context?.close();
  });

  const needsBrowser = (ctx: { skip(note: string): void }) => {
    if (browser) return;
    if (browserRequired) throw new Error(`LIFELINE_REQUIRE_BROWSER=1 but ${skipReason}`);
    console.warn(`skipping the status page's browser test: ${skipReason}`);
    ctx.skip(skipReason);
  };

  it("shows machine 0, then a deploy, an integrate and a removal as they happen", { timeout: scaled(240_000) }, async (ctx) => {
    needsBrowser(ctx);
    const shots = mkdtempSync(join(tmpdir(), "lifeline-status-page-"));
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    const shot = async (name: string) => {
      const path = join(shots, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      console.log(`status page screenshot: ${path}`);
    };
    try {
      // The link `npm start` printed logs the browser in and lands on the page.
      const link = (await server.process.until(/open the status page logged in as an admin .*?: (http[^\s"]+)/))[1]!;
      await page.goto(link);
      expect(page.url()).toBe(base);
      await expect.poll(() => page.locator("[data-link]").getAttribute("data-link"), { timeout: SETTLED_MS }).toBe("live");
      await page.locator('[data-machine="0"]').waitFor({ timeout: SETTLED_MS });
      await expect.poll(() => page.locator('[data-machine="0"] .status').innerText(), { timeout: SETTLED_MS }).toMatch(/started/);
      await expect(page.getByRole("link", { name: "GraphiQL" }).getAttribute("href")).resolves.toBe("/graphql");
      await shot("1-machine-0");

      // Provisioning you can see: what a machine's instance was asked for, its failed starts and the provider's error.
      await lifeline("add-machine", "--constraints", "mem=1024G");
      const unprovisionable = page.locator('[data-machine="1"]');
      await expect.poll(() => unprovisionable.locator(".status").innerText(), { timeout: SETTLED_MS }).toMatch(/^error/);
      expect(await unprovisionable.locator(".constraints").innerText()).toBe("mem=1T");
      expect(await unprovisionable.locator(".error").innerText()).toMatch(/no instance type satisfies mem=1T/);
      await lifeline("remove-machine", "1");

      // Every status a unit row shows, as the page draws it (it may pass through some between two polls).
      await page.evaluate(() => {
        const seen: Record<string, string[]> = {};
        (window as any).seen = seen;
        const record = () => {
          for (const row of document.querySelectorAll<HTMLElement>("[data-unit]")) {
            const unit = row.dataset.unit!;
            const value = `${row.dataset.life}:${row.dataset.status}`;
            seen[unit] ??= [];
            const values = seen[unit];
            if (values.at(-1) !== value) values.push(value);
          }
        };
        new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      const seen = (unit: string): Promise<string[]> => page.evaluate((u) => (window as any).seen[u] ?? [], unit);

      await lifeline("deploy", "wordpress");
      await page.locator('[data-application="wordpress"]').waitFor({ timeout: SETTLED_MS });
      await page.locator('[data-unit="wordpress/0"]').waitFor({ timeout: SETTLED_MS });
      await shot("2-wordpress-deployed");
      // Without a database, wordpress says it is blocked: its status moved on screen, from before its hooks ran.
      await expect
        .poll(() => page.locator('[data-unit="wordpress/0"]').getAttribute("data-status"), { timeout: SETTLED_MS })
        .toBe("blocked");
      expect((await seen("wordpress/0")).length).toBeGreaterThan(1);
      await expect.poll(() => page.locator('[data-application="wordpress"] .node-detail').textContent()).toBe("1 unit");
      await expect.poll(() => page.locator('[data-unit="wordpress/0"] .machine').innerText()).toMatch(/machine \d+/);

      await lifeline("deploy", "mysql");
      await lifeline("integrate", "wordpress", "mysql");
      // The edge between them (mysql's peer relation is drawn as a loop on its node).
      await page
        .locator('[data-relation*="wordpress:db"][data-relation*="mysql:db"] line')
        .waitFor({ state: "attached", timeout: SETTLED_MS });
      await page.locator('[data-unit="mysql/0"]').waitFor({ timeout: SETTLED_MS });
      await expect.poll(() => page.locator('[data-unit="mysql/0"]').getAttribute("data-status"), { timeout: SETTLED_MS }).toBe("active");
      // With its database, wordpress is active.
      await expect
        .poll(() => page.locator('[data-unit="wordpress/0"]').getAttribute("data-status"), { timeout: SETTLED_MS })
        .toBe("active");

      // A unit's hook runs with what they logged, and the model's change feed.
      await page.locator('[data-unit="wordpress/0"]').click();
      await page.locator(".hooks [data-hook=install]").waitFor({ timeout: SETTLED_MS });
      await expect
        .poll(() => page.locator('.hooks [data-hook="db-relation-changed"]').first().innerText(), { timeout: SETTLED_MS })
        .toMatch(/using database/);
      await expect.poll(() => page.locator(".feed").innerText()).toMatch(/wordpress\/0/);
      await shot("3-integrated");

      // The removal: Dying on screen (and said in the feed), then gone; the removed unit's hook runs stay readable.
      const removal = startCli(config, ["remove-application", "wordpress"], server.env);
      await expect
        .poll(async () => (await seen("wordpress/0")).some((value) => value.startsWith("DYING")), { timeout: SETTLED_MS, interval: 100 })
        .toBe(true);
      await shot("4-wordpress-dying");
      await expect.poll(() => page.locator('[data-unit="wordpress/0"]').count(), { timeout: SETTLED_MS }).toBe(0);
      await expect.poll(() => page.locator('[data-application="wordpress"]').count(), { timeout: SETTLED_MS }).toBe(0);
      await expect.poll(() => page.locator('[data-relation*="wordpress"]').count(), { timeout: SETTLED_MS }).toBe(0);
      expect(await page.locator(".feed").innerText()).toMatch(/application wordpress dying/);
      expect((await removal.exited).code).toBe(0);
      await expect.poll(() => page.locator(".hooks [data-hook=install]").count()).toBeGreaterThan(0);
      await page.locator('[data-unit="mysql/0"]').waitFor();
      await shot("5-wordpress-removed");

      expect(remote, `requests off the machine: ${remote.join(", ")}`).toEqual([]);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("after a dropped connection, resumes with `since`: what changed meanwhile appears, nothing twice", {
    timeout: scaled(120_000),
  }, async (ctx) => {
    needsBrowser(ctx);
    const page = await context.newPage();
    try {
      await page.goto(base);
      await expect.poll(() => page.locator("[data-link]").getAttribute("data-link"), { timeout: SETTLED_MS }).toBe("live");
      const before = subscribed.length;
      expect(subscribed.at(-1)?.since ?? null).toBeNull();
      // The socket drops (as a proxy or a server restart would drop it), and the model moves on meanwhile.
      const dropped = sockets.at(-1)!;
      await dropped.page.close({ code: 1011, reason: "dropped by the test" });
      await dropped.server.close();
      await lifeline("add-unit", "mysql");
      await page.locator('[data-unit="mysql/1"]').waitFor({ timeout: SETTLED_MS });
      await expect.poll(() => page.locator("[data-link]").getAttribute("data-link"), { timeout: SETTLED_MS }).toBe("live");
      // It subscribed again from the revision it had reached, not from a new snapshot.
      const resumed = subscribed.slice(before);
      expect(resumed.length).toBeGreaterThan(0);
      expect(Number(resumed[0]!.since)).toBeGreaterThan(0);
      // The feed has each change once.
      const lines = await page.locator(".feed-lines li").allInnerTexts();
      expect(new Set(lines).size).toBe(lines.length);
    } finally {
      await page.close();
    }
  });
});

describe("the status page at 1,000 units", () => {
  const MODEL = "thousand";
  const APPLICATIONS = ["cache", "db", "proxy", "web"];
  let store: Store | undefined;
  let running: RunningServer | undefined;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    if (!browser) return;
    // In-process, without agents: the units stay as deployed, and only the page's handling of many is under test.
    store = await openPrivateTestStore();
    await addModel(store.db, { name: MODEL });
    for (const application of APPLICATIONS) {
      await deploy(store.db, { model: MODEL, charm: "wordpress", application, numUnits: UNITS_A_CALL });
      for (let added = UNITS_A_CALL; added < 250; added += UNITS_A_CALL)
        await addUnit(store.db, { model: MODEL, application, count: UNITS_A_CALL });
    }
    running = await startServer(store, "127.0.0.1", 0);
    context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const login = new URL(LOGIN_PATH, running.url);
    login.searchParams.set("code", await createLoginCode(store.db));
    const page = await context.newPage();
    await page.goto(login.href);
    await page.close();
  }, scaled(300_000));

  afterAll(async () => {
    await context?.close();
    await running?.close();
    await store?.close();
  });

  it("keeps only the rows in view in the page; search and collapse find the rest", { timeout: scaled(120_000) }, async (ctx) => {
    if (!browser) {
      if (browserRequired) throw new Error(`LIFELINE_REQUIRE_BROWSER=1 but ${skipReason}`);
      ctx.skip(skipReason);
    }
    const page = await context!.newPage();
    try {
      await page.goto(new URL(`/?model=${MODEL}`, running!.url).href);
      await expect.poll(() => page.locator(".units h2 .count").innerText(), { timeout: SETTLED_MS }).toBe("1000");
      const rows = () => page.locator("[data-unit]").count();
      expect(await rows()).toBeLessThan(60);
      expect(await page.locator("[data-application]").count()).toBe(4);
      // A machine for each unit, and the model's machine 0.
      expect(await page.locator(".machines h2 .count").innerText()).toBe("1001");
      expect(await page.locator("[data-machine]").count()).toBeLessThan(60);
      const shots = mkdtempSync(join(tmpdir(), "lifeline-status-page-1000-"));
      await page.screenshot({ path: join(shots, "1000-units.png"), fullPage: true });
      console.log(`status page screenshot: ${join(shots, "1000-units.png")}`);

      // The end of the list is reachable by scrolling: its rows replace the first ones.
      await page.locator(".units .window").evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.locator('[data-unit="web/249"]').waitFor({ timeout: SETTLED_MS });
      expect(await page.locator('[data-unit="cache/0"]').count()).toBe(0);
      expect(await rows()).toBeLessThan(60);

      // Search narrows the list to what matches.
      await page.locator(".units .window").evaluate((el) => el.scrollTo(0, 0));
      await page.getByPlaceholder(/search units/).fill("proxy/17");
      await expect
        .poll(() => page.locator("[data-unit]").evaluateAll((found) => found.map((row) => (row as HTMLElement).dataset.unit)))
        .toEqual([
          "proxy/17",
          "proxy/170",
          "proxy/171",
          "proxy/172",
          "proxy/173",
          "proxy/174",
          "proxy/175",
          "proxy/176",
          "proxy/177",
          "proxy/178",
          "proxy/179",
        ]);

      // A collapsed application shows its header alone.
      await page.getByPlaceholder(/search units/).fill("");
      await page.locator('[data-group="cache"]').click();
      await expect.poll(() => page.locator('[data-unit^="cache/"]').count()).toBe(0);
      await expect.poll(() => page.locator('[data-unit^="db/"]').count()).toBeGreaterThan(0);
    } finally {
      await page.close();
    }
  });
});
