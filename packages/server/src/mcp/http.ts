import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors/api-error.ts";
import { admit } from "../http/authenticate-request.ts";
import type { Deps } from "../services/context.ts";
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

/**
 * The MCP server over Streamable HTTP at /mcp, authenticated like /v1: the same Bearer key
 * lookup, plan check and workspace rate limit (with its headers) in `onRequest`, before the body
 * is read; then each tool call checks its route's scope. Answers keep the API's `X-Request-Id`,
 * access log and request metering (as `POST /mcp`).
 */
export function registerMcpRoute(app: FastifyInstance, deps: Deps): void {
  const draining = new AbortController();
  app.addHook("preClose", async () => draining.abort());
  app.route({
    method: ["POST", "GET", "DELETE"],
    url: MCP_PATH,
    onRequest: async (request, reply) => admit(deps, request, reply, true, undefined),
    handler: async (request, reply) => {
      if (request.method !== "POST") return methodNotAllowed(reply);
      const auth = request.auth;
      if (auth === null) throw new ApiError("INVALID_API_KEY", "No API key provided.");
      const gone = new AbortController();
      const abort = () => gone.abort();
      reply.raw.once("close", abort);
      // The request was counted in `onRequest`; each further call of a batch counts as one more.
      let calls = 0;
      const server = await createMcpServer(deps, {
        admit: async () => {
          calls += 1;
          if (calls > 1) await countToolCall(deps, auth);
          return { auth, requestId: request.id };
        },
        signal: AbortSignal.any([gone.signal, draining.signal]),
      });
      const { WebStandardStreamableHTTPServerTransport } = await import(
        "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
      );
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const response = await transport.handleRequest(webRequest(request, deps.publicUrl), {
          parsedBody: request.body,
        });
        const body = await response.text();
        reply.code(response.status);
        for (const [name, value] of response.headers) reply.header(name, value);
        return reply.send(body === "" ? undefined : body);
      } finally {
        reply.raw.off("close", abort);
        await server.close();
      }
    },
  });
}
