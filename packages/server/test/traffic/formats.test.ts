import { describe, expect, it } from "vitest";
import { CLOUDFRONT_FIELDS, createCloudFrontParser } from "../../src/services/traffic/formats/cloudfront.ts";
import { createCombinedParser } from "../../src/services/traffic/formats/combined.ts";
import { createParser, detectFormat } from "../../src/services/traffic/formats/detect.ts";
import {
  createCloudflareParser,
  createFastlyParser,
  createJsonlParser,
  createVercelParser,
  DEFAULT_JSONL_FIELDS,
} from "../../src/services/traffic/formats/json-logs.ts";
import { LOG_FORMATS, type LogRecord, type ParsedLine } from "../../src/services/traffic/formats/types.ts";

/**
 * Issue 26: access logs in every supported format are read into the same record, one line at a
 * time; what is not a request is skipped or rejected with a short reason that never quotes the line.
 */

const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot";
const CLAUDEBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)";
const PERPLEXITY =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36";
/** 2026-10-10T11:55:36.123Z in the shapes logs write it. */
const AT = new Date("2026-10-10T11:55:36.000Z");
const AT_MS = new Date("2026-10-10T11:55:36.123Z");

function record(result: ParsedLine): LogRecord {
  if (result.kind !== "record") throw new Error(`expected a record, got ${JSON.stringify(result)}`);
  return result.record;
}

function base(overrides: Partial<LogRecord>): LogRecord {
  return {
    at: AT,
    ip: null,
    method: null,
    host: null,
    path: "/",
    query: null,
    status: null,
    userAgent: null,
    referrer: null,
    ...overrides,
  };
}

interface AccessLine {
  ip?: string;
  time?: string;
  request?: string;
  status?: string;
  referrer?: string;
  agent?: string;
  extra?: string;
}

/** A combined line (or common, when neither referrer nor agent is given), written as nginx does. */
function accessLine(line: AccessLine): string {
  const head = `${line.ip ?? "203.0.113.7"} - - [${line.time ?? "10/Oct/2026:13:55:36 +0200"}] "${line.request ?? "GET / HTTP/1.1"}" ${line.status ?? "200"} 5120`;
  if (line.referrer === undefined && line.agent === undefined) return head;
  return `${head} "${line.referrer ?? "-"}" "${line.agent ?? "-"}"${line.extra ?? ""}`;
}

describe("combined and common logs", () => {
  const parser = createCombinedParser("combined");

  it("reads a crawler's line (IPv4) and a person's line (IPv6, referred, with a query)", () => {
    expect(record(parser.parse(accessLine({ request: "GET /pricing HTTP/1.1", agent: GPTBOT })))).toEqual(
      base({ ip: "203.0.113.7", method: "GET", path: "/pricing", status: 200, userAgent: GPTBOT }),
    );
    const person = accessLine({
      ip: "2001:db8::1f",
      time: "10/Oct/2026:04:55:36 -0700",
      request: "GET /blog/post?utm_source=chatgpt.com&x=1 HTTP/2.0",
      status: "304",
      referrer: "https://chatgpt.com/",
      agent: CHROME,
    });
    expect(record(parser.parse(person))).toEqual(
      base({
        ip: "2001:db8::1f",
        method: "GET",
        path: "/blog/post",
        query: "utm_source=chatgpt.com&x=1",
        status: 304,
        userAgent: CHROME,
        referrer: "https://chatgpt.com/",
      }),
    );
  });

  it("undoes escaped quotes (Apache's \\\" and nginx's \\x22) inside quoted fields", () => {
    const apache = accessLine({ agent: 'Mozilla/5.0 (compatible; \\"Quoted\\" Bot/2.0; back\\\\slash)' });
    expect(record(parser.parse(apache)).userAgent).toBe('Mozilla/5.0 (compatible; "Quoted" Bot/2.0; back\\slash)');
    const nginx = accessLine({ request: "GET /a\\x22b HTTP/1.1", agent: "Bot \\x22x\\x22 \\xE9" });
    const read = record(parser.parse(nginx));
    expect(read.userAgent).toBe('Bot "x" \\xE9');
    expect(read.path).toBe('/a"b');
  });

  it("accepts nginx's extra trailing quoted field, an absolute request URI and milliseconds in the time", () => {
    const line = accessLine({
      time: "10/Oct/2026:11:55:36.123 +0000",
      request: "GET https://example.com/docs?page=2 HTTP/1.1",
      referrer: "https://www.perplexity.ai/",
      agent: PERPLEXITY,
      extra: ' "198.51.100.4, 10.0.0.1"',
    });
    expect(record(parser.parse(line))).toEqual(
      base({
        at: AT_MS,
        ip: "203.0.113.7",
        method: "GET",
        host: "example.com",
        path: "/docs",
        query: "page=2",
        status: 200,
        userAgent: PERPLEXITY,
        referrer: "https://www.perplexity.ai/",
      }),
    );
  });

  it("reads common lines (no referrer, no agent) with either parser, and a Windows line ending", () => {
    const line = `${accessLine({ request: "HEAD /robots.txt HTTP/1.0", status: "404" })}\r`;
    const expected = base({ ip: "203.0.113.7", method: "HEAD", path: "/robots.txt", status: 404 });
    expect(record(createCombinedParser("common").parse(line))).toEqual(expected);
    expect(record(parser.parse(line))).toEqual(expected);
    expect(createCombinedParser("common").format).toBe("common");
  });

  it("skips blank lines and comments", () => {
    for (const line of ["", "   ", "\r", "# rotated 2026-10-10"]) expect(parser.parse(line)).toEqual({ kind: "skip" });
  });

  it("rejects bad lines with a reason that does not quote them, and still reads the good ones around them", () => {
    const lines: [string, string][] = [
      ["hello world", "not a combined log line"],
      ['203.0.113.7 - - [10/Oct/2026:13:55:36 +0200] "GET / HTTP/1.1', "not a combined log line"],
      [`${accessLine({})} "https://chatgpt.com/"`, "not a combined log line"],
      [accessLine({ time: "10/Foo/2026:13:55:36 +0200" }), "bad timestamp"],
      [accessLine({ time: "32/Oct/2026:13:55:36 +0200" }), "bad timestamp"],
      [accessLine({ time: "10/Oct/2026:13:55:36" }), "bad timestamp"],
      [accessLine({ request: "-" }), "bad request line"],
      [accessLine({ request: "\\x16\\x03\\x01\\x00\\xCA\\x01" }), "bad request line"],
      [accessLine({ request: "GET nowhere HTTP/1.1" }), "bad request line"],
      [accessLine({ status: "2x0" }), "bad status"],
      [accessLine({ status: "999" }), "bad status"],
    ];
    for (const [line, reason] of lines) {
      const result = parser.parse(line);
      expect(result, line).toEqual({ kind: "rejected", reason });
    }
    const good = accessLine({ agent: CLAUDEBOT });
    expect(record(parser.parse(good)).userAgent).toBe(CLAUDEBOT);
    expect(createCombinedParser("common").parse("nope")).toEqual({ kind: "rejected", reason: "not a common log line" });
  });

  it("reads a status of '-' as none and stays linear on a line of backslashes", () => {
    expect(record(parser.parse(accessLine({ status: "-" }))).status).toBeNull();
    const hostile = `203.0.113.7 - - [10/Oct/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 1 "${"\\".repeat(200_001)}`;
    expect(parser.parse(hostile)).toEqual({ kind: "rejected", reason: "not a combined log line" });
  });
});

/** A CloudFront row in the documented order, from the values given (others "-"). */
function cloudFrontRow(values: Partial<Record<(typeof CLOUDFRONT_FIELDS)[number], string>>): string {
  return CLOUDFRONT_FIELDS.map((field) => values[field] ?? "-").join("\t");
}

const CLOUDFRONT_HEADER = ["#Version: 1.0", `#Fields: ${CLOUDFRONT_FIELDS.join(" ")}`];

describe("CloudFront standard logs", () => {
  const bot = cloudFrontRow({
    date: "2026-10-10",
    time: "11:55:36",
    "x-edge-location": "FRA56-P1",
    "c-ip": "2600:1f18::5",
    "cs-method": "GET",
    "cs(Host)": "d111111abcdef8.cloudfront.net",
    "cs-uri-stem": "/pricing",
    "sc-status": "200",
    "cs(User-Agent)": GPTBOT.replaceAll(" ", "%20"),
    "x-host-header": "www.example.com",
  });
  const person = cloudFrontRow({
    date: "2026-10-10",
    time: "11:55:36",
    "c-ip": "198.51.100.23",
    "cs-method": "GET",
    "cs(Host)": "d111111abcdef8.cloudfront.net",
    "cs-uri-stem": "/blog/post",
    "cs-uri-query": "utm_source=perplexity",
    "sc-status": "000",
    "cs(Referer)": "https://www.perplexity.ai/search%3Fq=example",
    "cs(User-Agent)": CHROME.replaceAll(" ", "%20"),
  });

  it("reads rows after the header, decoding the agent and referrer and taking the viewer's host", () => {
    const parser = createCloudFrontParser();
    expect(CLOUDFRONT_HEADER.map((line) => parser.parse(line))).toEqual([{ kind: "skip" }, { kind: "skip" }]);
    expect(record(parser.parse(bot))).toEqual(
      base({
        ip: "2600:1f18::5",
        method: "GET",
        host: "www.example.com",
        path: "/pricing",
        status: 200,
        userAgent: GPTBOT,
      }),
    );
    expect(record(parser.parse(person))).toEqual(
      base({
        ip: "198.51.100.23",
        method: "GET",
        host: "d111111abcdef8.cloudfront.net",
        path: "/blog/post",
        query: "utm_source=perplexity",
        status: null,
        userAgent: CHROME,
        referrer: "https://www.perplexity.ai/search?q=example",
      }),
    );
  });

  it("uses the documented order before any header, and the last #Fields line's order after one", () => {
    const parser = createCloudFrontParser();
    expect(record(parser.parse(bot)).path).toBe("/pricing");
    expect(parser.parse("#Fields: cs(User-Agent) sc-status cs-uri-stem c-ip time date cs-method")).toEqual({
      kind: "skip",
    });
    const row = [`${CLAUDEBOT.replaceAll(" ", "%20")}`, "301", "/docs", "192.0.2.9", "23:59:59", "2026-12-31", "GET"];
    expect(record(parser.parse(row.join("\t")))).toEqual(
      base({
        at: new Date("2026-12-31T23:59:59.000Z"),
        ip: "192.0.2.9",
        method: "GET",
        path: "/docs",
        status: 301,
        userAgent: CLAUDEBOT,
      }),
    );
  });

  it("keeps a malformed escape as written and rejects bad rows", () => {
    const parser = createCloudFrontParser();
    const odd = bot.replace(GPTBOT.replaceAll(" ", "%20"), "Bot%ZZ/1.0");
    expect(record(parser.parse(odd)).userAgent).toBe("Bot%ZZ/1.0");
    expect(parser.parse("2026-10-10\t11:55:36\tFRA56-P1")).toEqual({
      kind: "rejected",
      reason: "not a CloudFront log line",
    });
    expect(parser.parse(bot.replace("2026-10-10", "2026-13-10"))).toEqual({
      kind: "rejected",
      reason: "bad timestamp",
    });
    expect(parser.parse(bot.replace("\t200\t", "\tOK\t"))).toEqual({ kind: "rejected", reason: "bad status" });
    expect(parser.parse(bot.replace("/pricing", "-"))).toEqual({ kind: "rejected", reason: "no path" });
    parser.parse("#Fields: cs-uri-stem sc-status");
    expect(parser.parse("/x\t200")).toEqual({ kind: "rejected", reason: "no timestamp" });
  });
});

describe("Cloudflare Logpush", () => {
  const parser = createCloudflareParser();
  const line = (fields: Record<string, unknown>) =>
    JSON.stringify({
      ClientIP: "203.0.113.7",
      ClientRequestHost: "www.example.com",
      ClientRequestMethod: "GET",
      ClientRequestURI: "/pricing?plan=pro",
      EdgeResponseStatus: 200,
      ClientRequestUserAgent: GPTBOT,
      ClientRequestReferer: "",
      RayID: "8c1f0a2b3c4d5e6f",
      ...fields,
    });
  const expected = base({
    ip: "203.0.113.7",
    method: "GET",
    host: "www.example.com",
    path: "/pricing",
    query: "plan=pro",
    status: 200,
    userAgent: GPTBOT,
  });

  it("reads RFC 3339, Unix-nanosecond and Unix-second timestamps", () => {
    expect(record(parser.parse(line({ EdgeStartTimestamp: "2026-10-10T11:55:36Z" })))).toEqual(expected);
    expect(record(parser.parse(line({}).replace("{", '{"EdgeStartTimestamp":1791633336123456789,')))).toEqual({
      ...expected,
      at: AT_MS,
    });
    expect(record(parser.parse(line({ EdgeStartTimestamp: 1791633336 })))).toEqual(expected);
    expect(record(parser.parse(line({ EdgeStartTimestamp: "1791633336123456789" })))).toEqual({
      ...expected,
      at: AT_MS,
    });
  });

  it("reads a person referred from an AI answer over IPv6", () => {
    const person = line({
      EdgeStartTimestamp: "2026-10-10T13:55:36.123+02:00",
      ClientIP: "2a06:98c0::1",
      ClientRequestURI: "/",
      ClientRequestUserAgent: CHROME,
      ClientRequestReferer: "https://chatgpt.com/",
    });
    expect(record(parser.parse(person))).toEqual(
      base({
        at: AT_MS,
        ip: "2a06:98c0::1",
        method: "GET",
        host: "www.example.com",
        path: "/",
        status: 200,
        userAgent: CHROME,
        referrer: "https://chatgpt.com/",
      }),
    );
  });

  it("rejects lines without JSON, a timestamp or a path", () => {
    expect(parser.parse("{not json")).toEqual({ kind: "rejected", reason: "not JSON" });
    expect(parser.parse("plain text")).toEqual({ kind: "rejected", reason: "not JSON" });
    expect(parser.parse(line({}))).toEqual({ kind: "rejected", reason: "no timestamp" });
    expect(parser.parse(line({ EdgeStartTimestamp: "yesterday" }))).toEqual({
      kind: "rejected",
      reason: "bad timestamp",
    });
    expect(parser.parse(line({ EdgeStartTimestamp: 1791633336, ClientRequestURI: "" }))).toEqual({
      kind: "rejected",
      reason: "no path",
    });
    expect(parser.parse(line({ EdgeStartTimestamp: 1791633336, EdgeResponseStatus: 1200 }))).toEqual({
      kind: "rejected",
      reason: "bad status",
    });
    expect(parser.parse("")).toEqual({ kind: "skip" });
  });
});

describe("Vercel log drains", () => {
  const parser = createVercelParser();
  const request = (proxy: Record<string, unknown>, source = "lambda") => ({
    id: "1573817187330377061717300000",
    deploymentId: "dpl_233NRGRjVZX1caZrXWtz5g1TAksD",
    source,
    host: "my-app-git-main.vercel.app",
    timestamp: 1791633336200,
    projectId: "gdufoJxB6b9b1fEqr1jUtFkyavUU",
    level: "info",
    proxy: {
      timestamp: 1791633336123,
      method: "GET",
      host: "www.example.com",
      path: "/docs/start?ref=1",
      userAgent: [CLAUDEBOT],
      referer: "",
      statusCode: 200,
      clientIp: "2600:1f18::9",
      region: "fra1",
      scheme: "https",
      ...proxy,
    },
  });
  const build = { id: "2", deploymentId: "dpl_1", source: "build", timestamp: 1791633336000, message: "Compiled" };
  const crawler = base({
    at: AT_MS,
    ip: "2600:1f18::9",
    method: "GET",
    host: "www.example.com",
    path: "/docs/start",
    query: "ref=1",
    status: 200,
    userAgent: CLAUDEBOT,
  });

  it("reads the request in `proxy` and skips lines without one", () => {
    expect(record(parser.parse(JSON.stringify(request({}))))).toEqual(crawler);
    expect(parser.parse(JSON.stringify(build))).toEqual({ kind: "skip" });
    const revalidated = request({ statusCode: -1, userAgent: CHROME, referer: "https://www.perplexity.ai/" }, "static");
    expect(record(parser.parse(JSON.stringify(revalidated)))).toEqual({
      ...crawler,
      status: null,
      userAgent: CHROME,
      referrer: "https://www.perplexity.ai/",
    });
  });

  it("reads a JSON array line: parseAll gives each entry, parse refuses to drop all but one", () => {
    const person = request({
      userAgent: [CHROME],
      clientIp: "198.51.100.3",
      path: "/",
      referer: "https://chatgpt.com/",
    });
    const batch = JSON.stringify([request({}), build, person]);
    expect(parser.parseAll(batch)).toEqual([
      { kind: "record", record: crawler },
      { kind: "skip" },
      {
        kind: "record",
        record: {
          ...crawler,
          ip: "198.51.100.3",
          path: "/",
          query: null,
          userAgent: CHROME,
          referrer: "https://chatgpt.com/",
        },
      },
    ]);
    expect(parser.parse(batch)).toEqual({ kind: "rejected", reason: "several requests on one line" });
    expect(record(parser.parse(JSON.stringify([build, request({})])))).toEqual(crawler);
    expect(parser.parse("[]")).toEqual({ kind: "skip" });
    expect(parser.parseAll("oops")).toEqual([{ kind: "rejected", reason: "not JSON" }]);
  });
});

describe("Fastly JSON logs", () => {
  const parser = createFastlyParser();

  it("reads Fastly's documented field names, its (null) for a missing header, and the common alternatives", () => {
    const documented = {
      timestamp: "2026-10-10T11:55:36+0000",
      client_ip: "203.0.113.50",
      geo_country: "germany",
      request_method: "GET",
      host: "www.example.com",
      url: "/a/b?c=d",
      request_referer: "(null)",
      request_user_agent: PERPLEXITY,
      response_status: 200,
      response_body_size: 1024,
    };
    expect(record(parser.parse(JSON.stringify(documented)))).toEqual(
      base({
        ip: "203.0.113.50",
        method: "GET",
        host: "www.example.com",
        path: "/a/b",
        query: "c=d",
        status: 200,
        userAgent: PERPLEXITY,
      }),
    );
    const variant = {
      timestamp: "2026-10-10 11:55:36.123",
      client_ip: "2001:db8::2",
      method: "GET",
      host: "www.example.com",
      url: "/",
      status: "404",
      user_agent: CHROME,
      referer: "https://gemini.google.com/",
    };
    expect(record(parser.parse(JSON.stringify(variant)))).toEqual(
      base({
        at: AT_MS,
        ip: "2001:db8::2",
        method: "GET",
        host: "www.example.com",
        path: "/",
        status: 404,
        userAgent: CHROME,
        referrer: "https://gemini.google.com/",
      }),
    );
  });
});

describe("JSON lines with a mapping", () => {
  it("reads the default mapping, with the query inside the path or beside it", () => {
    expect(DEFAULT_JSONL_FIELDS.user_agent).toBe("user_agent");
    const parser = createJsonlParser();
    const line = {
      time: "2026-10-10T11:55:36Z",
      ip: "192.0.2.1",
      method: "GET",
      path: "/p?x=1",
      status: 200,
      user_agent: GPTBOT,
    };
    expect(record(parser.parse(JSON.stringify(line)))).toEqual(
      base({ ip: "192.0.2.1", method: "GET", path: "/p", query: "x=1", status: 200, userAgent: GPTBOT }),
    );
    const split = {
      time: 1791633336123,
      path: "/p",
      query: "?y=2",
      host: "example.com",
      referrer: "https://claude.ai/",
    };
    expect(record(parser.parse(JSON.stringify(split)))).toEqual(
      base({ at: AT_MS, host: "example.com", path: "/p", query: "y=2", referrer: "https://claude.ai/" }),
    );
  });

  it("follows a custom mapping with dot paths, flat dotted keys and nginx-style times", () => {
    const parser = createParser("jsonl", {
      fields: {
        time: "ts",
        ip: "client.address",
        path: "http.request.path",
        user_agent: "request.headers.user-agent",
        referrer: "request.headers.referer",
        status: "response.status",
        query: "",
      },
    });
    expect(parser.format).toBe("jsonl");
    const line = {
      ts: "10/Oct/2026:13:55:36 +0200",
      client: { address: "2001:db8::7" },
      "http.request.path": "/guide?from=ai",
      request: { method: "GET", headers: { "user-agent": CHROME, referer: "https://chatgpt.com/" } },
      response: { status: 200 },
      method: "GET",
      query: "ignored=1",
    };
    expect(record(parser.parse(JSON.stringify(line)))).toEqual(
      base({
        ip: "2001:db8::7",
        method: "GET",
        path: "/guide",
        query: "from=ai",
        status: 200,
        userAgent: CHROME,
        referrer: "https://chatgpt.com/",
      }),
    );
  });

  it("rejects lines without JSON, a timestamp or a path, with those reasons", () => {
    const parser = createJsonlParser();
    const cases: [string, string][] = [
      ["203.0.113.7 - - [10/Oct/2026:13:55:36 +0200]", "not JSON"],
      ['{"time": "2026-10-10T11:55:36Z", "path": ', "not JSON"],
      ['"a string"', "not JSON"],
      ["[1, 2]", "not a JSON object"],
      ['{"path": "/x"}', "no timestamp"],
      ['{"time": "10 October", "path": "/x"}', "bad timestamp"],
      ['{"time": "2026-10-10T11:55:36Z"}', "no path"],
      ['{"time": "2026-10-10T11:55:36Z", "path": "/x", "status": "teapot"}', "bad status"],
    ];
    for (const [line, reason] of cases) expect(parser.parse(line), line).toEqual({ kind: "rejected", reason });
    expect(record(parser.parse('{"time": "2026-10-10T11:55:36Z", "path": "/x"}')).path).toBe("/x");
  });
});

describe("format detection", () => {
  const json = (value: unknown) => JSON.stringify(value);

  it("recognises each format from its first lines", () => {
    const combined = [accessLine({ agent: GPTBOT }), accessLine({ referrer: "https://chatgpt.com/", agent: CHROME })];
    expect(detectFormat(["", ...combined])).toBe("combined");
    expect(detectFormat([accessLine({}), accessLine({ status: "404" })])).toBe("common");
    expect(detectFormat([accessLine({}), accessLine({ agent: GPTBOT }), accessLine({})])).toBe("combined");
    expect(detectFormat(CLOUDFRONT_HEADER)).toBe("cloudfront");
    expect(detectFormat([cloudFrontRow({ date: "2026-10-10", time: "11:55:36", "cs-uri-stem": "/" })])).toBe(
      "cloudfront",
    );
    expect(detectFormat([json({ EdgeStartTimestamp: 1, ClientRequestURI: "/" })])).toBe("cloudflare");
    expect(detectFormat([json({ ClientIP: "192.0.2.4", ClientRequestURI: "/" })])).toBe("cloudflare");
    expect(detectFormat([json({ source: "lambda", proxy: { path: "/" } })])).toBe("vercel");
    expect(detectFormat([json([{ source: "edge", proxy: { path: "/" } }])])).toBe("vercel");
    expect(detectFormat([json({ deploymentId: "dpl_1", source: "build", message: "ok" })])).toBe("vercel");
    expect(detectFormat([json({ timestamp: "x", url: "/", response_status: 200 })])).toBe("fastly");
    expect(detectFormat([json({ time: "x", path: "/" })])).toBe("jsonl");
    expect(detectFormat([json({ "@timestamp": "x", request_uri: "/" })])).toBe("jsonl");
  });

  it("answers null for what it does not know", () => {
    expect(detectFormat([])).toBeNull();
    expect(detectFormat(["", "hello world", "{not json"])).toBeNull();
    expect(detectFormat([json({ level: "info", msg: "started" })])).toBeNull();
  });

  it("creates a parser for every format, labelled with it", () => {
    for (const format of LOG_FORMATS) expect(createParser(format).format).toBe(format);
    const lines = [accessLine({ agent: GPTBOT })];
    const format = detectFormat(lines);
    expect(format).toBe("combined");
    if (format === null) return;
    expect(record(createParser(format).parse(lines[0] ?? "")).userAgent).toBe(GPTBOT);
  });
});
