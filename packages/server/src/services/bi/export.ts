import { mkdir, open, rename } from "node:fs/promises";
import { join } from "node:path";
import type { Db } from "../../db/database.ts";
import { ApiError, notFound } from "../../errors/api-error.ts";
import type { Deps } from "../context.ts";
import { csvRow } from "./csv.ts";
import { answerRows, type DailyTally } from "./rows.ts";
import { BI_VIEW_NAMES, BI_VIEWS, type BiView } from "./views.ts";

const PAGE = 1_000;

interface BiExport {
  workspace_id: string;
  dir: string;
  files: { view: BiView; path: string; rows: number }[];
}

/** One view's file, written beside its final name and renamed into place when complete. */
class ViewFile {
  rows = 0;
  private constructor(
    readonly view: BiView,
    readonly path: string,
    private readonly handle: Awaited<ReturnType<typeof open>>,
  ) {}

  static async open(dir: string, view: BiView): Promise<ViewFile> {
    const path = join(dir, `${view}.csv`);
    const file = new ViewFile(view, path, await open(`${path}.partial`, "w"));
    await file.handle.write(csvRow(BI_VIEWS[view]));
    return file;
  }

  async write(rows: readonly (readonly unknown[])[]): Promise<void> {
    if (rows.length === 0) return;
    this.rows += rows.length;
    await this.handle.write(rows.map(csvRow).join(""));
  }

  async finish(): Promise<void> {
    await this.handle.close();
    await rename(`${this.path}.partial`, this.path);
  }

  async abandon(): Promise<void> {
    await this.handle.close().catch(() => {});
  }
}

/**
 * Writes one workspace's BI views as CSV files into `dir` (docs/bi.md): the same rows and columns
 * as the PostgreSQL views of schema `bi`, computed by the app, so that SQLite installations (and
 * tools that read files) get them too. A file appears under its name only once complete, so that a
 * scheduled export never leaves a half-written file where a reader looks.
 */
export async function exportBi(deps: Deps, input: { workspaceId: string; dir: string }): Promise<BiExport> {
  const workspace = await deps.db
    .selectFrom("workspaces")
    .select("id")
    .where("id", "=", input.workspaceId)
    .executeTakeFirst();
  if (workspace === undefined) throw notFound("workspace", input.workspaceId);
  await mkdir(input.dir, { recursive: true });
  const files = new Map<BiView, ViewFile>();
  try {
    for (const view of BI_VIEW_NAMES) files.set(view, await ViewFile.open(input.dir, view));
    const file = (view: BiView) => files.get(view) as ViewFile;
    await writeBrands(deps.db, workspace.id, file("brands"));
    const daily = await writeAnswers(deps.db, workspace.id, file("answers"), file("citations"));
    await file("daily_metrics").write(daily.rows());
    await writeTraffic(deps.db, workspace.id, file("traffic_bot_hits"), file("traffic_referrals"));
    for (const f of files.values()) await f.finish();
  } catch (error) {
    for (const f of files.values()) await f.abandon();
    throw error;
  }
  return {
    workspace_id: workspace.id,
    dir: input.dir,
    files: [...files.values()].map((f) => ({ view: f.view, path: f.path, rows: f.rows })),
  };
}

interface AgencyBiExport {
  agency_id: string;
  dir: string;
  /** One per client workspace, each in the sub-folder of `dir` named by the workspace's id. */
  clients: BiExport[];
}

/**
 * Writes each client workspace of an agency (never a pitch) as `exportBi` does, into a sub-folder
 * of `dir` named by the workspace's id: on SQLite, what an agency's BI role reads on PostgreSQL.
 * The clients are those of the moment it runs. A former client's folder from an earlier run is left
 * as it was: Sightline removes no file it did not write in this run (docs/bi.md).
 */
export async function exportAgencyBi(deps: Deps, input: { agencyId: string; dir: string }): Promise<AgencyBiExport> {
  const agency = await deps.db.selectFrom("agencies").select("id").where("id", "=", input.agencyId).executeTakeFirst();
  if (agency === undefined) throw new ApiError("NOT_FOUND", `No agency with id '${input.agencyId}' exists.`);
  const clients = await deps.db
    .selectFrom("workspaces")
    .select("id")
    .where("agency_id", "=", agency.id)
    .where("agency_kind", "=", "client")
    .orderBy("id")
    .execute();
  await mkdir(input.dir, { recursive: true });
  const exports: BiExport[] = [];
  for (const client of clients) {
    exports.push(await exportBi(deps, { workspaceId: client.id, dir: join(input.dir, client.id) }));
  }
  return { agency_id: agency.id, dir: input.dir, clients: exports };
}

async function writeBrands(db: Db, workspaceId: string, file: ViewFile): Promise<void> {
  const rows = await db
    .selectFrom("projects")
    .select(["id", "workspace_id", "name", "primary_domain", "created_at"])
    .where("workspace_id", "=", workspaceId)
    .where("deleted_at", "is", null)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  await file.write(rows.map((r) => [r.id, r.workspace_id, r.name, r.primary_domain, r.created_at]));
}

/** The answers and their citations, a page at a time; what daily_metrics counts, tallied on the way. */
async function writeAnswers(db: Db, workspaceId: string, answers: ViewFile, citations: ViewFile): Promise<DailyTally> {
  const { tally, page } = answerRows();
  let after = "";
  for (;;) {
    const rows = await db
      .selectFrom("results as r")
      .innerJoin("projects as p", (join) =>
        join.onRef("p.id", "=", "r.project_id").onRef("p.workspace_id", "=", "r.workspace_id"),
      )
      .select([
        "r.id",
        "r.workspace_id",
        "r.project_id",
        "r.analysis_id",
        "r.engine",
        "r.model",
        "r.prompt",
        "r.sample",
        "r.created_at",
        "r.mentioned",
        "r.position",
        "r.sentiment",
        "r.brand_cited",
        "r.citation_count",
        "r.brand_citation_count",
        "r.score",
        "r.cost_micros",
        "r.measure",
      ])
      .where("r.workspace_id", "=", workspaceId)
      .where("r.status", "=", "succeeded")
      .where("p.deleted_at", "is", null)
      .where("r.id", ">", after)
      .orderBy("r.id")
      .limit(PAGE)
      .execute();
    const lines = page(rows);
    await answers.write(lines.answers);
    await citations.write(lines.citations);
    const last = rows.at(-1);
    if (last === undefined || rows.length < PAGE) return tally;
    after = last.id;
  }
}

async function writeTraffic(db: Db, workspaceId: string, hits: ViewFile, referrals: ViewFile): Promise<void> {
  const botHits = await db
    .selectFrom("traffic_bot_hits as t")
    .innerJoin("projects as p", (join) =>
      join.onRef("p.id", "=", "t.project_id").onRef("p.workspace_id", "=", "t.workspace_id"),
    )
    .select(["t.day", "t.workspace_id", "t.project_id", "t.host", "t.path", "t.bot", "t.verification", "t.status"])
    .select(["t.hits", "t.last_at"])
    .where("t.workspace_id", "=", workspaceId)
    .where("p.deleted_at", "is", null)
    .orderBy("t.day")
    .orderBy("t.project_id")
    .orderBy("t.host")
    .orderBy("t.path")
    .orderBy("t.bot")
    .execute();
  await hits.write(
    botHits.map((t) => [
      t.day,
      t.workspace_id,
      t.project_id,
      t.host,
      t.path,
      t.bot,
      t.verification,
      t.status,
      t.hits,
      t.last_at,
    ]),
  );
  const visits = await db
    .selectFrom("traffic_referrals as t")
    .innerJoin("projects as p", (join) =>
      join.onRef("p.id", "=", "t.project_id").onRef("p.workspace_id", "=", "t.workspace_id"),
    )
    .select(["t.day", "t.workspace_id", "t.project_id", "t.host", "t.path", "t.engine", "t.visits"])
    .where("t.workspace_id", "=", workspaceId)
    .where("p.deleted_at", "is", null)
    .orderBy("t.day")
    .orderBy("t.project_id")
    .orderBy("t.host")
    .orderBy("t.path")
    .orderBy("t.engine")
    .execute();
  await referrals.write(visits.map((t) => [t.day, t.workspace_id, t.project_id, t.host, t.path, t.engine, t.visits]));
}

/** Where and how often the workers write every workspace's views (SIGHTLINE_BI_EXPORT_DIR, _HOURS). */
export interface BiExportSchedule {
  dir: string;
  everyHours: number;
}

/**
 * The scheduled export, on SQLite or PostgreSQL alike: every workspace but pitches, each into the
 * sub-folder of `dir` named by its id, as `sightline bi export` writes one. A workspace that fails
 * is logged and the others go on; its previous files stay as they were (each file is replaced only
 * once complete).
 *
 * @returns the workspaces written.
 */
export async function exportAllBi(deps: Deps, dir: string): Promise<number> {
  const workspaces = await deps.db
    .selectFrom("workspaces")
    .select("id")
    .where((eb) => eb.or([eb("agency_kind", "is", null), eb("agency_kind", "=", "client")]))
    .orderBy("id")
    .execute();
  let written = 0;
  for (const workspace of workspaces) {
    try {
      await exportBi(deps, { workspaceId: workspace.id, dir: join(dir, workspace.id) });
      written++;
    } catch (error) {
      deps.logger.error({ err: error, workspace: workspace.id }, "scheduled BI export failed");
    }
  }
  return written;
}
