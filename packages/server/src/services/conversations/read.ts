import type { Selectable } from "kysely";
import type { Static } from "typebox";
import type { ConversationsTable } from "../../db/tables.ts";
import { notFound } from "../../errors/api-error.ts";
import { periodOf } from "../analytics/period.ts";
import type { ServiceContext } from "../context.ts";
import { proportion } from "../measurement/aggregate.ts";
import { fold } from "../measurement/normalize.ts";
import type { AnswerMeasure, BrandSpec } from "../measurement/types.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { measuredProject } from "../projects/measured.ts";
import { getProject } from "../projects/projects.ts";
import { resultColumns } from "../results/columns.ts";
import type { ConversationSchema, ScriptStatsSchema } from "./schemas.ts";
import { scriptColumns } from "./scripts.ts";

export type Conversation = Static<typeof ConversationSchema>;
type Turn = NonNullable<Conversation["turns"]>[number];
export type ScriptStats = Static<typeof ScriptStatsSchema>;

function view(row: Selectable<ConversationsTable>): Conversation {
  return {
    id: row.id,
    object: "conversation",
    project_id: row.project_id,
    analysis_id: row.analysis_id,
    script_id: row.script_id,
    script_name: row.script_name,
    engine: row.engine,
    sample: row.sample,
    persona_id: row.persona_id,
    persona_version: row.persona_version,
    country: row.country,
    status: row.status === "completed" ? "completed" : row.status === "stopped" ? "stopped" : "running",
    turns_planned: scriptColumns.turns.read(row.turns).length,
    turns_answered: row.turns_answered,
    entry_turn: row.entry_turn,
    survived: row.survived === null ? null : Boolean(row.survived),
    drop_turn: row.drop_turn,
    stop_reason: row.stop_reason,
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}

export interface ConversationFilters extends PageParams {
  script_id?: string;
  engine?: string;
  analysis_id?: string;
}

/** A brand's conversations, newest first. */
export async function listConversations(
  ctx: ServiceContext,
  projectId: string,
  filters: ConversationFilters,
): Promise<Page<Conversation>> {
  await getProject(ctx, projectId);
  let query = ctx.db
    .selectFrom("conversations")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId);
  if (filters.script_id !== undefined) query = query.where("script_id", "=", filters.script_id);
  if (filters.engine !== undefined) query = query.where("engine", "=", filters.engine);
  if (filters.analysis_id !== undefined) query = query.where("analysis_id", "=", filters.analysis_id);
  return fetchPage(query, filters, view);
}

/** Where each tracked name occurs in a text (UTF-16 offsets), for the names the answer was measured to name. */
function mentionsIn(text: string, brands: readonly (BrandSpec & { brand: boolean })[]) {
  const out: Turn["mentions"] = [];
  const folded = fold(text);
  // Folding keeps offsets only when it keeps the length; otherwise the plain lower case is searched.
  const haystack = folded.length === text.length ? folded : text.toLowerCase();
  for (const b of brands) {
    for (const name of [b.name, ...b.aliases]) {
      const needle = haystack === folded ? fold(name) : name.toLowerCase();
      if (needle === "") continue;
      let from = 0;
      for (;;) {
        const at = haystack.indexOf(needle, from);
        if (at < 0) break;
        const before = at === 0 ? "" : (haystack[at - 1] ?? "");
        const after = haystack[at + needle.length] ?? "";
        if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) {
          if (!out.some((m) => at < m.end && at + needle.length > m.start))
            out.push({ name: b.name, brand: b.brand, start: at, end: at + needle.length });
        }
        from = at + needle.length;
      }
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** One conversation with every turn: what was asked, what came back, and where the brands are named. */
export async function getConversation(ctx: ServiceContext, projectId: string, id: string): Promise<Conversation> {
  const project = await getProject(ctx, projectId, { deleted: "included" });
  const row = await ctx.db
    .selectFrom("conversations")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (row === undefined) throw notFound("conversation", id);
  const results = await ctx.db
    .selectFrom("results")
    .select(["id", "turn", "prompt", "status", "text", "error", "measure"])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("conversation_id", "=", id)
    .orderBy("turn")
    .execute();
  const measured = measuredProject(project);
  const brands = [{ ...measured.brand, brand: true }, ...measured.competitors.map((c) => ({ ...c, brand: false }))];
  const planned = scriptColumns.turns.read(row.turns);
  const turns: Turn[] = planned.map((template, index) => {
    const result = results.find((r) => r.turn === index + 1);
    if (result === undefined) {
      return {
        turn: index + 1,
        prompt: template,
        result_id: null,
        status: "not_asked",
        text: null,
        error: null,
        mentioned: false,
        position: null,
        sentiment: null,
        competitors_named: [],
        mentions: [],
      };
    }
    const measure: AnswerMeasure | null = resultColumns.measure.readNullable(result.measure);
    const error = resultColumns.error.readNullable(result.error);
    const notAsked = result.status !== "succeeded" && (error?.message ?? "").startsWith("not asked");
    const named = new Set(
      measure === null ? [] : [measure.brand, ...measure.competitors].filter((b) => b.mentioned).map((b) => b.name),
    );
    return {
      turn: index + 1,
      prompt: result.prompt,
      result_id: result.id,
      status: result.status === "succeeded" ? "succeeded" : notAsked ? "not_asked" : "failed",
      text: result.text,
      error: error?.message ?? null,
      mentioned: measure?.brand.mentioned ?? false,
      position: measure?.brand.position ?? null,
      sentiment: measure?.brand.sentiment ?? null,
      competitors_named: (measure?.competitors ?? [])
        .filter((c) => c.mentioned)
        .sort((a, b) => (a.position ?? 99) - (b.position ?? 99))
        .map((c) => c.name),
      mentions:
        result.text === null
          ? []
          : mentionsIn(
              result.text,
              brands.filter((b) => named.has(b.name)),
            ),
    };
  });
  return { ...view(row), turns };
}

/**
 * Per engine, what a script's ended conversations measured over a period: how often the brand
 * entered, survived to the last turn and dropped out (each with its Wilson interval over the
 * conversations), where it entered and dropped out, and its mention rate at every turn.
 */
export async function scriptStats(
  ctx: ServiceContext,
  projectId: string,
  scriptId: string,
  input: { from?: string; to?: string },
): Promise<ScriptStats> {
  await getProject(ctx, projectId);
  const period = periodOf(input, ctx.clock);
  const script = await ctx.db
    .selectFrom("conversation_scripts")
    .select(["id", "name", "turns"])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("id", "=", scriptId)
    .executeTakeFirst();
  const rows = await ctx.db
    .selectFrom("conversations")
    .select(["id", "engine", "script_name", "turns", "entry_turn", "drop_turn", "survived"])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("script_id", "=", scriptId)
    .where("status", "=", "completed")
    .where("created_at", ">=", period.from)
    .where("created_at", "<", period.to)
    .execute();
  if (script === undefined && rows.length === 0) throw notFound("conversation script", scriptId);
  const turnRows =
    rows.length === 0
      ? []
      : await ctx.db
          .selectFrom("results")
          .select(["conversation_id", "turn", "mentioned"])
          .where("workspace_id", "=", ctx.workspace.id)
          .where("project_id", "=", projectId)
          .where(
            "conversation_id",
            "in",
            rows.map((r) => r.id),
          )
          .execute();
  const engines = [...new Set(rows.map((r) => r.engine))].sort();
  return {
    script_id: scriptId,
    script_name: script?.name ?? rows[0]?.script_name ?? "",
    turns: scriptColumns.turns.read(script?.turns ?? rows[0]?.turns ?? "[]"),
    engines: engines.map((engine) => {
      const own = rows.filter((r) => r.engine === engine);
      const ids = new Set(own.map((r) => r.id));
      const turns = Math.max(0, ...own.map((r) => scriptColumns.turns.read(r.turns).length));
      const entries = own.flatMap((r) => (r.entry_turn === null ? [] : [r.entry_turn])).sort((a, b) => a - b);
      const median =
        entries.length === 0
          ? null
          : entries.length % 2 === 1
            ? (entries[(entries.length - 1) / 2] ?? null)
            : ((entries[entries.length / 2 - 1] ?? 0) + (entries[entries.length / 2] ?? 0)) / 2;
      return {
        engine,
        conversations: own.length,
        entered: proportion(entries.length, own.length),
        survived: proportion(own.filter((r) => Boolean(r.survived)).length, own.length),
        dropped: proportion(own.filter((r) => r.drop_turn !== null).length, own.length),
        entry_turn_median: median,
        by_turn: Array.from({ length: turns }, (_, index) => {
          const turn = index + 1;
          const at = turnRows.filter(
            (t) => t.conversation_id !== null && ids.has(t.conversation_id) && t.turn === turn,
          );
          return {
            turn,
            mentioned: proportion(at.filter((t) => Boolean(t.mentioned)).length, at.length),
            entered_here: own.filter((r) => r.entry_turn === turn).length,
            dropped_here: own.filter((r) => r.drop_turn === turn).length,
          };
        }),
      };
    }),
  };
}
