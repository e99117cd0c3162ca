import { ERROR_MEANING, ERROR_STATUS, type SpecErrorCode } from "../../errors/codes.ts";
import { ENGINES } from "../../services/engines/catalog.ts";
import { EVENT_SCHEMAS } from "../../services/webhooks/event-schemas.ts";
import { COMMON_ERRORS, type Route } from "../route.ts";
import { ErrorSchema } from "../schema.ts";
import { ComponentCollector, type JsonSchema } from "./schemas.ts";

const TAGS: Record<string, string> = {
  Projects: "Brands that are analysed and monitored: their domains, aliases, competitors, prompts and engines.",
  Analyses: "Runs of prompts × engines × samples for a brand: queued, executed by the worker, summarised.",
  Results: "Each measured answer: mentions, position, sentiment, citations and a visibility score.",
  Analytics:
    "A brand's figures over time, per engine, prompt, source and competitor, recomputed from the counts stored with each answer.",
  Monitoring: "Recurring analyses of a brand on a schedule, their runs, and the alert rules evaluated after each run.",
  Reports: "Reports generated for every finished analysis and monitoring run, and a weekly digest per monitored brand.",
  Usage: "API requests and credits of the current billing period, and the rate-limit window.",
  Webhooks:
    "Subscriptions to events, delivered as signed POSTs. Verify `X-Webhook-Signature` (hex HMAC-SHA256 of `timestamp.body` with the secret) and refuse timestamps more than five minutes away.",
};

const API_DESCRIPTION = `The Sightline API measures how brands appear in the answers of AI engines.

**Authentication.** Every request carries \`Authorization: Bearer <API_KEY>\`. Keys are created in the
workspace Settings (API keys card) or by the operator CLI; each has scopes and expires one year after
creation. API access needs the Growth or Agency plan.

**Errors.** A failing request answers with the status of its code and the body
\`{"error": {"code", "message", "request_id", "details": [{"field", "issue"}]}}\`.
Checks run in this order: key valid, plan has API access, rate limit, scope, request validation, engine
allowed by the plan, billing.

**Lists** take \`limit\` (1 to 100, default 20) and \`cursor\`, and return
\`{"data": [...], "has_more": bool, "next_cursor": string | null}\`, newest first.

**Rate limits.** Each workspace has a number of requests per 60-second window (by default Growth 300, Agency
1,000), shared by all its keys; requests without a valid key are limited to 60 per window per address.
Every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (unix
seconds); a refused one is \`429 RATE_LIMIT_EXCEEDED\` with \`Retry-After\`.

**Credits.** Work that asks engines spends credits (one per answer) from the plan's monthly allowance;
past it, such requests are \`403 BILLING_LIMIT_EXCEEDED\`. Reads never spend.

**Ids** are prefixed strings (\`prj_…\`). **Timestamps** are ISO 8601 in UTC. Every response carries
\`X-Request-Id\`.`;

const HEADERS = {
  "X-Request-Id": { $ref: "#/components/headers/RequestId" },
  "X-RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
  "X-RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
  "X-RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" },
};

const HEADER_COMPONENTS = {
  RequestId: { description: "Identifies the request; quote it when asking for support.", schema: { type: "string" } },
  RateLimitLimit: {
    description:
      "Requests allowed in the current 60-second window (the workspace's plan, or 60 per address without a valid key).",
    schema: { type: "integer" },
  },
  RateLimitRemaining: { description: "Requests left in the current window.", schema: { type: "integer" } },
  RateLimitReset: { description: "Unix time, in seconds, at which the window resets.", schema: { type: "integer" } },
  RetryAfter: { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
};

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, "{$1}");
}

function parameters(route: Route, where: "path" | "query", components: ComponentCollector): JsonSchema[] {
  const schema = (where === "path" ? route.params : route.query) as
    | { properties?: Record<string, JsonSchema>; required?: string[] }
    | undefined;
  if (schema?.properties === undefined) return [];
  return Object.entries(schema.properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === "path" || (schema.required ?? []).includes(name),
      ...(typeof description === "string" ? { description } : {}),
      schema: components.ref(rest),
    };
  });
}

function errorResponses(codes: SpecErrorCode[], components: ComponentCollector): Record<string, JsonSchema> {
  const byStatus = new Map<number, SpecErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, JsonSchema> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: statusCodes.map((code) => `\`${code}\`: ${ERROR_MEANING[code]}`).join(" "),
      headers:
        status === 429 || status === 503
          ? { ...HEADERS, "Retry-After": { $ref: "#/components/headers/RetryAfter" } }
          : HEADERS,
      content: {
        "application/json": {
          schema: components.ref(ErrorSchema),
          examples: Object.fromEntries(
            statusCodes.map((code) => [
              code,
              {
                summary: code,
                value: {
                  error: {
                    code,
                    message: ERROR_MEANING[code],
                    request_id: "req_8bT2kQ0mZr4sXv7YwLp1aNcE",
                    details: [],
                  },
                },
              },
            ]),
          ),
        },
      },
    };
  }
  return out;
}

function operation(route: Route, components: ComponentCollector): JsonSchema {
  const scopes = route.method === "GET" ? `\`${route.scope}\` or \`read\`` : `\`${route.scope}\``;
  const codes = [...new Set([...COMMON_ERRORS, ...(route.errors ?? [])])];
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}\n\n**Scope:** ${scopes}.${route.extension === true ? "\n\n*Sightline extension to the v1 specification.*" : ""}`,
    tags: [route.tag],
    security: [{ bearerAuth: [] }],
    "x-required-scope": route.scope,
    "x-accepted-scopes": route.method === "GET" ? [route.scope, "read"] : [route.scope],
    parameters: [...parameters(route, "path", components), ...parameters(route, "query", components)],
    ...(route.rawBody !== undefined
      ? {
          requestBody: {
            required: true,
            description: route.rawBody.description,
            content: Object.fromEntries(
              route.rawBody.contentTypes.map((type) => [type, { schema: { type: "string", format: "binary" } }]),
            ),
          },
        }
      : {}),
    ...(route.body === undefined
      ? {}
      : {
          requestBody: {
            required: route.bodyOptional !== true,
            content: { "application/json": { schema: components.ref(route.body) } },
          },
        }),
    responses: {
      [String(route.success.status)]: {
        description: route.success.description,
        headers: HEADERS,
        content: {
          "application/json": { schema: components.ref(route.success.schema) },
          ...Object.fromEntries(
            (route.success.alternatives ?? []).map((alt) => [
              alt.contentType,
              {
                schema: {
                  type: "string",
                  ...(alt.contentType.startsWith("text/") ? {} : { format: "binary" }),
                  description: alt.description,
                },
              },
            ]),
          ),
        },
      },
      ...Object.fromEntries(
        (route.success.also ?? []).map((other) => [
          String(other.status),
          {
            description: other.description,
            headers: HEADERS,
            content: { "application/json": { schema: components.ref(route.success.schema) } },
          },
        ]),
      ),
      ...errorResponses(codes, components),
    },
  };
}

const WEBHOOK_HEADERS = [
  ["X-Webhook-Id", "The event's id; the same on every attempt, so receivers can drop duplicates."],
  ["X-Webhook-Event", "The event kind."],
  ["X-Webhook-Timestamp", "Unix seconds when this attempt was sent; refuse it if more than five minutes away."],
  [
    "X-Webhook-Signature",
    "Hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>` keyed with the subscription's secret.",
  ],
  ["X-Webhook-Delivery", "The delivery's id (`whd_…`), as listed by the deliveries endpoint."],
  ["X-Webhook-Attempt", "This attempt's number, from 1."],
];

function webhookOperations(components: ComponentCollector): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [type, { schema, summary }] of Object.entries(EVENT_SCHEMAS)) {
    out[type] = {
      post: {
        operationId: `on${type
          .split(/[._]/)
          .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
          .join("")}`,
        summary,
        description: `Delivered as a signed POST to every active subscription listening to \`${type}\`. Retried with backoff for about three days until a 2xx answer.`,
        tags: ["Webhooks"],
        security: [],
        parameters: WEBHOOK_HEADERS.map(([name, description]) => ({
          name,
          in: "header",
          required: true,
          description,
          schema: { type: "string" },
        })),
        requestBody: { required: true, content: { "application/json": { schema: components.ref(schema) } } },
        responses: {
          "200": { description: "Any 2xx answer acknowledges the delivery." },
          "410": { description: "Gone: Sightline turns the subscription off." },
        },
      },
    };
  }
  return out;
}

/** The OpenAPI 3.1 document, built from the same route definitions that serve requests. */
export function buildOpenApiDocument(
  routes: Route[],
  publicUrl: string,
  engineNames: readonly string[] = ENGINES,
): JsonSchema {
  const components = new ComponentCollector();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route, components);
  }
  const engineName = components.schemas.EngineName;
  if (engineName !== undefined) {
    components.schemas.EngineName = {
      ...engineName,
      enum: [...engineNames],
      description: "An engine this server knows.",
    };
  }
  const tags = [...new Set(routes.map((route) => route.tag))].map((name) => ({
    name,
    description: TAGS[name] ?? name,
  }));
  return {
    openapi: "3.1.0",
    info: {
      title: "Sightline API",
      version: "1.0.0",
      summary: "AI visibility measurement: brands, analyses, results, monitoring, reports, webhooks.",
      description: API_DESCRIPTION,
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    servers: [{ url: `${publicUrl}/v1`, description: "This Sightline server." }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    webhooks: webhookOperations(components),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "sl_live_…",
          description: "An API key from Settings → API keys, sent as `Authorization: Bearer <key>`.",
        },
      },
      headers: HEADER_COMPONENTS,
      schemas: components.schemas,
    },
  };
}
