import type { SelectQueryBuilder } from "kysely";
import type { Tables } from "../../db/tables.ts";
import type { ServiceContext } from "../context.ts";
import { resultColumns } from "../results/columns.ts";
import type { Span } from "./period.ts";
import { inSpans } from "./tally.ts";

/** One cited URL's counts over some spans. */
interface UrlRow {
  url: string;
  domain: string;
  /** `brand`, `competitor` or `other`. */
  kind: string;
  competitor: string | null;
  citations: number;
  answers: number;
}

/** A domain's citations in one rollup row's span: its day, or its week's Monday. */
interface StartRow {
  domain: string;
  start: string;
  citations: number;
}

type RollupQuery = SelectQueryBuilder<Tables, "source_rollups", object>;

/** Where the sources endpoint reads its counts. */
export interface SourceRows {
  byUrl(spans: Span[]): Promise<UrlRow[]>;
  byDomainAndStart(spans: Span[], domains: string[]): Promise<StartRow[]>;
}

/**
 * From the rollups: an index range per span, whatever the number of answers. One engine's sources
 * from `source_rollups`; all engines' from `source_totals`, the same counts summed over engines.
 */
export function rollupSourceRows(ctx: ServiceContext, projectId: string, engine: string | undefined): SourceRows {
  const scope = (spans: Span[]): RollupQuery =>
    engine === undefined
      ? // The same columns but the engine, which the queries below do not read.
        (ctx.db
          .selectFrom("source_totals")
          .where((eb) => inSpans(eb, ctx.workspace.id, projectId, spans)) as unknown as RollupQuery)
      : ctx.db
          .selectFrom("source_rollups")
          .where((eb) => inSpans(eb, ctx.workspace.id, projectId, spans))
          .where("engine", "=", engine);
  return {
    byUrl: async (spans) =>
      (
        await scope(spans)
          .select((eb) => [
            eb.fn.min<string>("url").as("url"),
            eb.fn.min<string>("domain").as("domain"),
            eb.fn.min<string>("kind").as("kind"),
            eb.fn.min<string | null>("competitor").as("competitor"),
            eb.fn.sum<number>("citations").as("citations"),
            eb.fn.sum<number>("answers").as("answers"),
          ])
          .groupBy("url_key")
          .execute()
      ).map((row) => ({ ...row, citations: Number(row.citations), answers: Number(row.answers) })),
    byDomainAndStart: async (spans, domains) =>
      (
        await scope(spans)
          .select((eb) => ["domain", "start", eb.fn.sum<number>("citations").as("citations")])
          .where("domain", "in", domains)
          .groupBy(["domain", "start"])
          .execute()
      ).map((row) => ({ ...row, citations: Number(row.citations) })),
  };
}

const within = (day: string, spans: Span[]) => spans.some((span) => day >= span.from && day < span.to);

/**
 * From the answers themselves, to some prompts only (a tag's): the source rollups are not kept per
 * prompt. Reads the succeeded answers of [fromDay, toDay) once, an indexed range of (workspace,
 * project, created_at), and counts their citations as the rollups would (each answer counts a URL
 * once in `answers`, each citation in `citations`; the day of an answer is its start).
 */
export function answerSourceRows(
  ctx: ServiceContext,
  projectId: string,
  filters: { engine: string | undefined; prompts: readonly string[] },
  days: { fromDay: string; toDay: string },
): SourceRows {
  type Answer = { day: string; urls: Map<string, UrlRow> };
  let loaded: Promise<Answer[]> | undefined;
  const load = async (): Promise<Answer[]> => {
    if (filters.prompts.length === 0) return [];
    let query = ctx.db
      .selectFrom("results")
      .select(["created_at", "measure"])
      .where("workspace_id", "=", ctx.workspace.id)
      .where("project_id", "=", projectId)
      .where("created_at", ">=", `${days.fromDay}T00:00:00.000Z`)
      .where("created_at", "<", `${days.toDay}T00:00:00.000Z`)
      .where("status", "=", "succeeded")
      .where("conversation_id", "is", null)
      .where("prompt", "in", filters.prompts);
    if (filters.engine !== undefined) query = query.where("engine", "=", filters.engine);
    return (await query.execute()).map((row) => {
      const urls = new Map<string, UrlRow>();
      for (const citation of resultColumns.measure.readNullable(row.measure)?.citations ?? []) {
        const found = urls.get(citation.url);
        if (found !== undefined) {
          found.citations++;
          continue;
        }
        urls.set(citation.url, {
          url: citation.url,
          domain: citation.domain,
          kind: citation.brand ? "brand" : citation.competitor !== null ? "competitor" : "other",
          competitor: citation.brand ? null : citation.competitor,
          citations: 1,
          answers: 1,
        });
      }
      return { day: row.created_at.slice(0, 10), urls };
    });
  };
  const answers = async (spans: Span[]) => {
    loaded ??= load();
    return (await loaded).filter((answer) => within(answer.day, spans));
  };
  return {
    byUrl: async (spans) => {
      const out = new Map<string, UrlRow>();
      for (const answer of await answers(spans)) {
        for (const row of answer.urls.values()) {
          const found = out.get(row.url);
          if (found === undefined) out.set(row.url, { ...row });
          else {
            found.citations += row.citations;
            found.answers += row.answers;
          }
        }
      }
      return [...out.values()];
    },
    byDomainAndStart: async (spans, domains) => {
      const wanted = new Set(domains);
      const out = new Map<string, StartRow>();
      for (const answer of await answers(spans)) {
        for (const row of answer.urls.values()) {
          if (!wanted.has(row.domain)) continue;
          const key = `${row.domain}\u0000${answer.day}`;
          const found = out.get(key);
          if (found === undefined) out.set(key, { domain: row.domain, start: answer.day, citations: row.citations });
          else found.citations += row.citations;
        }
      }
      return [...out.values()];
    },
  };
}
