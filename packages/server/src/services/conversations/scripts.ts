import type { Selectable } from "kysely";
import type { Static } from "typebox";
import Type from "typebox";
import type { ConversationScriptsTable } from "../../db/tables.ts";
import { type ErrorDetail, notFound, validationError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import { checkCountry } from "../../lib/locale.ts";
import { Dictionary } from "../../lib/schema.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { cleanText } from "../projects/normalize-text.ts";
import { getProject } from "../projects/projects.ts";
import { checkInput, storedAs } from "../validate.ts";
import { ScriptCreateSchema, type ScriptSchema, ScriptUpdateSchema } from "./schemas.ts";
import { templateIssue } from "./templates.ts";

export type Script = Static<typeof ScriptSchema>;

/** A brand has at most this many scripts: each runs on every engine of every analysis. */
const MAX_SCRIPTS = 10;

export const scriptColumns = {
  turns: storedAs("conversation_scripts.turns", Type.Array(Type.String())),
  variables: storedAs("conversation_scripts.variables", Dictionary(Type.String())),
};

function view(row: Selectable<ConversationScriptsTable>): Script {
  return {
    id: row.id,
    object: "conversation_script",
    project_id: row.project_id,
    name: row.name,
    turns: scriptColumns.turns.read(row.turns),
    variables: scriptColumns.variables.read(row.variables),
    persona_id: row.persona_id,
    country: row.country,
    active: Boolean(row.active),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function scriptRow(ctx: ServiceContext, projectId: string, scriptId: string) {
  const row = await ctx.db
    .selectFrom("conversation_scripts")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("id", "=", scriptId)
    .executeTakeFirst();
  if (row === undefined) throw notFound("conversation script", scriptId);
  return row;
}

/** The fields as stored, checked: turns filled-in-able, the persona the brand's, the country a real one. */
async function checked(
  ctx: ServiceContext,
  projectId: string,
  body: {
    name: string;
    turns: string[];
    variables: Record<string, string>;
    persona_id: string | null;
    country: string | null;
  },
) {
  const details: ErrorDetail[] = [];
  const name = cleanText(body.name);
  if (name === "") details.push({ field: "name", issue: "must not be blank" });
  const variables = Object.fromEntries(
    Object.entries(body.variables).map(([key, value]) => [key.trim(), cleanText(value)]),
  );
  for (const key of Object.keys(variables)) {
    if (!/^[a-z][a-z0-9_]{0,39}$/.test(key))
      details.push({ field: `variables.${key}`, issue: "a name is lower-case letters, digits and _ (e.g. tool)" });
  }
  const turns = body.turns.map(cleanText);
  turns.forEach((turn, index) => {
    if (turn === "") details.push({ field: `turns[${index}]`, issue: "must not be blank" });
    const issue = templateIssue(turn, index, variables);
    if (issue !== null) details.push({ field: `turns[${index}]`, issue });
  });
  let country: string | null = null;
  if (body.country !== null) {
    const code = checkCountry(body.country);
    if (code.ok) country = code.value;
    else details.push({ field: "country", issue: code.issue });
  }
  if (body.persona_id !== null) {
    const persona = await ctx.db
      .selectFrom("personas")
      .select("id")
      .where("workspace_id", "=", ctx.workspace.id)
      .where("project_id", "=", projectId)
      .where("id", "=", body.persona_id)
      .executeTakeFirst();
    if (persona === undefined) details.push({ field: "persona_id", issue: "is not one of the brand's personas" });
  }
  if (details.length > 0) throw validationError(details);
  return { name, turns, variables, persona_id: body.persona_id, country };
}

/** The brand's scripts as stored, oldest first: what lists and analyses read. */
export function scriptRows(ctx: ServiceContext, projectId: string) {
  return ctx.db
    .selectFrom("conversation_scripts")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

export async function listScripts(ctx: ServiceContext, projectId: string): Promise<Script[]> {
  await getProject(ctx, projectId);
  return (await scriptRows(ctx, projectId)).map(view);
}

export async function getScript(ctx: ServiceContext, projectId: string, scriptId: string): Promise<Script> {
  await getProject(ctx, projectId);
  return view(await scriptRow(ctx, projectId, scriptId));
}

export async function createScript(ctx: ServiceContext, projectId: string, input: unknown): Promise<Script> {
  const body = checkInput(ScriptCreateSchema, input);
  const project = await getProject(ctx, projectId);
  const fields = await checked(ctx, project.id, {
    name: body.name,
    turns: body.turns,
    variables: body.variables ?? {},
    persona_id: body.persona_id ?? null,
    country: body.country ?? null,
  });
  return inTransaction(ctx, async (tx) => {
    const count = await tx.db
      .selectFrom("conversation_scripts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("workspace_id", "=", tx.workspace.id)
      .where("project_id", "=", project.id)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_SCRIPTS)
      throw validationError([{ issue: `a brand has at most ${MAX_SCRIPTS} conversation scripts; delete one first` }]);
    const now = tx.clock.now().toISOString();
    const row = {
      id: newId("cvs"),
      workspace_id: tx.workspace.id,
      project_id: project.id,
      name: fields.name,
      turns: toJson(fields.turns),
      variables: toJson(fields.variables),
      persona_id: fields.persona_id,
      country: fields.country,
      active: body.active ?? true,
      created_at: now,
      updated_at: now,
    };
    await tx.db.insertInto("conversation_scripts").values(row).execute();
    return view(row);
  });
}

export async function updateScript(
  ctx: ServiceContext,
  projectId: string,
  scriptId: string,
  input: unknown,
): Promise<Script> {
  const body = checkInput(ScriptUpdateSchema, input);
  await getProject(ctx, projectId);
  const current = view(await scriptRow(ctx, projectId, scriptId));
  const fields = await checked(ctx, projectId, {
    name: body.name ?? current.name,
    turns: body.turns ?? current.turns,
    variables: body.variables ?? current.variables,
    persona_id: body.persona_id === undefined ? current.persona_id : body.persona_id,
    country: body.country === undefined ? current.country : body.country,
  });
  const now = ctx.clock.now().toISOString();
  await ctx.db
    .updateTable("conversation_scripts")
    .set({
      name: fields.name,
      turns: toJson(fields.turns),
      variables: toJson(fields.variables),
      persona_id: fields.persona_id,
      country: fields.country,
      active: body.active ?? current.active,
      updated_at: now,
    })
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", scriptId)
    .execute();
  return view(await scriptRow(ctx, projectId, scriptId));
}

/** Deletes a script; the conversations it ran stay, with its name and turns as they were. */
export async function deleteScript(ctx: ServiceContext, projectId: string, scriptId: string) {
  await getProject(ctx, projectId);
  await scriptRow(ctx, projectId, scriptId);
  await ctx.db
    .deleteFrom("conversation_scripts")
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", scriptId)
    .execute();
  return { id: scriptId, object: "conversation_script", deleted: true as const };
}
