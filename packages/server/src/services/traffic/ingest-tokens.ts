import type { Static } from "typebox";
import { ApiError, notFound, validationError } from "../../errors/api-error.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { newId, randomBase62 } from "../../lib/ids.ts";
import type { Deps, ServiceContext } from "../context.ts";
import { isPlanName, type Plan } from "../plans/catalog.ts";
import { getProject } from "../projects/projects.ts";
import type { CreatedIngestTokenSchema, IngestTokenSchema } from "./ingest-schemas.ts";

/**
 * Ingest tokens (issue 26): what a log drain or a CDN's push authenticates with on
 * `POST /v1/projects/:id/traffic/logs`. A token opens that one endpoint for the one brand it was
 * made for, and nothing else: it is not an API key (a drain's configuration is copied into CDN
 * consoles and CI settings, and should not hold a key that reads the workspace). Only its SHA-256
 * is kept, with its first characters to recognise it; revoked tokens stay listed, refused with
 * the time they were revoked.
 */
const PREFIX = "sl_ingest_";
const PATTERN = /^sl_ingest_[0-9A-Za-z]{32}$/;
/** `last_used_at` is written at most this often per token: a busy drain pushes every few seconds. */
const TOUCH_EVERY_MS = 60_000;

type IngestToken = Static<typeof IngestTokenSchema>;
type CreatedIngestToken = Static<typeof CreatedIngestTokenSchema>;

interface TokenRow {
  id: string;
  project_id: string;
  name: string;
  start: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

const COLUMNS = ["id", "project_id", "name", "start", "created_at", "revoked_at", "last_used_at"] as const;

function toView(row: TokenRow): IngestToken {
  return { ...row, status: row.revoked_at === null ? "active" : "revoked" };
}

/** Whether an `Authorization` header carries an ingest token rather than an API key. */
export function bearsIngestToken(authorization: string | undefined): boolean {
  return authorization !== undefined && /^bearer[ \t]+sl_ingest_/i.test(authorization.trim());
}

export async function createIngestToken(
  ctx: ServiceContext,
  projectId: string,
  input: { name: string },
): Promise<CreatedIngestToken> {
  const name = input.name.trim();
  if (name === "") throw validationError([{ field: "name", issue: "must not be empty" }]);
  await getProject(ctx, projectId);
  const token = `${PREFIX}${randomBase62(32)}`;
  const row: TokenRow = {
    id: newId("itk"),
    project_id: projectId,
    name,
    start: token.slice(0, PREFIX.length + 4),
    created_at: ctx.clock.now().toISOString(),
    revoked_at: null,
    last_used_at: null,
  };
  await ctx.db
    .insertInto("traffic_ingest_tokens")
    .values({ ...row, workspace_id: ctx.workspace.id, token_hash: sha256Hex(token) })
    .execute();
  return { ...toView(row), token };
}

export async function listIngestTokens(ctx: ServiceContext, projectId: string): Promise<IngestToken[]> {
  await getProject(ctx, projectId);
  const rows = await ctx.db
    .selectFrom("traffic_ingest_tokens")
    .select(COLUMNS)
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(toView);
}

/** Revokes a token: pushes with it are refused from now on. Revoking it again changes nothing. */
export async function revokeIngestToken(ctx: ServiceContext, projectId: string, tokenId: string): Promise<IngestToken> {
  const find = () =>
    ctx.db
      .selectFrom("traffic_ingest_tokens")
      .select(COLUMNS)
      .where("workspace_id", "=", ctx.workspace.id)
      .where("project_id", "=", projectId)
      .where("id", "=", tokenId)
      .executeTakeFirst();
  const row = await find();
  if (row === undefined) throw notFound("Ingest token", tokenId);
  if (row.revoked_at === null) {
    await ctx.db
      .updateTable("traffic_ingest_tokens")
      .set({ revoked_at: ctx.clock.now().toISOString() })
      .where("id", "=", tokenId)
      .where("workspace_id", "=", ctx.workspace.id)
      .where("revoked_at", "is", null)
      .execute();
  }
  return toView((await find()) ?? row);
}

/** Who an ingest token lets in: one brand of one workspace. */
export interface IngestCaller {
  tokenId: string;
  projectId: string;
  workspace: { id: string; plan: Plan; billingAnchor: string };
}

function invalid(message: string): ApiError {
  return new ApiError("INVALID_API_KEY", message);
}

/** Finds a usable token from `Authorization: Bearer sl_ingest_…`, or says precisely what is wrong. */
export async function verifyIngestToken(deps: Deps, authorization: string | undefined): Promise<IngestCaller> {
  const presented = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization?.trim() ?? "")?.[1] ?? "";
  if (!PATTERN.test(presented)) throw invalid("The ingest token is not a valid Sightline ingest token.");
  const row = await deps.db
    .selectFrom("traffic_ingest_tokens")
    .innerJoin("workspaces", "workspaces.id", "traffic_ingest_tokens.workspace_id")
    .innerJoin("projects", "projects.id", "traffic_ingest_tokens.project_id")
    .select([
      "traffic_ingest_tokens.id",
      "traffic_ingest_tokens.project_id",
      "traffic_ingest_tokens.revoked_at",
      "traffic_ingest_tokens.last_used_at",
      "workspaces.id as workspace_id",
      "workspaces.plan",
      "workspaces.billing_anchor",
      "projects.deleted_at",
    ])
    .where("traffic_ingest_tokens.token_hash", "=", sha256Hex(presented))
    .executeTakeFirst();
  if (row === undefined || row.deleted_at !== null) {
    throw invalid("The ingest token is not a valid Sightline ingest token.");
  }
  if (row.revoked_at !== null) throw invalid(`The ingest token was revoked on ${row.revoked_at}.`);
  if (!isPlanName(row.plan)) throw new ApiError("PLAN_REQUIRED", `Unknown plan '${row.plan}'.`);
  const now = deps.clock.now();
  if (row.last_used_at === null || now.getTime() - Date.parse(row.last_used_at) >= TOUCH_EVERY_MS) {
    await deps.db
      .updateTable("traffic_ingest_tokens")
      .set({ last_used_at: now.toISOString() })
      .where("id", "=", row.id)
      .execute();
  }
  return {
    tokenId: row.id,
    projectId: row.project_id,
    workspace: { id: row.workspace_id, plan: deps.plans[row.plan], billingAnchor: row.billing_anchor },
  };
}
