import type { Selectable } from "kysely";
import type { ResultsTable } from "../../db/tables.ts";
import { surfacePairs } from "../engines/catalog.ts";
import { type AnswerCounts, summarize, testDifference } from "../measurement/aggregate.ts";
import { resultColumns } from "../results/columns.ts";
import type { AnalysisSummary } from "./types.ts";

type StoredResult = Pick<
  Selectable<ResultsTable>,
  "engine" | "prompt" | "status" | "measure" | "mentioned" | "position" | "sentiment" | "score"
>;

/** A stored answer's contribution to aggregates, read from its stored counts. */
function countsOf(row: StoredResult): AnswerCounts {
  const measure = resultColumns.measure.readNullable(row.measure);
  return {
    mentioned: row.mentioned,
    position: row.position,
    sentiment: row.sentiment,
    score: row.score ?? 0,
    citations: (measure?.citations ?? []).map((c) => ({ domain: c.domain, brand: c.brand })),
    competitors: (measure?.competitors ?? []).map((c) => ({
      name: c.name,
      mentioned: c.mentioned,
      position: c.position,
    })),
  };
}

/** The analysis's aggregates, overall, per engine and per prompt, over its successful answers. */
export function summarizeResults(
  rows: StoredResult[],
  competitors: string[],
  engines: string[],
  prompts: string[],
): AnalysisSummary {
  const ok = rows.filter((row) => row.status === "succeeded");
  const counts = ok.map((row) => ({ row, counts: countsOf(row) }));
  const of = (filter: (row: StoredResult) => boolean) =>
    summarize(
      counts.filter((c) => filter(c.row)).map((c) => c.counts),
      competitors,
    );
  const byEngine = Object.fromEntries(engines.map((engine) => [engine, of((row) => row.engine === engine)]));
  return {
    overall: of(() => true),
    by_engine: byEngine,
    by_prompt: prompts.map((prompt) => ({ prompt, summary: of((row) => row.prompt === prompt) })),
    surfaces: surfacePairs().flatMap(({ api, web }) => {
      const onApi = byEngine[api];
      const onWeb = byEngine[web];
      if (onApi === undefined || onWeb === undefined) return [];
      return [
        {
          api_engine: api,
          web_engine: web,
          api: onApi.visibility,
          web: onWeb.visibility,
          ...testDifference(onApi.visibility, onWeb.visibility),
        },
      ];
    }),
  };
}
