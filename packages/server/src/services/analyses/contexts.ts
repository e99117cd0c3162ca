import type { ErrorDetail } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import type { ServiceContext } from "../context.ts";
import { personaContext, personaRows } from "../conversations/personas.ts";
import { scriptColumns, scriptRows } from "../conversations/scripts.ts";

/**
 * Who and what an analysis asks besides its prompts (issue 29): the personas each prompt is asked
 * under, and the conversation scripts it runs. Read when the analysis is queued; the versions then
 * are the versions asked.
 */

export interface AskedPersona {
  id: string;
  version: number;
  context: string;
}

export interface AskedScript {
  id: string;
  name: string;
  turns: string[];
  variables: Record<string, string>;
  personaId: string | null;
  personaVersion: number | null;
  country: string | null;
}

/**
 * The rows named by `ids` (each must be among `rows`, else an issue on `field[i]`), or, without
 * ids, the active ones.
 */
function chosenOf<Row extends { id: string; active: unknown }>(
  rows: readonly Row[],
  ids: readonly string[] | undefined,
  field: string,
  issue: string,
  details: ErrorDetail[],
): Row[] {
  if (ids === undefined) return rows.filter((row) => Boolean(row.active));
  return [...new Set(ids)].flatMap((id) => {
    const row = rows.find((r) => r.id === id);
    if (row === undefined) details.push({ field: `${field}[${ids.indexOf(id)}]`, issue });
    return row === undefined ? [] : [row];
  });
}

/** The personas named (each must be the brand's), or the brand's active ones. */
export async function askedPersonas(
  ctx: ServiceContext,
  projectId: string,
  ids: readonly string[] | undefined,
  details: ErrorDetail[],
): Promise<AskedPersona[]> {
  const chosen = chosenOf(
    await personaRows(ctx, projectId),
    ids,
    "personas",
    "is not one of the brand's personas",
    details,
  );
  return chosen.map((row) => ({ id: row.id, version: row.version, context: personaContext(row) }));
}

/** The scripts named (each must be the brand's), the brand's active ones (`undefined`), or none. */
export async function askedScripts(
  ctx: ServiceContext,
  projectId: string,
  ids: readonly string[] | undefined,
  details: ErrorDetail[],
): Promise<AskedScript[]> {
  if (ids !== undefined && ids.length === 0) return [];
  const chosen = chosenOf(
    await scriptRows(ctx, projectId),
    ids,
    "scripts",
    "is not one of the brand's conversation scripts",
    details,
  );
  const personaIds = chosen.flatMap((row) => (row.persona_id === null ? [] : [row.persona_id]));
  const versions = new Map(
    personaIds.length === 0
      ? []
      : (
          await ctx.db
            .selectFrom("personas")
            .select(["id", "version"])
            .where("workspace_id", "=", ctx.workspace.id)
            .where("id", "in", personaIds)
            .execute()
        ).map((p) => [p.id, p.version]),
  );
  return chosen.map((row) => ({
    id: row.id,
    name: row.name,
    turns: scriptColumns.turns.read(row.turns),
    variables: scriptColumns.variables.read(row.variables),
    personaId: row.persona_id !== null && versions.has(row.persona_id) ? row.persona_id : null,
    personaVersion: row.persona_id === null ? null : (versions.get(row.persona_id) ?? null),
    country: row.country,
  }));
}

/**
 * One conversation per script, engine that holds conversations, and sample, written with the
 * analysis (in its transaction): the runs its job works through, each turn a result.
 */
export async function planConversations(
  ctx: ServiceContext,
  analysis: { id: string; workspace_id: string; project_id: string; created_at: string },
  scripts: readonly AskedScript[],
  engines: readonly string[],
  samples: number,
): Promise<void> {
  const rows = scripts.flatMap((script, scriptIndex) =>
    engines.flatMap((engine) =>
      Array.from({ length: samples }, (_, i) => ({
        id: newId("cnv"),
        workspace_id: analysis.workspace_id,
        project_id: analysis.project_id,
        analysis_id: analysis.id,
        script_id: script.id,
        script_index: scriptIndex,
        script_name: script.name,
        turns: toJson(script.turns),
        variables: toJson(script.variables),
        engine,
        sample: i + 1,
        persona_id: script.personaId,
        persona_version: script.personaVersion,
        country: script.country,
        status: "running",
        turns_answered: 0,
        entry_turn: null,
        drop_turn: null,
        survived: null,
        stop_reason: null,
        created_at: analysis.created_at,
        completed_at: null,
      })),
    ),
  );
  for (let start = 0; start < rows.length; start += 200)
    await ctx.db
      .insertInto("conversations")
      .values(rows.slice(start, start + 200))
      .execute();
}
