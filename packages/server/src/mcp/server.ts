import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, Tool as ToolDescription } from "@modelcontextprotocol/sdk/types.js";
import { ApiError } from "../errors/api-error.ts";
import { keyContext } from "../http/doors/api-key.ts";
import { toApiError } from "../http/errors.ts";
import { type Progress, RawResponse, WithStatus } from "../http/route.ts";
import { callRoute } from "../http/runner.ts";
import { newId } from "../lib/ids.ts";
import { scopeAllows } from "../services/api-keys/scopes.ts";
import type { Authenticated } from "../services/auth/authenticate.ts";
import { unavailableError } from "../services/availability.ts";
import type { Deps } from "../services/context.ts";
import { GLOSSARY, type MetricId } from "../services/glossary/metrics.ts";
import { parseToolInput, publishedInputSchema, publishedOutputSchema } from "./input.ts";
import { serializeThrough } from "./output.ts";
import { mcpSdk } from "./sdk.ts";
import type { Tool } from "./tool.ts";
import { MCP_TOOLS } from "./tools.ts";

/** Who calls the tools of one MCP server instance, and how a call is let in. */
export interface McpCaller {
  /**
   * Lets one tool call in: the key valid and of a plan with API access, the call counted against
   * the workspace's rate limit. Over HTTP the request that carries the call was let in already.
   */
  admit(tool: Tool): Promise<{ auth: Authenticated; requestId: string }>;
  /** Aborted when the client goes away or the process drains: a waiting tool stops waiting. */
  signal: AbortSignal;
}

const named = (id: MetricId) => GLOSSARY[id].name.toLowerCase();

const INSTRUCTIONS = `Sightline measures how brands appear in the answers of AI engines (ChatGPT, Claude, Gemini, Perplexity…).
Start with list_brands to find a brand's project_id; get_metrics gives its ${named("visibility")}, ${named("share_of_voice")}, ${named("average_position")},
${named("sentiment")}, ${named("citation_rate")} and ${named("visibility_score")} over time; list_results shows the answers themselves;
run_analysis asks the engines now (it spends credits). Each tool needs the API key's scope named in its description.`;

function scopeNote(tool: Tool): string {
  const { scope, method } = tool.route;
  return method === "GET" ? `Scope: \`${scope}\` or \`read\`.` : `Scope: \`${scope}\`.`;
}

const DESCRIPTIONS: ToolDescription[] = MCP_TOOLS.map((tool) => {
  const reads = tool.route.method === "GET";
  return {
    name: tool.name,
    title: tool.title,
    description: `${tool.description}\n\n${scopeNote(tool)}`,
    inputSchema: publishedInputSchema(tool),
    outputSchema: publishedOutputSchema(tool.route.success.schema),
    annotations: {
      title: tool.title,
      readOnlyHint: reads,
      destructiveHint: false,
      idempotentHint: reads,
      // Reads answer from stored data; an analysis asks outside AI engines.
      openWorldHint: !reads,
    },
  };
});

const BY_NAME = new Map(MCP_TOOLS.map((tool) => [tool.name, tool]));

function authorizeTool(auth: Authenticated, tool: Tool): void {
  const { scope, method } = tool.route;
  if (scopeAllows(auth.key.scopes, scope, method)) return;
  const accepted = method === "GET" ? `'${scope}' or 'read'` : `'${scope}'`;
  throw new ApiError(
    "INSUFFICIENT_SCOPE",
    `The tool ${tool.name} needs the ${accepted} scope; the key has ${auth.key.scopes.map((s) => `'${s}'`).join(", ")}.`,
  );
}

/** A refusal or failure as the tool's result: the API's error body, flagged `isError`, never a crash. */
function errorResult(deps: Deps, tool: Tool, error: unknown, requestId: string, admitted: boolean): CallToolResult {
  const apiError = unavailableError(error, admitted) ?? toApiError(error);
  if (apiError.code === "INTERNAL_ERROR")
    deps.logger.error({ err: error, reqId: requestId, tool: tool.name }, "MCP tool failed");
  const body = {
    error: {
      code: apiError.code,
      message: apiError.message,
      request_id: requestId,
      details: apiError.details ?? [],
      ...(apiError.retryAfter === undefined ? {} : { retry_after: Math.max(1, Math.ceil(apiError.retryAfter)) }),
    },
  };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

/**
 * One tool call, in the API's check order from the scope on (the caller's admission did key, plan
 * and rate limit): scope → arguments against the route's schemas → the service, which checks the
 * engines against the plan and meters credits as it does for the REST route.
 */
async function callTool(
  deps: Deps,
  caller: McpCaller,
  tool: Tool,
  args: Record<string, unknown> | undefined,
  signal: AbortSignal,
  progress: Progress | null,
): Promise<CallToolResult> {
  let requestId = newId("req");
  let admitted = false;
  try {
    const admission = await caller.admit(tool);
    requestId = admission.requestId;
    admitted = true;
    authorizeTool(admission.auth, tool);
    const parsed = parseToolInput(tool, args);
    const input = tool.prepare === undefined ? parsed : tool.prepare(parsed as Parameters<typeof tool.prepare>[0]);
    // The route's own handler, as every door runs it: MCP is a door of API v1 for API keys.
    const answer = await callRoute(tool.route, {
      ...input,
      headers: {},
      address: "",
      rate: null,
      via: "api",
      signal,
      stream: null,
      progress,
      caller: { ctx: keyContext(deps, admission.auth, requestId) },
    });
    if (answer instanceof RawResponse)
      throw new Error(`MCP tool ${tool.name}: its route answered ${answer.contentType}`);
    const result = answer instanceof WithStatus ? answer.body : answer;
    const text = serializeThrough(tool.route.success.schema, result);
    const structuredContent = JSON.parse(text) as Record<string, unknown>;
    const readable = tool.readable?.(structuredContent);
    return {
      content: [{ type: "text", text }, ...(readable === undefined ? [] : [{ type: "text" as const, text: readable }])],
      structuredContent,
    };
  } catch (error) {
    return errorResult(deps, tool, error, requestId, admitted);
  }
}

/**
 * An MCP server (the SDK's low-level `Server`) publishing the tools with their JSON Schemas, for
 * one caller. Over HTTP one is made per request (stateless); over stdio one per process.
 */
export async function createMcpServer(deps: Deps, caller: McpCaller): Promise<Server> {
  const {
    server: { Server },
    types: { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError },
  } = await mcpSdk();
  const server = new Server(
    // The version of the API whose contract the tools follow, as in the OpenAPI document.
    { name: "sightline", title: "Sightline", version: "1.0.0" },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: DESCRIPTIONS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = BY_NAME.get(request.params.name);
    if (tool === undefined) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool '${request.params.name}'; the tools are ${MCP_TOOLS.map((t) => t.name).join(", ")}.`,
      );
    }
    // A client that sent a progress token hears how far a long call has got (run_analysis's answers).
    const token = request.params._meta?.progressToken;
    const progress: Progress | null =
      token === undefined
        ? null
        : (done, total, message) => {
            extra
              .sendNotification({
                method: "notifications/progress",
                params: { progressToken: token, progress: done, total, message },
              })
              .catch((error: unknown) => deps.logger.debug({ err: error }, "MCP progress not sent"));
          };
    const signal = AbortSignal.any([extra.signal, caller.signal]);
    return callTool(deps, caller, tool, request.params.arguments, signal, progress);
  });
  server.onerror = (error) => deps.logger.debug({ err: error }, "MCP protocol error");
  return server;
}
