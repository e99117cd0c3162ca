import { createServer, type IncomingHttpHeaders, type Server } from "node:http";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
  receivedAt: number;
  /** The client's port: requests sharing one came over one kept-alive connection. */
  remotePort: number | undefined;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

/**
 * A real HTTP receiver on 127.0.0.1 that records every request and answers what the test says:
 * a fixed status, or a script of answers consumed in order (the last one repeats).
 */
export class Receiver {
  readonly received: Received[] = [];
  #script: Answer[] = [{ status: 200 }];
  #server: Server | undefined;
  #waiters: { count: number; path: string | undefined; resolve: () => void }[] = [];
  url = "";

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        this.received.push({
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          path: req.url ?? "/",
          receivedAt: performance.now(),
          remotePort: req.socket.remotePort,
        });
        const answer = this.#script.length > 1 ? (this.#script.shift() as Answer) : (this.#script[0] as Answer);
        const reply = () => res.writeHead(answer.status, answer.headers).end(answer.body ?? "ok");
        if (answer.delayMs === undefined) reply();
        else setTimeout(reply, answer.delayMs);
        this.#waiters = this.#waiters.filter((waiter) => {
          const done = this.on(waiter.path).length >= waiter.count;
          if (done) waiter.resolve();
          return !done;
        });
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, "127.0.0.1", resolve));
    const address = this.#server.address();
    this.url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
    return this;
  }

  answer(...script: Answer[]): void {
    this.#script = script;
  }

  /** Requests that arrived on `path` (all of them without one). */
  on(path?: string): Received[] {
    return path === undefined ? this.received : this.received.filter((r) => r.path === path);
  }

  /** Resolves once `count` requests have arrived (on `path`, if given), or rejects after `timeoutMs`. */
  waitFor(count: number, path?: string, timeoutMs = 10_000): Promise<void> {
    if (this.on(path).length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(`${this.on(path).length} of ${count} requests arrived${path === undefined ? "" : ` on ${path}`}`),
        );
      }, timeoutMs);
      this.#waiters.push({
        count,
        path,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}
