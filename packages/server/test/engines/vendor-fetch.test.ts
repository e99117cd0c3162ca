import { Agent, createServer, type IncomingMessage, type Server } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChatCompletionsAdapter } from "../../src/services/engines/adapters/chat-completions.ts";
import { REPLY_LIMIT_BYTES, vendorFetch, vendorFetchVia } from "../../src/services/engines/vendor-fetch.ts";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** The fetch the vendors' SDKs are given, against a real local server. */
describe("vendor fetch", () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  const sockets = new Set<unknown>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      sockets.add(req.socket);
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        seen.push({
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        const bomb = () => Buffer.alloc(REPLY_LIMIT_BYTES + 1024 * 1024, " ");
        if (req.url?.endsWith("/bomb/chat/completions")) {
          // A few KB of gzip that inflate past the limit.
          res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
          res.end(gzipSync(bomb(), { level: 9 }));
        } else if (req.url === "/brotli-bomb") {
          res.writeHead(200, { "content-type": "application/json", "content-encoding": "br" });
          res.end(brotliCompressSync(bomb()));
        } else if (req.url === "/huge") {
          // No content-length: the size is only known as it arrives.
          res.writeHead(200, { "content-type": "application/json" });
          for (let i = 0; i < 9; i++) res.write(Buffer.alloc(1024 * 1024, "a"));
          res.end();
        } else if (req.url === "/declared") {
          res.writeHead(200, { "content-type": "application/json", "content-length": String(REPLY_LIMIT_BYTES + 1) });
          res.write("{");
        } else if (req.url === "/gzip") {
          res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "x-request-id": "r1" });
          res.end(gzipSync(JSON.stringify({ answer: "Acme CRM" })));
        } else if (req.url === "/empty") {
          res.writeHead(204).end();
        } else if (req.url === "/limited") {
          res.writeHead(429, { "retry-after": "3", "content-type": "application/json" });
          res.end(JSON.stringify({ error: { message: "slow down" } }));
        } else if (req.url === "/slow") {
          setTimeout(() => res.writeHead(200).end("late"), 2_000);
        } else {
          res.writeHead(200, { "content-type": "text/plain", "set-cookie": ["a=1", "b=2"] });
          res.end(`echo ${Buffer.concat(chunks).toString()}`);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("sends the method, headers and body, and answers a standard Response", async () => {
    const response = await vendorFetch(`${base}/echo?x=1`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
      body: JSON.stringify({ prompt: "best CRM" }),
    });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(await response.text()).toBe('echo {"prompt":"best CRM"}');
    expect(response.headers.get("content-type")).toBe("text/plain");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    const request = seen.at(-1) as Seen;
    expect(request).toMatchObject({ method: "POST", url: "/echo?x=1", body: '{"prompt":"best CRM"}' });
    expect(request.headers).toMatchObject({ "content-type": "application/json", authorization: "Bearer sk-test" });
  });

  it("asks for compressed answers and hands them over decoded", async () => {
    const response = await vendorFetch(new URL(`${base}/gzip`));
    expect(seen.at(-1)?.headers["accept-encoding"]).toContain("gzip");
    expect(await response.json()).toEqual({ answer: "Acme CRM" });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("x-request-id")).toBe("r1");
  });

  it("answers statuses without a body, and errors as the vendor sent them", async () => {
    const empty = await vendorFetch(`${base}/empty`, { method: "DELETE" });
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe("");
    const limited = await vendorFetch(`${base}/limited`, { method: "POST", body: "{}" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(await limited.json()).toEqual({ error: { message: "slow down" } });
  });

  it("reuses its connections", async () => {
    sockets.clear();
    for (let i = 0; i < 5; i++) await (await vendorFetch(`${base}/echo`, { method: "POST", body: String(i) })).text();
    expect(sockets.size).toBe(1);
  });

  it("stops when its signal aborts, as fetch does", async () => {
    const started = Date.now();
    await expect(vendorFetch(`${base}/slow`, { signal: AbortSignal.timeout(100) })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("sends a multipart upload (a batch's input file) through the global fetch", async () => {
    const form = new FormData();
    form.append("purpose", "batch");
    form.append("file", new Blob(['{"custom_id":"a"}\n']), "input.jsonl");
    const response = await vendorFetch(`${base}/upload`, { method: "POST", body: form });
    expect(response.status).toBe(200);
    const request = seen.at(-1) as Seen;
    expect(request.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.body).toContain('name="purpose"');
    expect(request.body).toContain('{"custom_id":"a"}');
  });

  it("refuses a reply past the limit on the guarded path: a gzip or brotli bomb, a huge body, a huge length", async () => {
    const guarded = vendorFetchVia({ "http:": new Agent(), "https:": new HttpsAgent() }, () => null);
    for (const path of ["/v1/bomb/chat/completions", "/brotli-bomb", "/huge", "/declared"]) {
      await expect(guarded(`${base}${path}`, { method: "POST", body: "{}" }), path).rejects.toThrow(
        "refused: the engine's reply is larger than 8 MB",
      );
    }
    // Within the limit, replies are read as before.
    expect(await (await guarded(`${base}/gzip`)).json()).toEqual({ answer: "Acme CRM" });
    // A custom engine answering so is a failure of the engine that says why, not a crash.
    const engine = new ChatCompletionsAdapter(
      { name: "bomb", apiKey: "not-needed", baseUrl: `${base}/v1/bomb`, model: "m", fetch: guarded },
      5_000,
    );
    const outcome = await engine.ask(
      { prompt: "best CRM", country: null, language: null, sample: 1, seed: "s" },
      AbortSignal.timeout(5_000),
    );
    expect(outcome).toMatchObject({
      ok: false,
      error: { message: "bomb: refused: the engine's reply is larger than 8 MB", retryable: false },
    });
  });
});
