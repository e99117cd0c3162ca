import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { buildMessageBody } from "./anthropic.ts";
import { buildGenerateContentBody } from "./gemini.ts";
import { buildResponsesBody } from "./openai-responses.ts";
import {
  base62,
  DEFAULT_ANSWER,
  type FakeAnswer,
  hex,
  type JsonValue,
  nowSeconds,
  type RecordedRequest,
} from "./server.ts";

/**
 * Fakes of three vendors' batch APIs on one local server, each speaking its vendor's wire format
 * and answering each request as its live fake would (the same body builders):
 *
 * - OpenAI Batch: `POST /v1/files` (multipart, `purpose=batch`, a JSONL file of
 *   `{custom_id, method, url, body}` lines), `POST /v1/batches`, `GET /v1/batches/:id`
 *   (validating → in_progress → completed or expired), `GET /v1/files/:id/content` (the output
 *   file: `{id, custom_id, response: {status_code, request_id, body}, error}` lines).
 *   `openaiUrl` is `<origin>/v1`.
 * - Anthropic Message Batches: `POST /v1/messages/batches` (`{requests: [{custom_id, params}]}`),
 *   `GET /v1/messages/batches/:id` (`processing_status` in_progress → ended, then a
 *   `results_url`), `GET /v1/messages/batches/:id/results` (JSONL of `{custom_id, result}`).
 *   `anthropicUrl` is the origin.
 * - Gemini batch mode: `POST /v1beta/models/<model>:batchGenerateContent` (`{batch: {displayName,
 *   inputConfig: {requests: {requests: [{request, metadata: {key}}]}}}}`) answering a long-running
 *   operation `batches/<id>`, `GET /v1beta/batches/<id>` (`metadata.state` BATCH_STATE_PENDING →
 *   BATCH_STATE_SUCCEEDED or BATCH_STATE_EXPIRED, the answers inlined in `metadata.output` and
 *   `response`). `geminiUrl` is the origin.
 *
 * Batches run until the test calls `finish()`; a vendor can be told to refuse its next batch. The
 * live endpoints (`/v1/responses`, `/v1/messages`, `:generateContent`) answer too, as their fakes do.
 */

type Vendor = "openai" | "anthropic" | "gemini";

interface FakeBatch {
  vendor: Vendor;
  id: string;
  /** Each request as submitted: our id and the request body the vendor would run. */
  requests: { id: string; body: JsonValue }[];
  state: "running" | "completed" | "expired";
  /** How many times the client looked at it. */
  polls: number;
  createdAt: number;
  /** OpenAI's batch creation body, echoed in its batch object. */
  wire?: Record<string, JsonValue>;
}

export interface FakeBatchVendors {
  readonly origin: string;
  readonly openaiUrl: string;
  readonly anthropicUrl: string;
  readonly geminiUrl: string;
  readonly requests: RecordedRequest[];
  readonly batches: FakeBatch[];
  setAnswer(answer: FakeAnswer): void;
  /** Ends every running batch: answered (`completed`), or `expired` with none of its answers. */
  finish(how?: "completed" | "expired"): void;
  /** The vendor answers its next batch creation with a 500. */
  refuseNext(vendor: Vendor): void;
  stop(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown, type = "application/json"): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": type, "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}

/** The `file` part of a multipart/form-data body. */
function multipartFile(request: IncomingMessage, raw: Buffer): string | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(String(request.headers["content-type"] ?? ""));
  const mark = boundary?.[1] ?? boundary?.[2];
  if (mark === undefined) return null;
  for (const part of raw.toString("utf8").split(`--${mark}`)) {
    const split = part.indexOf("\r\n\r\n");
    if (split < 0 || !/name="file"/.test(part.slice(0, split))) continue;
    return part.slice(split + 4).replace(/\r\n$/, "");
  }
  return null;
}

function asRecorded(path: string, body: JsonValue): RecordedRequest {
  return { method: "POST", path, query: {}, headers: {}, body, rawBody: JSON.stringify(body), at: 0 };
}

export async function startFakeBatchVendors(): Promise<FakeBatchVendors> {
  const requests: RecordedRequest[] = [];
  const batches: FakeBatch[] = [];
  const files = new Map<string, string>();
  const refusing = new Set<Vendor>();
  let answer: FakeAnswer = DEFAULT_ANSWER;
  let origin = "";

  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

  const openaiBatch = (batch: FakeBatch, body: Record<string, JsonValue>) => {
    const created = Math.floor(batch.createdAt / 1000);
    const ended = batch.state !== "running";
    let outputFile: string | null = null;
    if (batch.state === "completed") {
      outputFile = `file-${base62(22)}`;
      files.set(
        outputFile,
        batch.requests
          .map((request) =>
            JSON.stringify({
              id: `batch_req_${hex(16)}`,
              custom_id: request.id,
              response: {
                status_code: 200,
                request_id: hex(16),
                body: buildResponsesBody(answer, asRecorded("/v1/responses", request.body)),
              },
              error: null,
            }),
          )
          .join("\n"),
      );
    }
    return {
      id: batch.id,
      object: "batch",
      endpoint: body.endpoint ?? "/v1/responses",
      errors: null,
      input_file_id: body.input_file_id ?? null,
      completion_window: "24h",
      status: ended ? batch.state : batch.polls === 0 ? "validating" : "in_progress",
      output_file_id: outputFile,
      error_file_id: null,
      created_at: created,
      in_progress_at: batch.polls > 0 ? created + 1 : null,
      expires_at: created + 86_400,
      finalizing_at: batch.state === "completed" ? nowSeconds() : null,
      completed_at: batch.state === "completed" ? nowSeconds() : null,
      failed_at: null,
      expired_at: batch.state === "expired" ? nowSeconds() : null,
      cancelling_at: null,
      cancelled_at: null,
      request_counts: {
        total: batch.requests.length,
        completed: batch.state === "completed" ? batch.requests.length : 0,
        failed: 0,
      },
      metadata: body.metadata ?? null,
    };
  };

  const anthropicBatch = (batch: FakeBatch) => {
    const ended = batch.state !== "running";
    const n = batch.requests.length;
    return {
      id: batch.id,
      type: "message_batch",
      processing_status: ended ? "ended" : "in_progress",
      request_counts: {
        processing: ended ? 0 : n,
        succeeded: batch.state === "completed" ? n : 0,
        errored: 0,
        canceled: 0,
        expired: batch.state === "expired" ? n : 0,
      },
      ended_at: ended ? new Date().toISOString() : null,
      created_at: new Date(batch.createdAt).toISOString(),
      expires_at: new Date(batch.createdAt + 86_400_000).toISOString(),
      archived_at: null,
      cancel_initiated_at: null,
      results_url: ended ? `${origin}/v1/messages/batches/${batch.id}/results` : null,
    };
  };

  const geminiOperation = (batch: FakeBatch, model: string) => {
    const state =
      batch.state === "completed"
        ? "BATCH_STATE_SUCCEEDED"
        : batch.state === "expired"
          ? "BATCH_STATE_EXPIRED"
          : batch.polls === 0
            ? "BATCH_STATE_PENDING"
            : "BATCH_STATE_RUNNING";
    const output =
      batch.state === "completed"
        ? {
            inlinedResponses: {
              inlinedResponses: batch.requests.map((request) => ({
                response: buildGenerateContentBody(
                  answer,
                  asRecorded(`/v1beta/models/${model}:generateContent`, request.body),
                  (citation) => citation.url,
                ),
                metadata: { key: request.id },
              })),
            },
          }
        : undefined;
    return {
      name: `batches/${batch.id}`,
      metadata: {
        "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatch",
        model: `models/${model}`,
        displayName: "sightline",
        createTime: iso(Math.floor(batch.createdAt / 1000)),
        updateTime: new Date().toISOString(),
        ...(batch.state === "running" ? {} : { endTime: new Date().toISOString() }),
        batchStats: { requestCount: String(batch.requests.length) },
        state,
        ...(output === undefined ? {} : { output }),
      },
      ...(batch.state === "running"
        ? {}
        : {
            done: true,
            response: {
              "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatchOutput",
              ...(output ?? {}),
            },
          }),
    };
  };

  const geminiModels = new Map<string, string>();

  const handle = (req: IncomingMessage, raw: Buffer, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname;
    let body: JsonValue | null = null;
    try {
      body =
        raw.length > 0 && !String(req.headers["content-type"]).startsWith("multipart/")
          ? JSON.parse(raw.toString("utf8"))
          : null;
    } catch {
      body = null;
    }
    requests.push({
      method: req.method ?? "GET",
      path,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
      rawBody: raw.toString("utf8"),
      at: performance.now(),
    });
    const object = (body ?? {}) as Record<string, JsonValue>;
    const refuse = (vendor: Vendor) => {
      if (!refusing.delete(vendor)) return false;
      json(res, 500, {
        error: { message: "The server had an error while processing your request.", type: "server_error" },
      });
      return true;
    };

    // The live endpoints too, for answers asked live after a vendor refused their batch.
    if (req.method === "POST" && path === "/v1/responses") {
      return json(res, 200, buildResponsesBody(answer, asRecorded(path, body)));
    }
    if (req.method === "POST" && path === "/v1/messages") {
      return json(res, 200, buildMessageBody(answer, asRecorded(path, body)));
    }
    if (req.method === "POST" && /^\/v1beta\/models\/[^/:]+:generateContent$/.test(path)) {
      return json(
        res,
        200,
        buildGenerateContentBody(answer, asRecorded(path, body), (citation) => citation.url),
      );
    }

    // OpenAI
    if (req.method === "POST" && path === "/v1/files") {
      const content = multipartFile(req, raw);
      if (content === null)
        return json(res, 400, { error: { message: "No file part.", type: "invalid_request_error" } });
      const id = `file-${base62(22)}`;
      files.set(id, content);
      return json(res, 200, {
        id,
        object: "file",
        bytes: Buffer.byteLength(content),
        created_at: nowSeconds(),
        filename: "batch.jsonl",
        purpose: "batch",
        status: "processed",
        expires_at: null,
        status_details: null,
      });
    }
    if (req.method === "POST" && path === "/v1/batches") {
      if (refuse("openai")) return;
      const content = files.get(String(object.input_file_id));
      if (content === undefined)
        return json(res, 400, { error: { message: "No such file.", type: "invalid_request_error" } });
      const batch: FakeBatch = {
        vendor: "openai",
        id: `batch_${hex(16)}`,
        requests: content
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line) => JSON.parse(line) as { custom_id: string; body: JsonValue })
          .map((line) => ({ id: line.custom_id, body: line.body })),
        state: "running",
        polls: 0,
        createdAt: Date.now(),
      };
      batch.wire = object;
      batches.push(batch);
      return json(res, 200, openaiBatch(batch, object));
    }
    const openaiGet = /^\/v1\/batches\/([^/]+)$/.exec(path);
    if (req.method === "GET" && openaiGet !== null) {
      const batch = batches.find((b) => b.vendor === "openai" && b.id === openaiGet[1]);
      if (batch === undefined)
        return json(res, 404, { error: { message: "No such batch.", type: "invalid_request_error" } });
      const view = openaiBatch(batch, batch.wire ?? {});
      batch.polls++;
      return json(res, 200, view);
    }
    const fileContent = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (req.method === "GET" && fileContent !== null) {
      const content = files.get(fileContent[1] ?? "");
      if (content === undefined)
        return json(res, 404, { error: { message: "No such file.", type: "invalid_request_error" } });
      return json(res, 200, content, "application/octet-stream");
    }

    // Anthropic
    if (req.method === "POST" && path === "/v1/messages/batches") {
      if (refuse("anthropic")) return;
      const list = Array.isArray(object.requests)
        ? (object.requests as { custom_id: string; params: JsonValue }[])
        : [];
      const batch: FakeBatch = {
        vendor: "anthropic",
        id: `msgbatch_01${base62(22)}`,
        requests: list.map((request) => ({ id: request.custom_id, body: request.params })),
        state: "running",
        polls: 0,
        createdAt: Date.now(),
      };
      batches.push(batch);
      return json(res, 200, anthropicBatch(batch));
    }
    const anthropicResults = /^\/v1\/messages\/batches\/([^/]+)\/results$/.exec(path);
    if (req.method === "GET" && anthropicResults !== null) {
      const batch = batches.find((b) => b.vendor === "anthropic" && b.id === anthropicResults[1]);
      if (batch === undefined || batch.state === "running")
        return json(res, 404, { type: "error", error: { type: "not_found_error", message: "No results yet." } });
      const lines = batch.requests.map((request) =>
        JSON.stringify({
          custom_id: request.id,
          result:
            batch.state === "completed"
              ? { type: "succeeded", message: buildMessageBody(answer, asRecorded("/v1/messages", request.body)) }
              : { type: "expired" },
        }),
      );
      return json(res, 200, `${lines.join("\n")}\n`, "application/binary");
    }
    const anthropicGet = /^\/v1\/messages\/batches\/([^/]+)$/.exec(path);
    if (req.method === "GET" && anthropicGet !== null) {
      const batch = batches.find((b) => b.vendor === "anthropic" && b.id === anthropicGet[1]);
      if (batch === undefined)
        return json(res, 404, { type: "error", error: { type: "not_found_error", message: "No such batch." } });
      batch.polls++;
      return json(res, 200, anthropicBatch(batch));
    }

    // Gemini
    const geminiCreate = /^\/v1beta\/models\/([^/:]+):batchGenerateContent$/.exec(path);
    if (req.method === "POST" && geminiCreate !== null) {
      if (refusing.delete("gemini"))
        return json(res, 500, { error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" } });
      const input = (
        object.batch as {
          inputConfig?: { requests?: { requests?: { request: JsonValue; metadata?: { key?: string } }[] } };
        }
      )?.inputConfig?.requests?.requests;
      const batch: FakeBatch = {
        vendor: "gemini",
        id: base62(20).toLowerCase(),
        requests: (input ?? []).map((entry) => ({ id: String(entry.metadata?.key), body: entry.request })),
        state: "running",
        polls: 0,
        createdAt: Date.now(),
      };
      batches.push(batch);
      geminiModels.set(batch.id, geminiCreate[1] ?? "gemini-2.5-flash");
      return json(res, 200, geminiOperation(batch, geminiCreate[1] ?? "gemini-2.5-flash"));
    }
    const geminiGet = /^\/v1beta\/batches\/([^/]+)$/.exec(path);
    if (req.method === "GET" && geminiGet !== null) {
      const batch = batches.find((b) => b.vendor === "gemini" && b.id === geminiGet[1]);
      if (batch === undefined)
        return json(res, 404, {
          error: { code: 404, message: "Requested entity was not found.", status: "NOT_FOUND" },
        });
      const view = geminiOperation(batch, geminiModels.get(batch.id) ?? "gemini-2.5-flash");
      batch.polls++;
      return json(res, 200, view);
    }
    return json(res, 404, { error: { message: `Invalid URL (${req.method} ${path})` } });
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handle(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  return {
    origin,
    openaiUrl: `${origin}/v1`,
    anthropicUrl: origin,
    geminiUrl: origin,
    requests,
    batches,
    setAnswer(value) {
      answer = { ...value, citations: [...value.citations] };
    },
    finish(how = "completed") {
      for (const batch of batches) if (batch.state === "running") batch.state = how;
    },
    refuseNext(vendor) {
      refusing.add(vendor);
    },
    stop() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
