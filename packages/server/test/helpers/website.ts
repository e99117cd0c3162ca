import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A local website: the only fake here stands for a site on the internet. */
export class Site {
  readonly pages = new Map<string, { status?: number; type?: string; body: string | (() => void) }>();
  readonly asked: string[] = [];
  #server: Server | null = null;
  url = "";

  async start(): Promise<this> {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = req.url ?? "/";
      this.asked.push(path);
      const page = this.pages.get(path);
      if (page === undefined) {
        res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
        return;
      }
      if (typeof page.body === "function") {
        page.body.call(res);
        return;
      }
      res.writeHead(page.status ?? 200, { "content-type": page.type ?? "text/html; charset=utf-8" }).end(page.body);
    });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  /** Lets the process end with the site still open (a site shared by a whole test file). */
  unref(): this {
    this.#server?.unref();
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}
