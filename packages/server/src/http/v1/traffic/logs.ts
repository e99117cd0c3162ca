import { validationError } from "../../../errors/api-error.ts";
import { importTrafficLogs } from "../../../services/traffic/import.ts";
import { TrafficImportSchema, TrafficLogsQuery } from "../../../services/traffic/ingest-schemas.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

/** The media types a push may be sent as: log drains and CDNs say JSON or nothing in particular. */
const ACCEPTED = [
  "text/plain",
  "application/x-ndjson",
  "application/json",
  "application/octet-stream",
  "application/gzip",
];
/** The most a push may hold, decompressed: a day of a busy site goes as several batches. */
const MAX_BATCH_BYTES = 256 * 1024 * 1024;

function checkEncoding(headers: Readonly<Record<string, string | string[] | undefined>>): void {
  const type = String(headers["content-type"] ?? "text/plain")
    .split(";")[0]
    ?.trim()
    .toLowerCase();
  if (type !== undefined && type !== "" && !ACCEPTED.includes(type)) {
    throw validationError(
      [{ field: "Content-Type", issue: `must be one of ${ACCEPTED.join(", ")}` }],
      `Send the log lines as the body, with Content-Type ${ACCEPTED.slice(0, 2).join(" or ")} (gzip allowed).`,
    );
  }
  const encoding = String(headers["content-encoding"] ?? "identity")
    .trim()
    .toLowerCase();
  if (encoding !== "identity" && encoding !== "gzip" && encoding !== "") {
    throw validationError(
      [{ field: "Content-Encoding", issue: "must be gzip or left out" }],
      `Content-Encoding '${encoding}' is not supported; send the lines plain or gzipped.`,
    );
  }
}

export const importTrafficLogsRoute = defineRoute({
  operationId: "importProjectTrafficLogs",
  method: "POST",
  path: "/projects/:id/traffic/logs",
  tag: "Traffic",
  summary: "Push access-log lines for a brand",
  description: `Counts a batch of the brand's access-log lines: the body is the raw lines (\`text/plain\` or \`application/x-ndjson\`; gzip allowed, as \`Content-Encoding: gzip\` or a gzipped body), in any format Sightline reads (nginx/Apache combined and common, CloudFront, Cloudflare Logpush, Vercel drains, Fastly, JSON lines), detected from the first lines unless \`format\` names it. Only AI bots' hits and AI-referred visits are kept, as daily counts per page; every other line is counted as \`ignored\` and dropped. The same bytes pushed twice are recognised by their SHA-256 and counted once (\`duplicate: true\`). At most ${MAX_BATCH_BYTES / 1024 / 1024} MiB of lines (decompressed) per request.

Log drains and CDN pushes authenticate with one of the brand's **ingest tokens** (\`Authorization: Bearer sl_ingest_…\`, made in Settings → Traffic), which open this endpoint for that brand and nothing else; an API key with the \`projects\` scope works too.`,
  scope: "projects",
  extension: true,
  ingestToken: true,
  params: IdParams,
  query: TrafficLogsQuery,
  rawBody: {
    contentTypes: ["text/plain", "application/x-ndjson"],
    description:
      "The log lines, one request per line (a Vercel drain's JSON array on a line is read whole); gzip allowed.",
  },
  success: { status: 200, description: "What the batch counted to.", schema: TrafficImportSchema },
  errors: ["NOT_FOUND"],
  handler: async ({ ctx, params, query, headers, stream, via }) => {
    checkEncoding(headers);
    if (stream === null)
      throw validationError([{ field: "body", issue: "is required" }], "The batch holds no log lines.");
    return importTrafficLogs(ctx, params.id, {
      body: stream,
      source: ctx.actor.type === "ingest_token" ? "drain" : via === "dashboard" ? "upload" : "api",
      format: query.format ?? null,
      maxBytes: MAX_BATCH_BYTES,
    });
  },
});
