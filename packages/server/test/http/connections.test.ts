import net from "node:net";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHttpApp } from "../../src/http/app.ts";
import { useHarness } from "../helpers/harness.ts";

const TIMEOUT_MS = 2_000;

interface SlowOutcome {
  /** The first bytes the server sent back, or "" if none. */
  answer: string;
  /** Bytes of the body sent before the answer (or the close) came. */
  sent: number;
  elapsedMs: number;
  closedByServer: boolean;
}

/** Sends a request's headers at once and its body one byte a second, as a slow-loris client does. */
function slowClient(port: number, key: string, body: string): Promise<SlowOutcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, "127.0.0.1");
    let sent = 0;
    let answer = "";
    let closedByServer = false;
    socket.write(
      `POST /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    const drip = setInterval(() => {
      if (sent < body.length && !socket.destroyed) socket.write(body.charAt(sent++));
    }, 1_000);
    socket.on("data", (chunk) => {
      if (answer === "") answer = chunk.toString("utf8");
    });
    socket.on("end", () => {
      closedByServer = true;
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(drip);
      resolve({ answer, sent, elapsedMs: performance.now() - started, closedByServer });
    });
    // Bounded whatever happens: the test ends by itself.
    setTimeout(() => socket.destroy(), 20_000).unref();
  });
}

describe("a slow client", () => {
  const h = useHarness("sqlite");
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = await buildHttpApp(h.deps, {
      publicUrl: "http://localhost",
      bodyLimitBytes: 1 << 20,
      requestTimeoutMs: TIMEOUT_MS,
      logger: pino({ level: "silent" }),
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    port = typeof address === "object" && address !== null ? address.port : 0;
  });
  afterAll(async () => {
    await app?.close();
  });

  it("is answered 408 and disconnected within the request timeout, while other clients are served", async () => {
    const tenant = await h.tenant("growth");
    const body = JSON.stringify({ name: "Slowloris", primary_domain: "slow.example.com" });
    const slow = slowClient(port, tenant.key, body);

    // Meanwhile, other clients are served as usual.
    const others: number[] = [];
    const until = performance.now() + TIMEOUT_MS + 500;
    while (performance.now() < until) {
      const res = await fetch(`http://127.0.0.1:${port}/v1/projects`, {
        headers: { authorization: `Bearer ${tenant.key}` },
      });
      others.push(res.status);
      await res.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const outcome = await slow;
    expect(outcome.answer.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
    const json = JSON.parse(outcome.answer.slice(outcome.answer.indexOf("\r\n\r\n") + 4));
    expect(json.error.code).toBe("VALIDATION_ERROR");
    expect(json.error.message).toContain("did not arrive in time");
    expect(outcome.closedByServer).toBe(true);
    // Cut off mid-body, by the server: the body was far from complete.
    expect(outcome.sent).toBeLessThan(body.length);
    // Node checks incomplete requests every second: the answer comes within the timeout plus that.
    expect(outcome.elapsedMs).toBeLessThan(TIMEOUT_MS + 2_500);
    expect(others.length).toBeGreaterThan(5);
    expect(new Set(others)).toEqual(new Set([200]));
    // Nothing of the slow request was stored.
    expect(await h.count("projects", tenant.workspace.id)).toBe(0);
  });

  it("cannot hold the server's connections past its cap", async () => {
    const capped = await buildHttpApp(h.deps, {
      publicUrl: "http://localhost",
      bodyLimitBytes: 1 << 20,
      maxConnections: 2,
      logger: pino({ level: "silent" }),
    });
    await capped.listen({ host: "127.0.0.1", port: 0 });
    try {
      const address = capped.server.address();
      const cappedPort = typeof address === "object" && address !== null ? address.port : 0;
      const open = await Promise.all(
        [0, 1].map(
          () =>
            new Promise<net.Socket>((resolve) => {
              const socket = net.connect(cappedPort, "127.0.0.1", () => resolve(socket));
            }),
        ),
      );
      // A third connection is closed at once without an answer.
      const third = await new Promise<string>((resolve) => {
        const socket = net.connect(cappedPort, "127.0.0.1");
        let data = "";
        socket.on("data", (chunk) => (data += chunk.toString()));
        socket.on("error", () => resolve(`error:${data}`));
        socket.on("close", () => resolve(`closed:${data}`));
        socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
      });
      expect(third).toMatch(/^(closed|error):$/);
      for (const socket of open) socket.destroy();
    } finally {
      await capped.close();
    }
  });
});
