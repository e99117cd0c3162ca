import type { Deps } from "../context.ts";
import { removeAnswerTexts } from "../results/store.ts";
import { purgeDeletedProjects } from "./purge-projects.ts";

/** How long finished work is kept, in days; `answerTextDays` null keeps answers' texts forever. */
export interface RetentionConfig {
  jobsDays: number;
  deliveriesDays: number;
  answerTextDays: number | null;
  /** PostgreSQL: whole months of answers older than this many months are dropped (partitions.ts); null: kept. */
  answerMonths?: number | null;
  /** AI traffic counts (traffic/) older than this many days; 400 unless said (a year and its month before). */
  trafficDays?: number;
}

export const DEFAULT_RETENTION: RetentionConfig = {
  jobsDays: 7,
  deliveriesDays: 30,
  answerTextDays: null,
  trafficDays: 400,
};

/** Rows per statement, and statements per table per pass: small, so no pass holds a lock for long. */
const BATCH = 500;
const MAX_BATCHES = 20;
const DAY_MS = 86_400_000;

export interface PruneCounts {
  jobs: number;
  deliveries: number;
  notifications: number;
  answerTexts: number;
  /** Daily AI traffic counts and import records past their retention. */
  traffic: number;
  /** Deleted brands purged with all their data, past their 30 days of being restorable. */
  projects: number;
  /** MCP sign-in codes a day past their ten minutes: used or not, they can open nothing more. */
  oauthCodes: number;
}

/** Runs `step` (which handles at most BATCH rows and says how many) until a short batch or the cap. */
async function inBatches(step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = await step();
    total += n;
    if (n < BATCH) break;
  }
  return total;
}

const before = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

/**
 * One pass of retention: finished jobs, webhook deliveries and alert notifications in a final state,
 * and (when configured) the texts of old answers, older than their retention, in batches of 500.
 * What figures are computed from survives: the rollups are separate tables, and an answer keeps its
 * measure, counts and citations when its text goes (`text` becomes null; re-measuring skips it).
 * Brands deleted more than 30 days ago are purged with everything keyed by them (purge-projects.ts).
 * Running it twice, or in two workers at once, deletes nothing more.
 */
export async function prune(deps: Deps, now: Date, retention: RetentionConfig): Promise<PruneCounts> {
  const db = deps.db;
  const jobsCutoff = before(now, retention.jobsDays);
  const jobs = await inBatches(async () => {
    const result = await db
      .deleteFrom("jobs")
      .where(
        "id",
        "in",
        db
          .selectFrom("jobs")
          .select("id")
          .where("status", "in", ["succeeded", "dead"])
          .where("finished_at", "<", jobsCutoff)
          .limit(BATCH),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  });

  const deliveriesCutoff = before(now, retention.deliveriesDays);
  const deliveries = await inBatches(() =>
    db.transaction().execute(async (tx) => {
      const ids = (
        await tx
          .selectFrom("webhook_deliveries")
          .select("id")
          .where("status", "in", ["succeeded", "failed", "canceled"])
          .where("updated_at", "<", deliveriesCutoff)
          .limit(BATCH)
          .execute()
      ).map((row) => row.id);
      if (ids.length === 0) return 0;
      await tx.deleteFrom("webhook_attempts").where("delivery_id", "in", ids).execute();
      await tx.deleteFrom("webhook_deliveries").where("id", "in", ids).execute();
      return ids.length;
    }),
  );

  const notifications = await inBatches(async () => {
    const result = await db
      .deleteFrom("notifications")
      .where(
        "id",
        "in",
        db
          .selectFrom("notifications")
          .select("id")
          .where("status", "in", ["sent", "failed", "canceled"])
          .where("updated_at", "<", deliveriesCutoff)
          .limit(BATCH),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  });

  let answerTexts = 0;
  if (retention.answerTextDays !== null) {
    const textCutoff = before(now, retention.answerTextDays);
    answerTexts = await inBatches(() => removeAnswerTexts(deps, textCutoff, BATCH));
  }
  // Daily counts: each pass removes the days that fell out of the window since the last one.
  const trafficCutoff = before(now, retention.trafficDays ?? DEFAULT_RETENTION.trafficDays ?? 400);
  const trafficDay = trafficCutoff.slice(0, 10);
  let traffic = 0;
  for (const table of ["traffic_bot_hits", "traffic_referrals"] as const) {
    traffic += Number((await db.deleteFrom(table).where("day", "<", trafficDay).executeTakeFirst()).numDeletedRows);
  }
  traffic += Number(
    (await db.deleteFrom("traffic_imports").where("created_at", "<", trafficCutoff).executeTakeFirst()).numDeletedRows,
  );
  const projects = await purgeDeletedProjects(deps, now);
  const oauthCodes = Number(
    (await db.deleteFrom("oauth_codes").where("expires_at", "<", before(now, 1)).executeTakeFirst()).numDeletedRows,
  );
  return { jobs, deliveries, notifications, answerTexts, traffic, projects, oauthCodes };
}
