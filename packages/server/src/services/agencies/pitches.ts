import type { Static } from "typebox";
import { ApiError, validationError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { deleteWorkspace } from "../accounts/workspaces.ts";
import { createAnalysis } from "../analyses/create.ts";
import type { Deps, ServiceContext } from "../context.ts";
import { createProject } from "../projects/projects.ts";
import { limitPerMinute } from "../rate-limits/per-minute.ts";
import { createReportShare, listReportShares } from "../reports/shares.ts";
import { suggestBrand } from "../websites/brand-suggestions.ts";
import { websiteAddress } from "../websites/read.ts";
import type { BrandSuggestionSchema } from "../websites/schemas.ts";
import { checkName, createWorkspace, workspaceContext } from "../workspaces/workspaces.ts";
import type { AgencyAccess } from "./agencies.ts";
import { checkCap } from "./clients.ts";
import type { PitchRunSchema, PitchSchema } from "./schemas.ts";

type PitchView = Static<typeof PitchSchema>;

/** How long a pitch's link opens the report: a prospect reads it within the quarter. */
const SHARE_DAYS = 90;

/**
 * Pitches an agency may start per minute. Each reads a website (a few pages) in a workspace of its
 * own, so the per-workspace limit on reading websites would not hold them back: this one does.
 */
const PITCHES_PER_MINUTE = 10;

async function checkPitchRate(deps: Deps, agencyId: string): Promise<void> {
  await limitPerMinute(deps.counters, {
    kind: "pitches:agency",
    key: agencyId,
    limit: PITCHES_PER_MINUTE,
    refusal: (seconds) => `An agency starts at most ${PITCHES_PER_MINUTE} pitches a minute; try again in ${seconds} s.`,
  });
}

/**
 * Pitches (issue 28): a prospect's website and a handful of prompts, one analysis against the
 * competitors it names, and a branded report opened by a link, without the prospect becoming a
 * tracked brand of any client. Each pitch lives in a workspace of its own (kind `pitch`) owned by
 * the agency: its staff reach it by their agency role, nothing of it appears among the clients,
 * nothing schedules it, and converting it makes that workspace a client, answers and all.
 */

async function pitchRow(deps: Deps, access: AgencyAccess, pitchId: string) {
  const row = await deps.db
    .selectFrom("pitches")
    .selectAll()
    .where("id", "=", pitchId)
    .where("agency_id", "=", access.id)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("NOT_FOUND", `No pitch with id '${pitchId}' exists at this agency.`);
  return row;
}

async function pitchContext(deps: Deps, workspaceId: string, userId: string): Promise<ServiceContext> {
  return workspaceContext(deps, workspaceId, { type: "user", id: userId });
}

async function view(deps: Deps, row: Awaited<ReturnType<typeof pitchRow>>, userId: string): Promise<PitchView> {
  const analysis =
    row.analysis_id === null
      ? undefined
      : await deps.db
          .selectFrom("analyses")
          .select(["status", "total_answers", "errors"])
          .where("id", "=", row.analysis_id)
          .executeTakeFirst();
  const project =
    row.project_id === null
      ? undefined
      : await deps.db.selectFrom("projects").select("name").where("id", "=", row.project_id).executeTakeFirst();
  const done =
    row.analysis_id === null
      ? 0
      : Number(
          (
            await deps.db
              .selectFrom("results")
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .where("workspace_id", "=", row.workspace_id)
              .where("analysis_id", "=", row.analysis_id)
              .executeTakeFirstOrThrow()
          ).n,
        );
  const report =
    row.analysis_id === null
      ? undefined
      : await deps.db
          .selectFrom("reports")
          .select("id")
          .where("workspace_id", "=", row.workspace_id)
          .where("dedupe_key", "=", `analysis:${row.analysis_id}`)
          .executeTakeFirst();
  let shareUrl: string | null = null;
  if (row.share_id !== null && report !== undefined) {
    const shares = await listReportShares(await pitchContext(deps, row.workspace_id, userId), report.id);
    shareUrl = shares.data.find((share) => share.id === row.share_id && share.active)?.url ?? null;
  }
  const status: PitchView["status"] =
    row.converted_at !== null
      ? "converted"
      : analysis === undefined
        ? "draft"
        : analysis.status === "completed"
          ? "ready"
          : analysis.status === "failed"
            ? "failed"
            : "running";
  return {
    id: row.id,
    website: row.website,
    name: project?.name ?? null,
    status,
    workspace_id: row.workspace_id,
    project_id: row.project_id,
    analysis_id: row.analysis_id,
    answers: { done, total: Number(analysis?.total_answers ?? 0) },
    report_id: report?.id ?? null,
    share_url: shareUrl,
    error: status === "failed" ? "The analysis failed: no engine answered. Check the engines in Settings." : null,
    converted_at: row.converted_at,
    created_at: row.created_at,
  };
}

/**
 * Starts a pitch from the prospect's website: its workspace, and what the site suggests (name,
 * competitors, prompts), as when adding a brand. A site that cannot be read still makes the pitch:
 * its brand is then filled in by hand (`problem` says why).
 */
export async function createPitch(
  deps: Deps,
  access: AgencyAccess,
  userId: string,
  website: string,
): Promise<{ pitch: PitchView; suggestion: Static<typeof BrandSuggestionSchema> | null; problem: string | null }> {
  const address = websiteAddress(website);
  if (address === null) {
    throw validationError([{ field: "website", issue: "not a website address; type it as acme.com" }]);
  }
  await checkPitchRate(deps, access.id);
  const agency = await deps.db
    .selectFrom("agencies")
    .select("billing_anchor")
    .where("id", "=", access.id)
    .executeTakeFirstOrThrow();
  const workspace = await createWorkspace(deps, {
    name: `Pitch: ${address.hostname}`,
    plan: "agency",
    agency: { agencyId: access.id, kind: "pitch", billingAnchor: agency.billing_anchor },
  });
  const now = deps.clock.now().toISOString();
  const id = newId("pit");
  await deps.db
    .insertInto("pitches")
    .values({
      id,
      agency_id: access.id,
      workspace_id: workspace.id,
      website: address.toString(),
      project_id: null,
      analysis_id: null,
      share_id: null,
      created_by: userId,
      converted_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  let suggestion: Static<typeof BrandSuggestionSchema> | null = null;
  let problem: string | null = null;
  try {
    suggestion = await suggestBrand(await pitchContext(deps, workspace.id, userId), { website });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    problem = error.details?.[0]?.issue ?? error.message;
  }
  return { pitch: await getPitch(deps, access, userId, id), suggestion, problem };
}

export async function getPitch(deps: Deps, access: AgencyAccess, userId: string, pitchId: string): Promise<PitchView> {
  return view(deps, await pitchRow(deps, access, pitchId), userId);
}

export async function listPitches(deps: Deps, access: AgencyAccess, userId: string): Promise<PitchView[]> {
  const rows = await deps.db
    .selectFrom("pitches")
    .selectAll()
    .where("agency_id", "=", access.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(100)
    .execute();
  const out: PitchView[] = [];
  for (const row of rows) out.push(await view(deps, row, userId));
  return out;
}

/**
 * Runs the pitch: the prospect as a brand of the pitch's workspace, with the competitors named and
 * the prompts chosen, and one analysis of them, paid from the agency's pool like any client's.
 */
export async function runPitch(
  deps: Deps,
  access: AgencyAccess,
  userId: string,
  pitchId: string,
  input: Static<typeof PitchRunSchema>,
): Promise<PitchView> {
  const row = await pitchRow(deps, access, pitchId);
  if (row.analysis_id !== null) throw new ApiError("CONFLICT", "This pitch has run already; start another pitch.");
  const ctx = await pitchContext(deps, row.workspace_id, userId);
  const address = new URL(row.website);
  const project =
    row.project_id === null
      ? await createProject(ctx, {
          name: input.name,
          primary_domain: input.primary_domain ?? address.hostname.replace(/^www\./, ""),
          competitors: [...new Set(input.competitors.map((name) => name.trim()).filter((name) => name !== ""))].map(
            (name) => ({ name }),
          ),
          prompts: input.prompts,
          ...(input.engines === undefined ? {} : { engines: input.engines }),
        })
      : { id: row.project_id };
  await deps.db
    .updateTable("pitches")
    .set({ project_id: project.id, updated_at: deps.clock.now().toISOString() })
    .where("id", "=", row.id)
    .execute();
  const analysis = await createAnalysis(ctx, { project_id: project.id }, { trigger: "dashboard" });
  await deps.db
    .updateTable("pitches")
    .set({ analysis_id: analysis.id, updated_at: deps.clock.now().toISOString() })
    .where("id", "=", row.id)
    .execute();
  return getPitch(deps, access, userId, pitchId);
}

/** The branded report's link, made once the analysis is done (the same link when asked again). */
export async function sharePitch(
  deps: Deps,
  access: AgencyAccess,
  userId: string,
  pitchId: string,
): Promise<PitchView> {
  const current = await getPitch(deps, access, userId, pitchId);
  if (current.share_url !== null) return current;
  if (current.report_id === null) {
    throw new ApiError("CONFLICT", "The pitch's report is not ready: its analysis has not finished.");
  }
  const ctx = await pitchContext(deps, current.workspace_id, userId);
  const share = await createReportShare(ctx, current.report_id, { expires_in_days: SHARE_DAYS });
  await deps.db
    .updateTable("pitches")
    .set({ share_id: share.id, updated_at: deps.clock.now().toISOString() })
    .where("id", "=", pitchId)
    .execute();
  return getPitch(deps, access, userId, pitchId);
}

/** The prospect signed: the pitch's workspace becomes a client of the agency, keeping its answers. */
export async function convertPitch(
  deps: Deps,
  access: AgencyAccess,
  userId: string,
  pitchId: string,
  input: { name?: string; credit_cap?: number | null },
): Promise<PitchView> {
  const row = await pitchRow(deps, access, pitchId);
  if (row.converted_at !== null) throw new ApiError("CONFLICT", "This pitch is a client already.");
  const cap = checkCap(input.credit_cap);
  const current = await getPitch(deps, access, userId, pitchId);
  const name = checkName(input.name ?? current.name ?? new URL(row.website).hostname);
  const now = deps.clock.now().toISOString();
  await deps.db
    .updateTable("workspaces")
    .set({ agency_kind: "client", name, credit_cap: cap, updated_at: now })
    .where("id", "=", row.workspace_id)
    .execute();
  await deps.db.updateTable("pitches").set({ converted_at: now, updated_at: now }).where("id", "=", row.id).execute();
  return getPitch(deps, access, userId, pitchId);
}

/** Deletes a pitch not converted, with its workspace, answers and report (its link opens nothing more). */
export async function deletePitch(deps: Deps, access: AgencyAccess, userId: string, pitchId: string): Promise<void> {
  const row = await pitchRow(deps, access, pitchId);
  if (row.converted_at !== null) {
    throw new ApiError("CONFLICT", "This pitch is a client now: delete the client's workspace instead.");
  }
  const workspace = await deps.db
    .selectFrom("workspaces")
    .select("name")
    .where("id", "=", row.workspace_id)
    .executeTakeFirstOrThrow();
  await deleteWorkspace(await pitchContext(deps, row.workspace_id, userId), workspace.name);
}
