import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors/api-error.ts";
import { admit } from "../http/authenticate-request.ts";
import type { Deps } from "../services/context.ts";
import { registerOAuthRoutes, resourceMetadataUrl } from "./oauth.ts";
import { countToolCall } from "./rate-limit.ts";
import { createMcpServer } from "./server.ts";

/** Where the Streamable HTTP transport answers; outside /v1, and so outside the OpenAPI document. */
const MCP_PATH = "/mcp";

/** The request as the SDK's web-standard transport reads it; the body is handed over parsed. */
function webRequest(request: FastifyRequest, publicUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return new Request(new URL(request.url, publicUrl), { method: request.method, headers });
}

/**
 * Stateless mode (ADR 0024): every POST carries whole JSON-RPC messages and gets whole JSON
 * answers. A GET would open a stream for server-initiated messages, which a stateless server has
 * none of, and DELETE ends a session it never started: both are 405, as the protocol provides.
 */
function methodNotAllowed(reply: FastifyReply): FastifyReply {
  return reply
    .code(405)
    .header("allow", "POST")
    .type("application/json; charset=utf-8")
    .send({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Method not allowed: this MCP server is stateless; POST JSON-RPC messages." },
      id: null,
    });
}

interface Message {
  id?: unknown;
  method?: unknown;
  params?: { requestId?: unknown; _meta?: { progressToken?: unknown } };
}

const messagesOf = (body: unknown): Message[] =>
  (Array.isArray(body) ? body : [body]).filter((m): m is Message => typeof m === "object" && m !== null);

/**
 * The calls this process is answering, by key and JSON-RPC id. A stateless server hears a client's
 * `notifications/cancelled` in a POST of its own, which no other request's server instance sees:
 * the registry carries it to the POST that holds the call, whose wait then ends. Per process: a
 * cancel that reaches another process behind the same balancer is not heard, and the call ends
 * when its wait does (at most 55 s).
 */
class Calls {
  readonly #open = new Map<string, AbortController>();

  static key(keyId: string, id: unknown): string {
    return `${keyId}\u0000${JSON.stringify(id)}`;
  }

  /** Registers the requests of one POST under one controller; the returned function forgets them. */
  hold(keyId: string, messages: Message[], controller: AbortController): () => void {
    const keys = messages
      .filter((m) => m.id !== undefined && typeof m.method === "string")
      .map((m) => Calls.key(keyId, m.id));
    for (const key of keys) this.#open.set(key, controller);
    return () => {
      for (const key of keys) if (this.#open.get(key) === controller) this.#open.delete(key);
    };
  }

  /** Aborts the calls a POST's `notifications/cancelled` name, if this process holds them. */
  cancel(keyId: string, messages: Message[]): void {
    for (const message of messages) {
      if (message.method !== "notifications/cancelled" || message.params?.requestId === undefined) continue;
      this.#open.get(Calls.key(keyId, message.params.requestId))?.abort();
    }
  }
}

/**
 * The MCP server over Streamable HTTP at /mcp, authenticated like /v1: the same Bearer key
 * lookup, plan check and workspace rate limit (with its headers) in `onRequest`, before the body
 * is read; then each tool call checks its route's scope. Answers keep the API's `X-Request-Id`,
 * access log and request metering (as `POST /mcp`).
 */
export function registerMcpRoute(app: FastifyInstance, deps: Deps): void {
  registerOAuthRoutes(app, deps);
  const draining = new AbortController();
  const calls = new Calls();
  app.addHook("preClose", async () => draining.abort());
  app.route({
    method: ["POST", "GET", "DELETE"],
    url: MCP_PATH,
    // An API key or an OAuth access token (ADR 0038). Refused, the answer says where a client
    // learns to sign in (RFC 9728 §5.1): the MCP authorization spec's discovery starts there.
    onRequest: async (request, reply) => {
      try {
        await admit(deps, request, reply, true, undefined, "keys-and-tokens");
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          const metadata = `resource_metadata="${resourceMetadataUrl(deps, request)}"`;
          const presented = request.headers.authorization !== undefined;
          reply.header(
            "www-authenticate",
            presented ? `Bearer ${metadata}, error="invalid_token"` : `Bearer ${metadata}`,
          );
        }
        throw error;
      }
    },
    handler: async (request, reply) => {
      if (request.method !== "POST") return methodNotAllowed(reply);
      const auth = request.auth;
      if (auth === null) throw new ApiError("INVALID_API_KEY", "No API key provided.");
      const messages = messagesOf(request.body);
      calls.cancel(auth.key.id, messages);
      const gone = new AbortController();
      const abort = () => gone.abort();
      reply.raw.once("close", abort);
      const forget = calls.hold(auth.key.id, messages, gone);
      // The request was counted in `onRequest`; each further call of a batch counts as one more.
      let counted = 0;
      const server = await createMcpServer(deps, {
        admit: async () => {
          counted += 1;
          if (counted > 1) await countToolCall(deps, auth);
          return { auth, requestId: request.id };
        },
        signal: AbortSignal.any([gone.signal, draining.signal]),
      });
      const done = async () => {
        reply.raw.off("close", abort);
        forget();
        await server.close();
      };
      const { WebStandardStreamableHTTPServerTransport } = await import(
        "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
      );
      // Whole JSON answers, unless a call asked for progress: then an event stream carries the
      // progress notifications as they happen, and the answer last.
      const streamed = messages.some((m) => m.params?._meta?.progressToken !== undefined);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: !streamed,
      });
      let response: Response;
      try {
        await server.connect(transport);
        response = await transport.handleRequest(webRequest(request, deps.publicUrl), { parsedBody: request.body });
      } catch (error) {
        await done();
        throw error;
      }
      reply.code(response.status);
      for (const [name, value] of response.headers) reply.header(name, value);
      if (!streamed || response.body === null) {
        try {
          const body = await response.text();
          return reply.send(body === "" ? undefined : body);
        } finally {
          await done();
        }
      }
      const stream = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
      stream.once("close", () => void done());
      return reply.send(stream);
    },
  });
}
