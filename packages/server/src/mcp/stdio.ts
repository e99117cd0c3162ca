import type { Readable, Writable } from "node:stream";
import type { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { newId } from "../lib/ids.ts";
import { authenticate } from "../services/auth/authenticate.ts";
import type { Deps } from "../services/context.ts";
import { billingPeriod } from "../services/usage/period.ts";
import { countToolCall } from "./rate-limit.ts";
import { mcpSdk } from "./sdk.ts";
import { createMcpServer } from "./server.ts";

interface StdioOptions {
  input: Readable;
  output: Writable;
  /** Aborted to stop serving (SIGTERM, SIGINT); closing `input` stops it too. */
  signal: AbortSignal;
}

/**
 * Serves the MCP tools over stdio for one API key until `input` ends or `signal` aborts. The key
 * is checked once at start (a bad key fails at once, with the API's message) and again before
 * every tool call, like a request: a revoked or expired key stops working within the key cache's
 * few seconds. Each call counts against the workspace's rate limit (shared with the API processes
 * when the limits live in Redis) and is metered as `MCP <tool>`.
 */
export async function serveMcpOverStdio(deps: Deps, apiKey: string, options: StdioOptions): Promise<void> {
  const authorization = `Bearer ${apiKey}`;
  const first = await authenticate(deps, authorization);
  deps.logger.info(
    { workspace: first.key.workspaceId, key_id: first.key.id, scopes: first.key.scopes },
    "MCP server on stdio for this key",
  );
  const server = await createMcpServer(deps, {
    admit: async (what) => {
      const auth = await authenticate(deps, authorization);
      // Metered whatever its outcome, like every authenticated request.
      const period = billingPeriod(auth.key.billingAnchor, deps.clock.now());
      deps.meter?.record(auth.key.workspaceId, period.start, `MCP ${what}`);
      await countToolCall(deps, auth);
      return { auth, requestId: newId("req") };
    },
    signal: options.signal,
  });
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const transport = new StdioServerTransport(options.input, options.output);
  const answering = new Answering(transport, (await mcpSdk()).types);
  const stopped = new Promise<void>((resolve) => {
    if (options.signal.aborted) return resolve();
    options.signal.addEventListener("abort", () => resolve(), { once: true });
    transport.onclose = resolve;
  });
  const inputEnded = new Promise<void>((resolve) => {
    options.input.once("end", resolve);
    options.input.once("close", resolve);
  });
  await server.connect(transport);
  answering.watch();
  try {
    // A client that closes stdin after its last request (a script, a pipe) still gets the answers.
    await Promise.race([stopped, inputEnded.then(() => answering.idle())]);
  } finally {
    await server.close();
  }
}

/**
 * The requests received and not yet answered, to close only once they are. Wraps the transport's
 * `onmessage` and `send` as the server left them after connecting.
 */
class Answering {
  readonly #pending = new Set<string | number>();
  #waiters: (() => void)[] = [];

  constructor(
    private readonly transport: StdioServerTransport,
    private readonly types: typeof import("@modelcontextprotocol/sdk/types.js"),
  ) {}

  watch(): void {
    const receive = this.transport.onmessage;
    this.transport.onmessage = (message) => {
      if (this.types.isJSONRPCRequest(message)) this.#pending.add(message.id);
      receive?.(message);
    };
    const send = this.transport.send.bind(this.transport);
    this.transport.send = async (message) => {
      await send(message);
      if (this.types.isJSONRPCResultResponse(message) || this.types.isJSONRPCErrorResponse(message)) {
        if (message.id !== undefined) this.#pending.delete(message.id);
        if (this.#pending.size === 0) for (const wake of this.#waiters.splice(0)) wake();
      }
    };
  }

  idle(): Promise<void> {
    if (this.#pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}
