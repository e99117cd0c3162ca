import type { Selectable } from "kysely";
import type { ResultsTable } from "../../db/tables.ts";
import type { Project } from "../projects/types.ts";
import { resultColumns } from "../results/columns.ts";
import type { AnswerRow, Subject } from "./compute.ts";

type Row = Pick<
  Selectable<ResultsTable>,
  "id" | "analysis_id" | "engine" | "prompt" | "created_at" | "mentioned" | "text" | "measure" | "searches"
>;

/** A stored answer as the opportunity rules read it. */
export function answerRowOf(r: Row): AnswerRow {
  const measure = resultColumns.measure.readNullable(r.measure);
  return {
    id: r.id,
    analysis_id: r.analysis_id,
    engine: r.engine,
    prompt: r.prompt,
    created_at: r.created_at,
    mentioned: r.mentioned,
    stance: measure?.brand.stance ?? null,
    text: r.text ?? "",
    citations: (measure?.citations ?? []).map((c) => ({
      url: c.url,
      domain: c.domain,
      brand: c.brand,
      competitor: c.competitor,
    })),
    competitorsNamed: (measure?.competitors ?? []).filter((c) => c.mentioned).map((c) => c.name),
    searches: resultColumns.searches.read(r.searches),
  };
}

/** The names and facts the rules look for: the brand's, its competitors'. */
export function subjectOf(project: Project): Subject {
  return {
    brandNames: [project.name, ...project.aliases, ...(project.case_sensitive_aliases ?? [])],
    competitorNames: project.competitors.flatMap((c) => [c.name, ...c.aliases, ...(c.case_sensitive_aliases ?? [])]),
    facts: project.facts ?? {},
  };
}
