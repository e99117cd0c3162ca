import type { Readable } from "node:stream";
import type { Static } from "typebox";
import { ApiError, validationError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { getProject } from "../projects/projects.ts";
import { type BotRow, botKey, type ReferralRow, TrafficAggregate, visitKey } from "./aggregate.ts";
import { classify } from "./classify.ts";
import { createParser, detectFormat } from "./formats/detect.ts";
import type { JsonLineParser } from "./formats/json-logs.ts";
import type { LogFormat } from "./formats/types.ts";
import type { TrafficImportSchema } from "./ingest-schemas.ts";
import { logLines } from "./read.ts";
import { RowSpill } from "./spill.ts";

export type TrafficImport = Static<typeof TrafficImportSchema>;

export interface ImportInput {
  body: Readable;
  source: "cli" | "api" | "upload" | "drain";
  format?: LogFormat | null;
  fields?: Record<string, string>;
  /** At most this many bytes (decompressed) are read; more is refused and nothing is counted. */
  maxBytes?: number;
  /** Rows held in memory before they go to a temporary file (HELD_ROWS by default). */
  heldRows?: number;
}

/** Lines read before the format is decided, when it is not named. */
const SNIFF = 20;
/** Rows written per statement. */
const CHUNK = 400;
/** Rows an import holds in memory before it writes them out to a temporary file. */
const HELD_ROWS = 50_000;

/** The import of this batch already counted for the brand, if any. */
async function findImport(ctx: ServiceContext, projectId: string, digest: string): Promise<string | null> {
  const row = await ctx.db
    .selectFrom("traffic_imports")
    .select("id")
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("digest", "=", digest)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Imports a batch of access-log lines for a brand (issue 26): streamed, parsed in its format
 * (detected from the first lines unless named), classified, and added up per day and page in
 * memory, then written as counts in one transaction. The batch is recognised by the SHA-256 of its
 * decompressed bytes: importing the same file or push again changes nothing and says so
 * (`duplicate: true`). Human visitors' lines are counted as `ignored` and dropped here; nothing of
 * them, nor any address or user agent, is written anywhere.
 */
export async function importTrafficLogs(
  ctx: ServiceContext,
  projectId: string,
  input: ImportInput,
): Promise<TrafficImport> {
  const project = await getProject(ctx, projectId);
  const domains = [project.primary_domain, ...project.other_domains].map((domain) => domain.toLowerCase());
  const read = logLines(input.body, input.maxBytes);
  const aggregate = new TrafficAggregate();
  const iterator = read.lines[Symbol.asyncIterator]();
  const head: string[] = [];
  while (head.length < SNIFF) {
    const next = await iterator.next();
    if (next.done === true) break;
    head.push(next.value);
  }
  if (head.length === 0 || head.every((line) => line.trim() === "")) {
    throw validationError([{ field: "body", issue: "holds no log lines" }], "The batch holds no log lines.");
  }
  const format = input.format ?? detectFormat(head);
  if (format === null) {
    throw validationError(
      [{ field: "format", issue: "the log's format could not be recognised from its first lines; name it" }],
      "The log's format could not be recognised.",
    );
  }
  const parser = createParser(format, input.fields === undefined ? {} : { fields: input.fields });
  const classifyRecord = (parsed: { record: Parameters<typeof classify>[0] }) =>
    classify(parsed.record, ctx.botRanges, domains);
  // A Vercel drain may put a batch of requests on one line, as a JSON array.
  const many = "parseAll" in parser ? (parser as JsonLineParser) : null;
  const add = (line: string) => {
    if (many === null) aggregate.add(parser.parse(line), classifyRecord);
    else for (const parsed of many.parseAll(line)) aggregate.add(parsed, classifyRecord);
  };
  const spill = new RowSpill();
  const held = input.heldRows ?? HELD_ROWS;
  try {
    for (const line of head) add(line);
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      add(next.value);
      if (aggregate.rows >= held) await spill.write(aggregate);
    }
    return await write(ctx, projectId, { digest: read.digest(), format, source: input.source, aggregate, spill });
  } finally {
    await spill.dispose();
  }
}

interface Written {
  digest: string;
  format: LogFormat;
  source: ImportInput["source"];
  aggregate: TrafficAggregate;
  spill: RowSpill;
}

/** Writes an import's counts in one transaction, unless its batch was counted before. */
async function write(ctx: ServiceContext, projectId: string, input: Written): Promise<TrafficImport> {
  const { digest, format, aggregate, spill } = input;
  const summary = aggregate.summary();
  const now = ctx.clock.now().toISOString();
  const id = newId("tim");
  const result = (duplicate: boolean, existing?: string): TrafficImport => ({
    object: "traffic_import",
    id: existing ?? id,
    project_id: projectId,
    duplicate,
    format,
    ...summary,
  });
  try {
    return await inTransaction(ctx, async (tx) => {
      const seen = await findImport(tx, projectId, digest);
      if (seen !== null) return result(true, seen);
      await tx.db
        .insertInto("traffic_imports")
        .values({
          id,
          workspace_id: tx.workspace.id,
          project_id: projectId,
          digest,
          source: input.source,
          format,
          lines: summary.lines,
          bot_hits: summary.bot_hits,
          referrals: summary.referrals,
          ignored: summary.ignored,
          rejected: summary.rejected,
          created_at: now,
        })
        .execute();
      const owner = { workspace_id: tx.workspace.id, project_id: projectId };
      // One statement may not touch a row twice (PostgreSQL refuses): a row the file holds more
      // than once is added up in its batch first.
      const bots = new Map<string, BotRow>();
      const visits = new Map<string, ReferralRow>();
      for await (const spilled of spill.rows(aggregate)) {
        if (spilled.kind === "bot") {
          const { row } = spilled;
          const key = botKey(row);
          const held = bots.get(key);
          if (held === undefined) bots.set(key, row);
          else {
            held.hits += row.hits;
            if (row.last_at > held.last_at) held.last_at = row.last_at;
          }
          if (bots.size === CHUNK) await writeBots(tx, owner, bots);
        } else {
          const { row } = spilled;
          const key = visitKey(row);
          const held = visits.get(key);
          if (held === undefined) visits.set(key, row);
          else held.visits += row.visits;
          if (visits.size === CHUNK) await writeVisits(tx, owner, visits);
        }
      }
      await writeBots(tx, owner, bots);
      await writeVisits(tx, owner, visits);
      return result(false);
    });
  } catch (error) {
    // The same batch imported twice at once: the other import's row won the unique digest.
    if (error instanceof ApiError) throw error;
    const again = await findImport(ctx, projectId, digest);
    if (again !== null) return result(true, again);
    throw error;
  }
}

type Owner = { workspace_id: string; project_id: string };

/** Adds a batch of bot rows to the stored counts, and empties it for the next ones. */
async function writeBots(tx: ServiceContext, owner: Owner, batch: Map<string, BotRow>): Promise<void> {
  if (batch.size === 0) return;
  const rows = [...batch.values()];
  batch.clear();
  await tx.db
    .insertInto("traffic_bot_hits")
    .values(rows.map((row) => ({ ...owner, ...row })))
    .onConflict((oc) =>
      oc.columns(["project_id", "day", "host", "path", "bot", "verification", "status"]).doUpdateSet((eb) => ({
        hits: eb("traffic_bot_hits.hits", "+", eb.ref("excluded.hits")),
        last_at: eb
          .case()
          .when("excluded.last_at", ">", eb.ref("traffic_bot_hits.last_at"))
          .then(eb.ref("excluded.last_at"))
          .else(eb.ref("traffic_bot_hits.last_at"))
          .end(),
      })),
    )
    .execute();
}

/** Adds a batch of referral rows to the stored counts, and empties it for the next ones. */
async function writeVisits(tx: ServiceContext, owner: Owner, batch: Map<string, ReferralRow>): Promise<void> {
  if (batch.size === 0) return;
  const rows = [...batch.values()];
  batch.clear();
  await tx.db
    .insertInto("traffic_referrals")
    .values(rows.map((row) => ({ ...owner, ...row })))
    .onConflict((oc) =>
      oc.columns(["project_id", "day", "host", "path", "engine"]).doUpdateSet((eb) => ({
        visits: eb("traffic_referrals.visits", "+", eb.ref("excluded.visits")),
      })),
    )
    .execute();
}
