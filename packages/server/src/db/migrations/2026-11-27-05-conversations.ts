import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Personas, countries and conversations (issue 29).
// - personas: who asks, a brand's own; `version` counts its edits. persona_versions keeps every
//   version's text (what the engines received), so an answer keeps the persona it was asked under
//   after the persona changes or is deleted (not a foreign key from results or versions).
// - projects.countries: the countries a brand is tracked in (JSON array of ISO codes; empty: the
//   project's `country`, as before).
// - analyses.personas ([{id, version}]) and analyses.countries: what an analysis asks each prompt
//   under (empty: nobody in particular, and the analysis's `country`).
// - conversation_scripts: an opening question and up to five follow-ups (JSON `turns`), under a
//   persona and a country, with the script's own template variables.
// - conversations: one run of a script on one engine (the nth time) in an analysis, with what its
//   turns measured once it ended: the turn the brand entered, whether it survived to the last
//   turn, and the turn it dropped out at.
// - results: the persona (and its version) and country an answer was asked under, and, for a turn
//   of a conversation, its conversation and turn number (0 for a single answer) and the vendor's
//   id of the answer (what a follow-up refers to).

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const bool = pg ? sql`boolean` : sql`integer`;
  await db.schema
    .createTable("personas")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("role", "text")
    .addColumn("company_size", "text")
    .addColumn("industry", "text")
    .addColumn("constraints", "text")
    .addColumn("location", "text")
    .addColumn("language", "text")
    .addColumn("active", bool, (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("personas_project").on("personas").columns(["workspace_id", "project_id"]).execute();
  await db.schema
    .createTable("persona_versions")
    .addColumn("persona_id", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("fields", "text", (c) => c.notNull())
    .addColumn("context", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("persona_versions_pk", ["persona_id", "version"])
    .execute();
  await db.schema
    .createTable("conversation_scripts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("turns", "text", (c) => c.notNull())
    .addColumn("variables", "text", (c) => c.notNull())
    .addColumn("persona_id", "text")
    .addColumn("country", "text")
    .addColumn("active", bool, (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("conversation_scripts_project")
    .on("conversation_scripts")
    .columns(["workspace_id", "project_id"])
    .execute();
  await db.schema
    .createTable("conversations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("analysis_id", "text", (c) => c.notNull())
    .addColumn("script_id", "text", (c) => c.notNull())
    .addColumn("script_index", "integer", (c) => c.notNull())
    .addColumn("script_name", "text", (c) => c.notNull())
    .addColumn("turns", "text", (c) => c.notNull())
    .addColumn("variables", "text", (c) => c.notNull())
    .addColumn("engine", "text", (c) => c.notNull())
    .addColumn("sample", "integer", (c) => c.notNull())
    .addColumn("persona_id", "text")
    .addColumn("persona_version", "integer")
    .addColumn("country", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("turns_answered", "integer", (c) => c.notNull())
    .addColumn("entry_turn", "integer")
    .addColumn("drop_turn", "integer")
    .addColumn("survived", bool)
    .addColumn("stop_reason", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("completed_at", "text")
    .execute();
  await db.schema
    .createIndex("conversations_project_created")
    .on("conversations")
    .columns(["workspace_id", "project_id", "created_at"])
    .execute();
  await db.schema.createIndex("conversations_analysis").on("conversations").columns(["analysis_id"]).execute();
  await db.schema
    .alterTable("projects")
    .addColumn("countries", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await db.schema
    .alterTable("analyses")
    .addColumn("personas", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await db.schema
    .alterTable("analyses")
    .addColumn("countries", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  for (const [column, type] of [
    ["persona_id", "text"],
    ["persona_version", "integer"],
    ["country", "text"],
    ["conversation_id", "text"],
    ["response_id", "text"],
  ] as const) {
    await db.schema.alterTable("results").addColumn(column, type).execute();
  }
  await db.schema
    .alterTable("results")
    .addColumn("turn", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("results_conversation")
    .on("results")
    .columns(["conversation_id", "turn"])
    .where(sql.ref("conversation_id"), "is not", null)
    .execute();
}
