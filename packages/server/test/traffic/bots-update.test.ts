import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import SHIPPED from "../../src/services/traffic/data/bot-ranges.json" with { type: "json" };
import { parsePublished, validCidr } from "../../src/services/traffic/published-ranges.ts";
import { BotRanges } from "../../src/services/traffic/ranges.ts";
import { rangeSources, updateBotRanges } from "../../src/services/traffic/ranges-update.ts";
import { runCliInProcess } from "../helpers/cli-io.ts";
import { freePort } from "../helpers/processes.ts";

/**
 * `sightline bots update` (issue 26) against a local server on 127.0.0.1 that answers in the
 * operators' published formats (Google's `prefixes` JSON, which OpenAI, Perplexity, Bing and Apple
 * use too; a JSON array; DuckDuckGo's help page). Every source is pointed at it with --source:
 * nothing else is contacted. Addresses are documentation ones only.
 */
const google = (prefixes: string[], creationTime = "2026-11-19T22:00:00.000000") =>
  JSON.stringify({
    creationTime,
    prefixes: prefixes.map((p) => (p.includes(":") ? { ipv6Prefix: p } : { ipv4Prefix: p })),
  });

const DUCK_PAGE = `<!doctype html><html><head><title>DuckAssistBot</title>
<script>window.__config = {"edge": "203.0.113.99"}</script></head>
<body><h1>DuckAssistBot</h1><p>DuckAssistBot/1.1 fetches pages for DuckAssist. It uses these IP addresses:</p>
<ul><li>198.51.100.7</li><li>198.51.100.8</li><li>2001:db8:d::1</li></ul><p>Last updated 12:30.</p></body></html>`;

/** What the local server answers, by path. */
const ROUTES: Record<string, (respond: (status: number, body: string, type?: string) => void) => void> = {
  "/gptbot.json": (r) => r(200, google(["192.0.2.0/25", "2001:db8:1::/48"])),
  "/searchbot.json": (r) => r(200, google(["192.0.2.128/25"])),
  "/chatgpt-user.json": (r) => r(200, google(["198.51.100.0/26"])),
  "/perplexitybot.json": (r) => r(200, google(["198.51.100.64/26"], "2026-11-18T08:00:00")),
  "/perplexity-user.json": (r) => r(200, JSON.stringify(["198.51.100.128/26"])),
  "/googlebot.json": (r) => r(200, google(["203.0.113.0/27", "2001:db8:4::/64"])),
  "/bingbot.json": (r) => r(200, google(["203.0.113.32/27"])),
  "/applebot.json": (r) => r(200, google(["203.0.113.64/27"])),
  "/duckassistbot": (r) => r(200, DUCK_PAGE, "text/html; charset=utf-8"),
  "/error": (r) => r(500, "internal error"),
  "/missing": (r) => r(404, "not found"),
  "/bad-cidr.json": (r) => r(200, google(["198.51.100.0/24", "192.0.2.0/33"])),
  "/cut.json": (r) => r(200, google(["198.51.100.0/24"]).slice(0, 40)),
  "/everything.json": (r) => r(200, google(["0.0.0.0/0"])),
  "/empty.json": (r) => r(200, google([])),
  "/no-addresses": (r) => r(200, "<html><body><p>We publish no addresses.</p></body></html>", "text/html"),
  // Never answers: the source's timeout must end it.
  "/hang": () => undefined,
};

/** Each bot with a source in the shipped file, and the local path that stands in for it. */
const GOOD: Record<string, string> = {
  GPTBot: "/gptbot.json",
  "OAI-SearchBot": "/searchbot.json",
  "ChatGPT-User": "/chatgpt-user.json",
  PerplexityBot: "/perplexitybot.json",
  "Perplexity-User": "/perplexity-user.json",
  Googlebot: "/googlebot.json",
  Bingbot: "/bingbot.json",
  Applebot: "/applebot.json",
  DuckAssistBot: "/duckassistbot",
};

let server: Server;
let base: string;
const requests: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request);
    const route = ROUTES[new URL(request.url ?? "/", "http://x").pathname];
    if (route === undefined) {
      response.writeHead(404).end();
      return;
    }
    route((status, body, type = "application/json") => response.writeHead(status, { "content-type": type }).end(body));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

/** --source for every shipped source, each bot to its path on the local server. */
function sources(paths: Record<string, string>): string[] {
  const bots = Object.entries(SHIPPED.bots).filter(([, entry]) => entry.source !== undefined);
  expect(Object.keys(paths).sort()).toEqual(bots.map(([bot]) => bot).sort());
  return Object.entries(paths).flatMap(([bot, path]) => ["--source", `${bot}=${base}${path}`]);
}

const scratches: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), "sightline-bots-"));
  scratches.push(dir);
  return dir;
};
const today = () => new Date().toISOString().slice(0, 10);

describe("sightline bots update (issue 26)", () => {
  it("fetches every source in the published formats and writes a file of the shipped shape the server verifies with", async () => {
    const output = join(scratch(), "ranges.json");
    const run = await runCliInProcess(["bots", "update", "--output", output, ...sources(GOOD)], {});
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Wrote ${output}`);
    expect(run.stdout).toMatch(/GPTBot\s+2 ranges\s+http:\/\/127\.0\.0\.1:\d+\/gptbot\.json \(published 2026-11-19T22/);
    expect(run.stdout).toContain("9 of 9 sources refreshed");

    const written = JSON.parse(readFileSync(output, "utf8"));
    expect(Object.keys(written).sort()).toEqual(Object.keys(SHIPPED).sort());
    expect([today(), new Date(Date.now() - 60_000).toISOString().slice(0, 10)]).toContain(written.as_of);
    expect(written.snapshot).toContain("GPTBot (2026-11-19T22:00:00.000000)");
    expect(written.bots.GPTBot).toEqual({ source: `${base}/gptbot.json`, ranges: ["192.0.2.0/25", "2001:db8:1::/48"] });
    expect(written.bots["Perplexity-User"].ranges).toEqual(["198.51.100.128/26"]);
    // The page's listed addresses, not the one in its script nor "DuckAssistBot/1.1" or a time.
    expect(written.bots.DuckAssistBot.ranges).toEqual(["198.51.100.7/32", "198.51.100.8/32", "2001:db8:d::1/128"]);
    for (const [bot, path] of Object.entries(GOOD)) expect(written.bots[bot].source).toBe(`${base}${path}`);

    const ranges = BotRanges.load(output);
    expect(ranges.asOf).toBe(written.as_of);
    expect(ranges.verify("GPTBot", "192.0.2.10")).toBe("verified");
    expect(ranges.verify("GPTBot", "2001:db8:1::7")).toBe("verified");
    expect(ranges.verify("GPTBot", "198.51.100.1")).toBe("spoofed");
    expect(ranges.verify("Googlebot", "2001:db8:4::1")).toBe("verified");
    expect(ranges.verify("DuckAssistBot", "198.51.100.7")).toBe("verified");
    expect(ranges.verify("DuckAssistBot", "203.0.113.99")).toBe("spoofed");
    expect(ranges.verify("ClaudeBot", "192.0.2.1")).toBe("unverifiable");
    // The configuration takes it as SIGHTLINE_BOT_RANGES_FILE.
    expect(loadConfig({ SIGHTLINE_BOT_RANGES_FILE: output }, tmpdir()).botRangesFile).toBe(output);

    // One request per source, each to the local server, named as Sightline's.
    const asked = requests.slice(-9);
    expect(asked.map((r) => r.url).sort()).toEqual(Object.values(GOOD).sort());
    for (const request of asked) expect(request.headers["user-agent"]).toBe("Sightline bots update");
  });

  it("keeps a failing source's previous ranges, says why per source, and writes to SIGHTLINE_BOT_RANGES_FILE", async () => {
    const dir = scratch();
    const configured = join(dir, "bot-ranges.json");
    // The short shape, with a bot that has no source: it is carried over as it is.
    writeFileSync(
      configured,
      JSON.stringify({ GPTBot: ["192.0.2.0/24"], "OAI-SearchBot": ["198.51.100.0/24"], ClaudeBot: ["203.0.113.0/24"] }),
    );
    const closed = `http://127.0.0.1:${await freePort()}`;
    const failing = {
      ...GOOD,
      "OAI-SearchBot": "/error",
      "ChatGPT-User": "/bad-cidr.json",
      PerplexityBot: "/cut.json",
      "Perplexity-User": "/hang",
      Bingbot: "/everything.json",
      Applebot: "/empty.json",
      DuckAssistBot: "/no-addresses",
    };
    const args = sources(failing).map((arg) =>
      arg.startsWith("Googlebot=") ? `Googlebot=${closed}/googlebot.json` : arg,
    );
    const run = await runCliInProcess(["bots", "update", ...args, "--timeout", "0.5", "--json"], {
      SIGHTLINE_BOT_RANGES_FILE: configured,
    });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      file: string;
      sources: { bot: string; ok: boolean; reason?: string; kept?: number | null; ranges?: number }[];
    };
    expect(report.file).toBe(configured);
    const by = Object.fromEntries(report.sources.map((s) => [s.bot, s]));
    expect(by.GPTBot).toMatchObject({ ok: true, ranges: 2 });
    expect(by["OAI-SearchBot"]).toMatchObject({ ok: false, reason: "HTTP 500", kept: 1 });
    expect(by["ChatGPT-User"]).toMatchObject({ ok: false, kept: null });
    expect(by["ChatGPT-User"]?.reason).toContain('entry 2 is not a valid range ("192.0.2.0/33")');
    expect(by.PerplexityBot?.reason).toMatch(/^invalid JSON/);
    expect(by["Perplexity-User"]?.reason).toBe("no answer within 0.5 s");
    expect(by.Googlebot?.reason).toMatch(/^fetch failed: .*ECONNREFUSED/);
    expect(by.Bingbot?.reason).toContain('"0.0.0.0/0"');
    expect(by.Applebot?.reason).toBe("the list is empty");
    expect(by.DuckAssistBot?.reason).toBe("no address in the page");

    const written = JSON.parse(readFileSync(configured, "utf8"));
    expect(Object.keys(written).sort()).toEqual(Object.keys(SHIPPED).sort());
    expect(written.bots.GPTBot.ranges).toEqual(["192.0.2.0/25", "2001:db8:1::/48"]);
    expect(written.bots["OAI-SearchBot"]).toEqual({ source: `${base}/error`, ranges: ["198.51.100.0/24"] });
    expect(written.bots["ChatGPT-User"].ranges).toBeNull();
    expect(written.bots.ClaudeBot).toEqual({ ranges: ["203.0.113.0/24"] });
    expect(written.snapshot).toContain("Not refreshed, kept from the previous file: OAI-SearchBot (HTTP 500)");
    const ranges = BotRanges.load(configured);
    expect(ranges.verify("OAI-SearchBot", "198.51.100.9")).toBe("verified");
    expect(ranges.verify("Bingbot", "192.0.2.1")).toBe("unverifiable");
  });

  it("exits 1 and leaves the file as it was when no source could be refreshed", async () => {
    const output = join(scratch(), "ranges.json");
    const before = JSON.stringify({ as_of: "2026-01-01", bots: { GPTBot: { ranges: ["192.0.2.0/24"] } } });
    writeFileSync(output, before);
    const missing = Object.fromEntries(Object.keys(GOOD).map((bot) => [bot, "/missing"]));
    const run = await runCliInProcess(["bots", "update", "--output", output, ...sources(missing)], {});
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("GPTBot           failed  ");
    expect(run.stdout).toContain("HTTP 404; kept 1 previous ranges");
    expect(run.stderr).toContain("no source could be refreshed");
    expect(readFileSync(output, "utf8")).toBe(before);
  });

  it("refuses without a file to write, never rewrites the shipped list, and checks its options", async () => {
    const shipped = resolve(import.meta.dirname, "../../src/services/traffic/data/bot-ranges.json");
    const before = readFileSync(shipped, "utf8");
    const run = await runCliInProcess(["bots", "update", ...sources(GOOD)], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("bots update needs a file to write: --output FILE, or SIGHTLINE_BOT_RANGES_FILE");
    expect(readFileSync(shipped, "utf8")).toBe(before);

    const output = join(scratch(), "ranges.json");
    const unknown = await runCliInProcess(
      ["bots", "update", "--output", output, "--source", "ClaudeBot=http://127.0.0.1:9/x"],
      {},
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('"ClaudeBot" has no published ranges');
    const notUrl = await runCliInProcess(
      ["bots", "update", "--output", output, "--source", "GPTBot=file:///etc/passwd"],
      {},
    );
    expect(notUrl.code).toBe(2);
    const timeout = await runCliInProcess(["bots", "update", "--output", output, "--timeout", "0"], {});
    expect(timeout.code).toBe(2);
    expect(existsSync(output)).toBe(false);

    // A file to replace that is not a ranges file is left for the operator, not overwritten blind.
    writeFileSync(output, "not json");
    const unreadable = await runCliInProcess(["bots", "update", ...sources(GOOD)], {
      SIGHTLINE_BOT_RANGES_FILE: output,
    });
    expect(unreadable.code).toBe(1);
    expect(unreadable.stderr).toContain(`cannot read the ranges in ${output}`);
    expect(readFileSync(output, "utf8")).toBe("not json");
  });
});

describe("reading a published list (issue 26)", () => {
  it("reads each shape and refuses a list with one bad range", () => {
    expect(parsePublished(google(["192.0.2.0/24", "2001:db8::/32"]))).toEqual({
      ok: true,
      ranges: ["192.0.2.0/24", "2001:db8::/32"],
      published: "2026-11-19T22:00:00.000000",
    });
    expect(parsePublished('["192.0.2.0/24", "192.0.2.0/24"]')).toEqual({
      ok: true,
      ranges: ["192.0.2.0/24"],
      published: null,
    });
    expect(parsePublished("192.0.2.1\n198.51.100.0/24\n")).toMatchObject({
      ok: true,
      ranges: ["192.0.2.1/32", "198.51.100.0/24"],
    });
    expect(parsePublished('{"prefixes": [{"ipv4Prefix": "192.0.2.0/24"}, {"other": 1}]}')).toMatchObject({ ok: false });
    expect(parsePublished('{"syncToken": "1", "creationTime": "x"}')).toMatchObject({ ok: false });
    expect(parsePublished("")).toMatchObject({ ok: false });
  });

  it("accepts only real addresses with a prefix length their family allows, and no range near /0", () => {
    const cases: [string, string | null][] = [
      ["192.0.2.0/24", "192.0.2.0/24"],
      [" 2001:db8::/48 ", "2001:db8::/48"],
      ["192.0.2.1/32", "192.0.2.1/32"],
      ["192.0.2.0/33", null],
      ["300.0.2.0/24", null],
      ["192.0.2/24", null],
      ["192.0.2.0", null],
      ["192.0.2.0/", null],
      ["192.0.2.0/-1", null],
      ["2001:db8::/129", null],
      ["0.0.0.0/0", null],
      ["10.0.0.0/7", null],
      ["::/0", null],
      ["2001::/15", null],
      ["example.com/24", null],
    ];
    for (const [text, expected] of cases) expect(validCidr(text), text).toBe(expected);
  });

  it("asks only the sources it is given, and takes a failing one's previous ranges from either shape", async () => {
    const asked: string[] = [];
    // The real fetch, refusing anything but the local server.
    const localOnly: typeof fetch = (input, init) => {
      const url = String(input);
      asked.push(url);
      if (!url.startsWith(`${base}/`)) throw new Error(`refused: ${url}`);
      return fetch(input, init);
    };
    const list = rangeSources(Object.fromEntries(Object.entries(GOOD).map(([bot, path]) => [bot, `${base}${path}`])));
    list[0] = { bot: "GPTBot", url: `${base}/error` };
    const previous = {
      as_of: "2026-07-02",
      bots: { GPTBot: { source: "https://openai.com/gptbot.json", ranges: ["192.0.2.0/24"] } },
    };
    const update = await updateBotRanges(
      { fetch: localOnly, clock: new ManualClock(new Date("2026-11-20T10:00:00Z")), timeoutMs: 2_000 },
      previous,
      list,
    );
    expect(asked).toHaveLength(list.length);
    expect(update.refreshed).toBe(list.length - 1);
    expect(update.file.as_of).toBe("2026-11-20");
    expect(update.file.bots.GPTBot).toEqual(previous.bots.GPTBot);
    expect(update.file.snapshot).toContain("kept from the previous file (as of 2026-07-02): GPTBot (HTTP 500)");
  });
});
