import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, Tool as ToolDescription } from "@modelcontextprotocol/sdk/types.js";
import { ApiError } from "../errors/api-error.ts";
import { toApiError } from "../http/errors.ts";
import type { Progress } from "../http/route.ts";
import { newId } from "../lib/ids.ts";
import type { Authenticated } from "../services/auth/authenticate.ts";
import { unavailableError } from "../services/availability.ts";
import type { Deps } from "../services/context.ts";
import { GLOSSARY, type MetricId } from "../services/glossary/metrics.ts";
import { parseToolInput, publishedInputSchema, publishedOutputSchema } from "./input.ts";
import { completeBrand, getPrompt, listPrompts, PromptArgumentError } from "./prompts.ts";
import { listResources, listResourceTemplates, ResourceNotFound, readResource } from "./resources.ts";
import { authorizeRoute, runRoute } from "./run-route.ts";
import { mcpSdk } from "./sdk.ts";
import type { Tool } from "./tool.ts";
import { MCP_TOOLS } from "./tools.ts";

type Admission = Awaited<ReturnType<McpCaller["admit"]>>;

/** Who calls the tools of one MCP server instance, and how a call is let in. */
export interface McpCaller {
  /**
   * Lets one request in (a tool call by the tool's name, a read of resources or prompts by its method): the key valid and of a plan with API access, the call counted against
   * the workspace's rate limit. Over HTTP the request that carries the call was let in already.
   */
  admit(what: string): Promise<{ auth: Authenticated; requestId: string }>;
  /** Aborted when the client goes away or the process drains: a waiting tool stops waiting. */
  signal: AbortSignal;
}

const named = (id: MetricId) => GLOSSARY[id].name.toLowerCase();

const INSTRUCTIONS = `Sightline measures how brands appear in the answers of AI engines (ChatGPT, Claude, Gemini, Perplexity…).
Start with list_brands to find a brand's project_id; get_metrics gives its ${named("visibility")}, ${named("share_of_voice")}, ${named("average_position")},
${named("sentiment")}, ${named("citation_rate")} and ${named("visibility_score")} over time; list_results shows the answers themselves;
run_analysis asks the engines now (it spends credits). Each tool needs the API key's scope named in its description.
Resources: the glossary (sightline://glossary: what each figure means), each brand (sightline://brands/{project_id}) and the newest reports (sightline://reports/{report_id}).
Prompts: weekly_visibility_summary and what_to_fix_first, for a brand by its name.`;

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
    const admission = await caller.admit(tool.name);
    requestId = admission.requestId;
    admitted = true;
    authorizeRoute(admission.auth, tool.route, `tool ${tool.name}`);
    const parsed = parseToolInput(tool, args);
    const input = tool.prepare === undefined ? parsed : tool.prepare(parsed as Parameters<typeof tool.prepare>[0]);
    const { text, json } = await runRoute(deps, tool.route, input, admission, signal, progress, `tool ${tool.name}`);
    const readable = tool.readable?.(json);
    return {
      content: [{ type: "text", text }, ...(readable === undefined ? [] : [{ type: "text" as const, text: readable }])],
      structuredContent: json,
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
    types: {
      CallToolRequestSchema,
      CompleteRequestSchema,
      ErrorCode,
      GetPromptRequestSchema,
      ListPromptsRequestSchema,
      ListResourcesRequestSchema,
      ListResourceTemplatesRequestSchema,
      ListToolsRequestSchema,
      McpError,
      ReadResourceRequestSchema,
    },
  } = await mcpSdk();
  const server = new Server(
    // The version of the API whose contract the tools follow, as in the OpenAPI document.
    { name: "sightline", title: "Sightline", version: "1.0.0" },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false },
        prompts: { listChanged: false },
        completions: {},
      },
      instructions: INSTRUCTIONS,
    },
  );
  /**
   * A request other than a tool call, let in like one; a refusal becomes the protocol's error
   * (a tool call's refusals are its result instead, as the protocol asks of tools).
   */
  const answer = async <T>(
    what: string,
    signal: AbortSignal,
    run: (admission: Admission) => Promise<T>,
  ): Promise<T> => {
    try {
      return await run(await caller.admit(what));
    } catch (error) {
      if (error instanceof ResourceNotFound) throw new McpError(error.code, error.message);
      if (error instanceof PromptArgumentError) throw new McpError(ErrorCode.InvalidParams, error.message);
      if (error instanceof ApiError) {
        const code = error.code === "NOT_FOUND" ? -32002 : ErrorCode.InvalidRequest;
        throw new McpError(code, `${error.code}: ${error.message}`, {
          error: { code: error.code, message: error.message },
        });
      }
      if (signal.aborted) throw new McpError(ErrorCode.RequestTimeout, "The request was cancelled.");
      deps.logger.error({ err: error, what }, "MCP request failed");
      throw new McpError(ErrorCode.InternalError, "Something went wrong on Sightline's side; retry in a moment.");
    }
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: DESCRIPTIONS }));
  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    const signal = AbortSignal.any([extra.signal, caller.signal]);
    return answer("resources/list", signal, (admission) => listResources(deps, admission, signal));
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => listResourceTemplates());
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const signal = AbortSignal.any([extra.signal, caller.signal]);
    return answer("resources/read", signal, (admission) => readResource(deps, request.params.uri, admission, signal));
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => listPrompts());
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const signal = AbortSignal.any([extra.signal, caller.signal]);
    return answer("prompts/get", signal, (admission) =>
      getPrompt(deps, request.params.name, request.params.arguments, admission, signal),
    );
  });
  server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const signal = AbortSignal.any([extra.signal, caller.signal]);
    const { ref, argument } = request.params;
    if (ref.type !== "ref/prompt" || argument.name !== "brand") return { completion: { values: [] } };
    return answer("completion/complete", signal, (admission) => completeBrand(deps, argument.value, admission, signal));
  });
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
