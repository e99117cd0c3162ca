import { createServer, type IncomingMessage, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vendorFetch } from "../../src/services/engines/vendor-fetch.ts";

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
        if (req.url === "/gzip") {
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
});
