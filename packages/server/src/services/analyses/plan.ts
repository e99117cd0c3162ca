import type { Selectable } from "kysely";
import type { AnalysesTable, ConversationsTable } from "../../db/tables.ts";
import type { ServiceContext } from "../context.ts";
import { MAX_TURNS } from "../conversations/schemas.ts";
import { scriptColumns } from "../conversations/scripts.ts";
import { type CompiledProject, compileProject } from "../measurement/measure.ts";
import type { AnswerMeasure, MeasuredProject } from "../measurement/types.ts";
import { measuredProject } from "../projects/measured.ts";
import { getProject } from "../projects/projects.ts";
import type { Project } from "../projects/types.ts";
import { resultColumns } from "../results/columns.ts";
import { analysisColumns } from "./columns.ts";

/** Who asks and from where (issue 29): a persona at its version, and a country. */
interface Variant {
  personaId: string | null;
  personaVersion: number | null;
  /** The persona's text, as the engines receive it (null: nobody in particular). */
  persona: string | null;
  country: string | null;
  /**
   * Whether the country must be where it is asked from (the brand's `countries`, or one named in the
   * request): an engine that cannot be placed there is then not asked. False for the brand's one
   * `country`, its market: an engine that cannot be placed is asked from nowhere in particular,
   * and its answer records no country.
   */
  strictCountry: boolean;
}

/**
 * One answer to ask: a prompt of an engine, the nth time, under a variant. `promptIndex` is the
 * answer's slot in the analysis (what makes it one answer with its engine and sample): the prompt's
 * index in the variant's block of prompts, or a conversation turn's place after every block.
 */
export interface WorkItem extends Variant {
  promptIndex: number;
  prompt: string;
  engine: string;
  sample: number;
}

/** A turn of a conversation already stored. */
interface StoredTurn {
  turn: number;
  prompt: string;
  succeeded: boolean;
  text: string | null;
  responseId: string | null;
  measure: AnswerMeasure | null;
}

/** A conversation still to carry on: its script as it was queued, and the turns stored so far. */
export interface PlannedConversation {
  row: Selectable<ConversationsTable>;
  turns: string[];
  variables: Record<string, string>;
  persona: string | null;
  /** Its first turn's slot; turn t is `firstSlot + t - 1`. */
  firstSlot: number;
  done: StoredTurn[];
}

/** What a run of an analysis needs: the brand as measured, and the answers still to ask. */
export interface AnalysisPlan {
  project: Project;
  measured: MeasuredProject;
  compiled: CompiledProject;
  engines: string[];
  prompts: string[];
  work: WorkItem[];
  conversations: PlannedConversation[];
}

/**
 * Every prompt × engine × sample × variant of the analysis not answered yet, and every
 * conversation not ended: a retried job picks up where a crashed one stopped.
 */
export async function planAnalysis(ctx: ServiceContext, row: Selectable<AnalysesTable>): Promise<AnalysisPlan> {
  // An analysis accepted before its brand was deleted still finishes (and releases what it did not spend).
  const project = await getProject(ctx, row.project_id, { deleted: "included" });
  const measured = measuredProject(project);
  const engines = analysisColumns.engines.read(row.engines);
  const prompts = analysisColumns.prompts.read(row.prompts);
  const personas = analysisColumns.personas.read(row.personas);
  const countries = analysisColumns.countries.read(row.countries);
  const conversations = await ctx.db
    .selectFrom("conversations")
    .selectAll()
    .where("workspace_id", "=", row.workspace_id)
    .where("analysis_id", "=", row.id)
    .execute();
  const texts = await personaTexts(ctx, [
    ...personas,
    ...conversations.flatMap((c) =>
      c.persona_id === null || c.persona_version === null ? [] : [{ id: c.persona_id, version: c.persona_version }],
    ),
  ]);
  const variants: Variant[] = [];
  for (const persona of personas.length > 0 ? personas : [null]) {
    for (const country of countries.length > 0 ? countries : [row.country]) {
      variants.push({
        personaId: persona?.id ?? null,
        personaVersion: persona?.version ?? null,
        persona: persona === null ? null : (texts.get(`${persona.id}@${persona.version}`) ?? null),
        country,
        strictCountry: countries.length > 0,
      });
    }
  }
  const answered = await ctx.db
    .selectFrom("results")
    .select([
      "prompt_index",
      "engine",
      "sample",
      "conversation_id",
      "turn",
      "prompt",
      "status",
      "text",
      "response_id",
      "measure",
    ])
    .where("workspace_id", "=", row.workspace_id)
    .where("analysis_id", "=", row.id)
    .execute();
  const done = new Set(answered.map((r) => `${r.prompt_index}|${r.engine}|${r.sample}`));
  const work: WorkItem[] = [];
  variants.forEach((variant, v) => {
    prompts.forEach((prompt, index) => {
      const promptIndex = v * prompts.length + index;
      for (const engine of engines) {
        for (let sample = 1; sample <= row.samples; sample++) {
          if (!done.has(`${promptIndex}|${engine}|${sample}`))
            work.push({ promptIndex, prompt, engine, sample, ...variant });
        }
      }
    });
  });
  const afterPrompts = variants.length * prompts.length;
  const planned = conversations
    .filter((c) => c.status === "running")
    .map((c) => ({
      row: c,
      turns: scriptColumns.turns.read(c.turns),
      variables: scriptColumns.variables.read(c.variables),
      persona: c.persona_id === null ? null : (texts.get(`${c.persona_id}@${c.persona_version}`) ?? null),
      firstSlot: afterPrompts + c.script_index * MAX_TURNS,
      done: answered
        .filter((r) => r.conversation_id === c.id)
        .map((r) => ({
          turn: r.turn,
          prompt: r.prompt,
          succeeded: r.status === "succeeded",
          text: r.text,
          responseId: r.response_id,
          measure: resultColumns.measure.readNullable(r.measure),
        }))
        .sort((a, b) => a.turn - b.turn),
    }));
  return {
    project,
    measured,
    compiled: compileProject(measured),
    engines,
    prompts,
    work,
    conversations: planned,
  };
}

/** The texts of the persona versions asked under, by `id@version`. */
async function personaTexts(
  ctx: ServiceContext,
  versions: readonly { id: string; version: number }[],
): Promise<Map<string, string | null>> {
  if (versions.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom("persona_versions")
    .select(["persona_id", "version", "context"])
    .where("workspace_id", "=", ctx.workspace.id)
    .where(
      "persona_id",
      "in",
      versions.map((v) => v.id),
    )
    .execute();
  // An empty text (a persona with only a name) is asked as nobody in particular.
  return new Map(rows.map((r) => [`${r.persona_id}@${r.version}`, r.context === "" ? null : r.context]));
}
