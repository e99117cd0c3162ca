import type { Insertable, Selectable } from "kysely";
import type { AnalysesTable, ResultsTable } from "../../db/tables.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import type { AskResult } from "../engines/registry.ts";
import { type CompiledProject, measureAnswer } from "../measurement/measure.ts";
import type { AnswerMeasure } from "../measurement/types.ts";
import type { WorkItem } from "./plan.ts";

/**
 * One engine's answer (or failure) as the result row stored for it: measured when it succeeded,
 * with the vendor's error (already scrubbed of secrets by the registry) when it failed.
 */
export function answerToResult(
  analysis: Selectable<AnalysesTable>,
  item: WorkItem,
  asked: AskResult,
  compiled: CompiledProject,
  createdAt: string,
  /** The answer's measure when the caller has it already (settled by the judge). */
  measured?: AnswerMeasure,
): Insertable<ResultsTable> {
  const { outcome, attempts, latencyMs, costMicros } = asked;
  const base = {
    id: newId("res"),
    workspace_id: analysis.workspace_id,
    project_id: analysis.project_id,
    analysis_id: analysis.id,
    engine: item.engine,
    prompt: item.prompt,
    prompt_index: item.promptIndex,
    sample: item.sample,
    attempts,
    latency_ms: latencyMs,
    score_version: analysis.score_version,
    created_at: createdAt,
    // Counted in the rollups in the transaction that stores it (see run.ts).
    rolled_up: true,
  };
  if (!outcome.ok) {
    return {
      ...base,
      model: null,
      status: "failed",
      error: toJson({ code: outcome.error.code, message: outcome.error.message }),
      text: null,
      measure: null,
      mentioned: false,
      position: null,
      sentiment: null,
      brand_cited: false,
      citation_count: 0,
      brand_citation_count: 0,
      score: null,
      // Every row has every column: answers are written in groups, one statement for many rows.
      searches: "[]",
      input_tokens: null,
      output_tokens: null,
      search_calls: null,
      cost_micros: null,
    };
  }
  const measure = measured ?? measureAnswer(compiled, { ...outcome.answer, prompt: item.prompt });
  return {
    ...base,
    model: outcome.answer.model,
    status: "succeeded",
    error: null,
    text: outcome.answer.text,
    searches: toJson(outcome.answer.searches),
    input_tokens: outcome.answer.usage.inputTokens,
    output_tokens: outcome.answer.usage.outputTokens,
    search_calls: outcome.answer.usage.searchCalls,
    cost_micros: costMicros,
    ...measureColumns(measure),
  };
}

/** The columns of `results` that hold an answer's measure. */
export function measureColumns(measure: AnswerMeasure) {
  return {
    measure: toJson(measure),
    mentioned: measure.brand.mentioned,
    position: measure.brand.position,
    sentiment: measure.brand.sentiment,
    brand_cited: measure.brand_cited,
    citation_count: measure.citations.length,
    brand_citation_count: measure.citations.filter((c) => c.brand).length,
    score: measure.score,
    score_version: measure.score_version,
  };
}
