import { createAnalysis } from "../../../services/analyses/create.ts";
import { getAnalysis, listAnalyses } from "../../../services/analyses/read.ts";
import {
  AnalysisListQuery,
  AnalysisListSchema,
  AnalysisSchema,
  AnalyzeSchema,
} from "../../../services/analyses/schemas.ts";
import { engineFailure, waitForAnalysis } from "../../../services/analyses/wait.ts";
import { MAX_WAIT_SECONDS } from "../../../services/limits.ts";
import { defineRoute, WithStatus } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Analyses";

/**
 * Seconds the client asked to wait, from the body's `wait` or RFC 7240's `Prefer: wait=N`
 * (the body wins), capped at 60; 0 for the asynchronous default.
 */
function waitSeconds(
  wait: boolean | number | undefined,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): number {
  if (wait !== undefined) return wait === true ? MAX_WAIT_SECONDS : wait === false ? 0 : wait;
  const prefer = headers.prefer;
  const match = /(?:^|[,;\s])wait\s*=\s*"?(\d{1,6})"?/i.exec(Array.isArray(prefer) ? prefer.join(",") : (prefer ?? ""));
  return match?.[1] === undefined ? 0 : Math.min(MAX_WAIT_SECONDS, Number(match[1]));
}

export const analyzeRoute = defineRoute({
  operationId: "analyze",
  method: "POST",
  path: "/analyze",
  tag,
  summary: "Run an analysis",
  description:
    'Queues an analysis of a brand: each prompt is asked of each engine `samples` times, and each answer is measured. Reserves one credit per answer; credits of answers that fail are given back. Emits `analysis.completed` when it finishes.\n\nAnswers `202` at once by default. With `"wait": true` (or `Prefer: wait=N`, at most 60 s) it answers when the analysis has finished: `200` with the finished analysis, `502 ENGINE_FAILURE` when every answer failed (its credits are given back; retry or use another engine), or `202` with the analysis still running if the wait ran out.',
  scope: "analyze",
  body: AnalyzeSchema,
  success: {
    status: 202,
    description: "The analysis, queued (or still running when a wait ran out).",
    schema: AnalysisSchema,
    also: [
      { status: 200, description: "With `wait`: the analysis, finished (some engines may have failed; see `errors`)." },
    ],
  },
  errors: ["NOT_FOUND", "ENGINE_NOT_ALLOWED", "BILLING_LIMIT_EXCEEDED", "BILLING_UNAVAILABLE", "ENGINE_FAILURE"],
  handler: async ({ ctx, body, headers, via, signal, progress }) => {
    const { wait, ...input } = body;
    const seconds = waitSeconds(wait, headers);
    const queued = await createAnalysis(ctx, input, { trigger: via });
    if (seconds === 0) return queued;
    const outcome = await waitForAnalysis(ctx, queued.id, seconds, signal, progress);
    const applied = { "preference-applied": `wait=${seconds}` };
    if (!outcome.finished) return new WithStatus(202, outcome.analysis, applied);
    if (outcome.analysis.status === "failed") throw engineFailure(outcome.analysis);
    return new WithStatus(200, outcome.analysis, applied);
  },
});

export const getAnalysisRoute = defineRoute({
  operationId: "getAnalysis",
  method: "GET",
  path: "/analyses/:id",
  tag,
  summary: "Read an analysis",
  description: "Its status, progress, the engines that failed and, once finished, its summary metrics.",
  scope: "analyze",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "The analysis.", schema: AnalysisSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => getAnalysis(ctx, params.id),
});

export const listAnalysesRoute = defineRoute({
  operationId: "listAnalyses",
  method: "GET",
  path: "/analyses",
  tag,
  summary: "List analyses",
  description: "The workspace's analyses, newest first, optionally of one brand or in one status.",
  scope: "analyze",
  extension: true,
  query: AnalysisListQuery,
  success: { status: 200, description: "A page of analyses.", schema: AnalysisListSchema },
  handler: ({ ctx, query }) => listAnalyses(ctx, query),
});
