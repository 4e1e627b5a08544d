// Issue 32, point 3: "Credentials live too long." A login link is the only one (a newer revokes it), opens once and
// expires within minutes; a browser's session ends unused (idle) and at its maximum age however used; the cookie says
// so (Max-Age) and travels over TLS only behind an https LIFELINE_PUBLIC_URL; a person lists sessions and tokens and
// revokes any. A real server on a real port, timed by a clock the test moves (no waits for time to pass).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../src/db/connect.js";
import { createLoginCode, type SessionLifetimes } from "../src/model/index.js";
import { LOGIN_PATH, type RunningServer, startServer } from "../src/server/app.js";
import { logIn, postFrom } from "./support/browser.js";
import { adminHeaders, openPrivateTestStore } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

const MINUTE = 60_000;
const lifetimes: SessionLifetimes = { loginLinkMs: 10 * MINUTE, idleMs: 60 * MINUTE, maxMs: 240 * MINUTE };

/** The server's clock: real time when the file starts, then moved by the tests, only forward. */
let now = Date.now();
const advance = (ms: number) => {
  now += ms;
};

let store: Store;
let server: RunningServer;
/** The same, reached at an https LIFELINE_PUBLIC_URL (a TLS proxy in front). */
let behindTls: RunningServer;

beforeAll(async () => {
  store = await openPrivateTestStore();
  server = await startServer(store, "127.0.0.1", 0, { sessions: lifetimes, clock: () => now });
  behindTls = await startServer(store, "127.0.0.1", 0, {
    sessions: lifetimes,
    clock: () => now,
    origins: { allowedOrigins: [], publicUrl: "https://lifeline.example/" },
  });
});
afterAll(async () => {
  await server?.close();
  await behindTls?.close();
  await store?.close();
});

const TOKENS = `{ tokens { id source description createdAt expiresAt lastUsedAt } }`;

/** Opens a login link with this code; resolves with the status and, when it logged in, the cookie it set. */
async function open(code: string, at = server) {
  const link = new URL(LOGIN_PATH, at.url);
  link.searchParams.set("code", code);
  const response = await fetch(link, { redirect: "manual" });
  return { status: response.status, setCookie: response.headers.get("set-cookie"), body: await response.text() };
}

const newCode = () => createLoginCode(store.db, lifetimes, now);

/** A session's token id, and a request with its cookie (from no page: the origin rules are origins.test.ts's). */
async function session() {
  const cookie = await logIn(store.db, server.url, lifetimes, now);
  const asSession = () => postFrom(server.url, { cookie }, `{ viewer { tag } }`);
  const id = Number((await asSession()).body.data.viewer.tag.replace("person-", ""));
  return { cookie, id, asSession };
}

const listed = async (id: number) =>
  (await postFrom(server.url, adminHeaders, TOKENS)).body.data.tokens.find((t: { id: number }) => t.id === id);

/** Uses the session now and waits until its use is written (it is written off the request's path). */
async function use(s: Awaited<ReturnType<typeof session>>) {
  expect((await s.asSession()).codes).toEqual([]);
  await expect
    .poll(async () => (await listed(s.id))?.lastUsedAt, { timeout: scaled(10_000), interval: 20 })
    .toBe(new Date(now).toISOString());
}

describe("login links", () => {
  it("open once: the second time the link is refused 401 with UNAUTHENTICATED", async () => {
    const code = await newCode();
    expect((await open(code)).status).toBe(303);
    const again = await open(code);
    expect(again.status).toBe(401);
    expect(JSON.parse(again.body).errors[0].extensions.code).toBe("UNAUTHENTICATED");
  });

  it("expire: a link opened after its lifetime is refused", async () => {
    const code = await newCode();
    advance(lifetimes.loginLinkMs);
    expect((await open(code)).status).toBe(401);
  });

  it("one at a time: a new link (each start prints one) revokes the last", async () => {
    const first = await newCode();
    const second = await newCode();
    expect((await open(first)).status).toBe(401);
    expect((await open(second)).status).toBe(303);
  });

  it("the command line's code is another: a new link does not revoke it, and opening the link does not spend it", async () => {
    const command = await createLoginCode(store.db, lifetimes, now, "command line");
    const link = await newCode();
    expect(command).not.toBe(link);
    expect((await open(link)).status).toBe(303);
    expect((await open(command)).status).toBe(303);
  });
});

describe("the session cookie", () => {
  it("is HttpOnly, SameSite=Strict, for the whole site, and leaves the browser at the session's maximum age (Max-Age)", async () => {
    const { setCookie } = await open(await newCode());
    expect(setCookie).toMatch(/^lifeline_token=llt_\S+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=14400$/);
  });

  it("is Secure when LIFELINE_PUBLIC_URL is https", async () => {
    const { setCookie } = await open(await newCode(), behindTls);
    expect(setCookie).toMatch(/; Max-Age=14400; Secure$/);
  });
});

describe("browser sessions", () => {
  it("end once unused for their idle time: their requests are UNAUTHENTICATED", async () => {
    const s = await session();
    advance(lifetimes.idleMs);
    expect((await s.asSession()).codes).toEqual(["UNAUTHENTICATED"]);
  });

  it("in use, live on past their idle time", async () => {
    const s = await session();
    for (let i = 0; i < 3; i++) {
      advance(lifetimes.idleMs - MINUTE);
      await use(s);
    }
    advance(lifetimes.idleMs - MINUTE);
    expect((await s.asSession()).codes).toEqual([]);
  });

  it("end at their maximum age, however much they are used", async () => {
    const s = await session();
    const started = now;
    while (now + lifetimes.idleMs / 2 < started + lifetimes.maxMs) {
      advance(lifetimes.idleMs / 2);
      await use(s);
    }
    advance(started + lifetimes.maxMs - now);
    expect((await s.asSession()).codes).toEqual(["UNAUTHENTICATED"]);
  });

  it("are listed in tokens, with their source, when they began, were last used and end", async () => {
    const s = await session();
    advance(5 * MINUTE);
    await use(s);
    const started = new Date(now - 5 * MINUTE);
    expect(await listed(s.id)).toEqual({
      id: s.id,
      source: "SESSION",
      description: "browser session",
      createdAt: started.toISOString(),
      lastUsedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + lifetimes.idleMs).toISOString(),
    });
  });

  it("revoked (revokeToken), end at once", async () => {
    const s = await session();
    expect((await postFrom(server.url, adminHeaders, `mutation ($id: Int!) { revokeToken(id: $id) }`, { id: s.id })).codes).toEqual([]);
    expect((await s.asSession()).codes).toEqual(["UNAUTHENTICATED"]);
    expect(await listed(s.id)).toBeUndefined();
  });
});

describe("tokens", () => {
  it("lists LIFELINE_ADMIN_TOKEN's as the environment's, and issued tokens as issued", async () => {
    const issued = await postFrom(
      server.url,
      adminHeaders,
      `mutation { issueToken(input: { role: READ_ONLY, description: "sessions spec" }) { id } }`,
    );
    const { tokens } = (await postFrom(server.url, adminHeaders, TOKENS)).body.data;
    const viewer = (await postFrom(server.url, adminHeaders, `{ viewer { tag } }`)).body.data.viewer.tag;
    expect(tokens.find((t: { id: number }) => `person-${t.id}` === viewer)?.source).toBe("ENVIRONMENT");
    expect(tokens.find((t: { id: number }) => t.id === issued.body.data.issueToken.id)?.source).toBe("ISSUED");
  });
});
