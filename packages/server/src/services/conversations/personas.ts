import type { Selectable } from "kysely";
import type { Static } from "typebox";
import type { PersonasTable } from "../../db/tables.ts";
import { notFound, validationError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { getProject } from "../projects/projects.ts";
import { checkInput } from "../validate.ts";
import { PersonaCreateSchema, type PersonaSchema, PersonaUpdateSchema } from "./schemas.ts";

export type Persona = Static<typeof PersonaSchema>;
type PersonaFields = Pick<Persona, "role" | "company_size" | "industry" | "constraints" | "location" | "language">;

/** A brand has at most this many personas: each multiplies the answers of every analysis. */
const MAX_PERSONAS = 10;

const FIELDS = ["role", "company_size", "industry", "constraints", "location", "language"] as const;
const LABELS: Record<(typeof FIELDS)[number], string> = {
  role: "Role",
  company_size: "Company size",
  industry: "Industry",
  constraints: "Constraints",
  location: "Location",
  language: "Preferred language",
};

/** A field as stored: trimmed, blank as null. */
function clean(value: string | null | undefined): string | null {
  const text = value?.replace(/\s+/g, " ").trim() ?? "";
  return text === "" ? null : text;
}

/**
 * What the engines receive for a persona: its fields as one text, one sentence each, the same
 * words in every engine's instructions or preamble. Empty when no field is set.
 */
export function personaContext(fields: PersonaFields): string {
  const parts = FIELDS.flatMap((field) => {
    const value = fields[field];
    return value === null ? [] : [`${LABELS[field]}: ${value.replace(/[.\s]+$/, "")}.`];
  });
  return parts.length === 0 ? "" : `Context about the person asking. ${parts.join(" ")}`;
}

function view(row: Selectable<PersonasTable>): Persona {
  const fields: PersonaFields = {
    role: row.role,
    company_size: row.company_size,
    industry: row.industry,
    constraints: row.constraints,
    location: row.location,
    language: row.language,
  };
  return {
    id: row.id,
    object: "persona",
    project_id: row.project_id,
    name: row.name,
    ...fields,
    active: Boolean(row.active),
    version: row.version,
    context: personaContext(fields),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function personaRow(ctx: ServiceContext, projectId: string, personaId: string) {
  const row = await ctx.db
    .selectFrom("personas")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("id", "=", personaId)
    .executeTakeFirst();
  if (row === undefined) throw notFound("persona", personaId);
  return row;
}

/** Keeps the version's text: answers asked under it show it after the persona changes. */
async function keepVersion(ctx: ServiceContext, row: Selectable<PersonasTable>): Promise<void> {
  const persona = view(row);
  await ctx.db
    .insertInto("persona_versions")
    .values({
      persona_id: row.id,
      version: row.version,
      workspace_id: row.workspace_id,
      name: row.name,
      fields: toJson(Object.fromEntries(FIELDS.map((f) => [f, persona[f]]))),
      context: persona.context,
      created_at: row.updated_at,
    })
    .onConflict((oc) => oc.columns(["persona_id", "version"]).doNothing())
    .execute();
}

/** The brand's personas as stored, oldest first: what lists and analyses read. */
export function personaRows(ctx: ServiceContext, projectId: string) {
  return ctx.db
    .selectFrom("personas")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

export async function listPersonas(ctx: ServiceContext, projectId: string): Promise<Persona[]> {
  await getProject(ctx, projectId);
  return (await personaRows(ctx, projectId)).map(view);
}

export async function getPersona(ctx: ServiceContext, projectId: string, personaId: string): Promise<Persona> {
  await getProject(ctx, projectId);
  return view(await personaRow(ctx, projectId, personaId));
}

export async function createPersona(ctx: ServiceContext, projectId: string, input: unknown): Promise<Persona> {
  const body = checkInput(PersonaCreateSchema, input);
  const project = await getProject(ctx, projectId);
  const name = clean(body.name);
  if (name === null) throw validation("name", "must not be blank");
  return inTransaction(ctx, async (tx) => {
    const existing = await tx.db
      .selectFrom("personas")
      .select(["name"])
      .where("workspace_id", "=", tx.workspace.id)
      .where("project_id", "=", project.id)
      .execute();
    if (existing.length >= MAX_PERSONAS)
      throw validation(null, `a brand has at most ${MAX_PERSONAS} personas; delete one first`);
    if (existing.some((p) => p.name.toLowerCase() === name.toLowerCase()))
      throw validation("name", "another persona of this brand has this name");
    const now = tx.clock.now().toISOString();
    const row = {
      id: newId("per"),
      workspace_id: tx.workspace.id,
      project_id: project.id,
      name,
      ...Object.fromEntries(FIELDS.map((f) => [f, clean(body[f])])),
      active: body.active ?? true,
      version: 1,
      created_at: now,
      updated_at: now,
    } as Selectable<PersonasTable>;
    await tx.db.insertInto("personas").values(row).execute();
    await keepVersion(tx, row);
    return view(row);
  });
}

export async function updatePersona(
  ctx: ServiceContext,
  projectId: string,
  personaId: string,
  input: unknown,
): Promise<Persona> {
  const body = checkInput(PersonaUpdateSchema, input);
  await getProject(ctx, projectId);
  return inTransaction(ctx, async (tx) => {
    const current = await personaRow(tx, projectId, personaId);
    const next = { ...current };
    if (body.name !== undefined) {
      const name = clean(body.name);
      if (name === null) throw validation("name", "must not be blank");
      const others = await tx.db
        .selectFrom("personas")
        .select("name")
        .where("workspace_id", "=", tx.workspace.id)
        .where("project_id", "=", projectId)
        .where("id", "!=", personaId)
        .execute();
      if (others.some((p) => p.name.toLowerCase() === name.toLowerCase()))
        throw validation("name", "another persona of this brand has this name");
      next.name = name;
    }
    for (const field of FIELDS) if (body[field] !== undefined) next[field] = clean(body[field]);
    if (body.active !== undefined) next.active = body.active;
    const changed = next.name !== current.name || FIELDS.some((f) => next[f] !== current[f]);
    if (!changed && Boolean(next.active) === Boolean(current.active)) return view(current);
    next.version = changed ? current.version + 1 : current.version;
    next.updated_at = tx.clock.now().toISOString();
    await tx.db
      .updateTable("personas")
      .set({
        name: next.name,
        ...Object.fromEntries(FIELDS.map((f) => [f, next[f]])),
        active: next.active,
        version: next.version,
        updated_at: next.updated_at,
      })
      .where("workspace_id", "=", tx.workspace.id)
      .where("id", "=", personaId)
      .execute();
    if (changed) await keepVersion(tx, next);
    return view(next);
  });
}

/** Deletes a persona; its answers keep the version they were asked under (persona_versions). */
export async function deletePersona(ctx: ServiceContext, projectId: string, personaId: string) {
  await getProject(ctx, projectId);
  await personaRow(ctx, projectId, personaId);
  await inTransaction(ctx, async (tx) => {
    await tx.db
      .updateTable("conversation_scripts")
      .set({ persona_id: null, updated_at: tx.clock.now().toISOString() })
      .where("workspace_id", "=", tx.workspace.id)
      .where("persona_id", "=", personaId)
      .execute();
    await tx.db
      .deleteFrom("personas")
      .where("workspace_id", "=", tx.workspace.id)
      .where("id", "=", personaId)
      .execute();
  });
  return { id: personaId, object: "persona", deleted: true as const };
}

function validation(field: string | null, issue: string) {
  return validationError([field === null ? { issue } : { field, issue }]);
}
