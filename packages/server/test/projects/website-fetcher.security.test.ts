import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpPageFetcher, OUT_OF_TIME } from "../../src/services/websites/fetcher.ts";
import { describeEachDialect } from "../helpers/harness.ts";
import { Site } from "../helpers/website.ts";

describe("the website fetcher's limits", () => {
  let site: Site;
  beforeAll(async () => {
    site = await new Site().start();
    site.pages.set("/big", { body: `<p>${"x".repeat(200_000)}</p>` });
    site.pages.set("/slow", {
      body: function (this: ServerResponse) {
        this.writeHead(200, { "content-type": "text/html" });
        this.write("<p>starting");
        // Never ends: the fetcher gives up at its time limit.
      },
    });
    site.pages.set("/loop", { status: 302, body: "" });
    // Three slow redirects, then a page that never ends.
    for (const [from, to] of [
      ["/hop1", "/hop2"],
      ["/hop2", "/hop3"],
      ["/hop3", "/slow"],
    ] as const) {
      site.pages.set(from, {
        body: function (this: ServerResponse) {
          setTimeout(() => this.writeHead(302, { location: to }).end(), 300);
        },
      });
    }
  });
  afterAll(async () => site.stop());

  it("refuses private addresses, by literal and by name, without connecting", async () => {
    const resolver = {
      resolve: async (host: string) => (host === "inside.example.test" ? ["10.0.0.7"] : ["93.184.216.34"]),
    };
    const strict = new HttpPageFetcher({ allowPrivate: false, resolver });
    const before = site.asked.length;
    const port = new URL(site.url).port;
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://[::127.0.0.1]:${port}/`,
      `http://inside.example.test:${port}/`,
      "http://public.example.test:0/",
      "file:///etc/passwd",
    ]) {
      const answer = await strict.get(url);
      expect(answer.ok, url).toBe(false);
      if (!answer.ok) expect(answer.reason, url).toMatch(/^refused/);
    }
    expect(site.asked.length).toBe(before);
  });

  it("stops at the size limit and at the time limit", async () => {
    const small = new HttpPageFetcher({
      allowPrivate: true,
      resolver: { resolve: async () => ["127.0.0.1"] },
      limits: { maxBytes: 10_000, timeoutMs: 300 },
    });
    const big = await small.get(`${site.url}/big`);
    expect(big).toMatchObject({ ok: true, truncated: true });
    if (big.ok) expect(Buffer.byteLength(big.body)).toBeLessThanOrEqual(10_000);
    const started = Date.now();
    const slow = await small.get(`${site.url}/slow`);
    expect(slow).toMatchObject({ ok: false, reason: "the site took longer than 0.3 s" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("holds the page's time over all its redirects, and never outlasts the reading's deadline", async () => {
    const fetcher = new HttpPageFetcher({
      allowPrivate: true,
      resolver: { resolve: async () => ["127.0.0.1"] },
      limits: { timeoutMs: 600 },
    });
    // Timed per hop, this took 3 × 0.3 s of redirects and 0.6 s more.
    let started = Date.now();
    expect(await fetcher.get(`${site.url}/hop1`)).toMatchObject({
      ok: false,
      reason: "the site took longer than 0.6 s",
    });
    expect(Date.now() - started).toBeLessThan(1_100);
    started = Date.now();
    expect(await fetcher.get(`${site.url}/slow`, started + 200)).toMatchObject({ ok: false, reason: OUT_OF_TIME });
    expect(Date.now() - started).toBeLessThan(550);
    expect(await fetcher.get(`${site.url}/big`, Date.now() - 1)).toMatchObject({ ok: false, reason: OUT_OF_TIME });
  });

  it("reads public websites on the web's ports only (80, 443, 8080, 8443)", async () => {
    // Nothing is contacted: a refused port is refused before the name is looked up, and the names
    // on the web's ports get as far as the lookup, which answers nothing (no traffic leaves the machine).
    const looked: string[] = [];
    const strict = new HttpPageFetcher({
      allowPrivate: false,
      resolver: {
        resolve: async (host: string) => {
          looked.push(host);
          throw new Error("no address in this test");
        },
      },
      limits: { timeoutMs: 300 },
    });
    for (const url of [
      "http://public.example.test:6379/",
      "https://public.example.test:22/",
      "http://public.example.test:5432/",
    ]) {
      const answer = await strict.get(url);
      expect(answer, url).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^refused: port \d+ is not a website's/),
      });
    }
    expect(looked).toEqual([]);
    for (const url of [
      "http://public.example.test:8080/",
      "https://public.example.test:8443/",
      "http://public.example.test/",
    ]) {
      const answer = await strict.get(url);
      expect(answer, url).toMatchObject({ ok: false, reason: expect.stringContaining("no address in this test") });
    }
    expect(looked).toHaveLength(3);
  });
});

/** The route holds the same rules: with private addresses not allowed (the default), nothing inside is asked. */
describeEachDialect("brand suggestions refuse what is not a public website", (h) => {
  let site: Site;
  beforeAll(async () => {
    site = await new Site().start();
    site.pages.set("/", { body: "<html><head><title>Inside</title></head><body><h1>Inside</h1></body></html>" });
  });
  afterAll(async () => site.stop());

  it("refuses a private address (IPv4, IPv4-mapped IPv6) and other schemes without reading anything", async () => {
    const t = await h.tenant("growth");
    const port = new URL(site.url).port;
    for (const website of [site.url, `http://[::ffff:127.0.0.1]:${port}/`, "http://10.1.2.3/", "file:///etc/passwd"]) {
      const res = await h.call("suggestBrand", { key: t.key, body: { website } });
      expect(res.statusCode, `${website}: ${res.body}`).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
      expect(res.json().error.details[0].field).toBe("website");
    }
    expect(site.asked).toEqual([]);
  });
});
