import type { Static } from "typebox";
import { hostIsOnDomain } from "../../lib/domains.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { getProject } from "../projects/projects.ts";
import type { Project } from "../projects/types.ts";
import { storedAs } from "../validate.ts";
import { HttpPageFetcher, type PageFetcher } from "../websites/fetcher.ts";
import { checkDomain, type DomainCheck } from "./access-check.ts";
import { BOTS } from "./bots.ts";
import { StoredAccessVerdictsSchema, type TrafficAccessSchema } from "./schemas.ts";

/**
 * The access audit of a brand's domains (issue 26): each domain's robots.txt read per AI bot and
 * its llms.txt (access-check.ts), one row per domain in traffic_access_checks, the latest check
 * only; read back with the statuses each bot was served lately, from the brand's access logs.
 * Checked when first read and then daily by the worker (access-recheck.ts).
 */
export type TrafficAccess = Static<typeof TrafficAccessSchema>;
type DomainAccess = TrafficAccess["domains"][number];

/** The whole check of a brand, every domain included, within this (domains are read 4 at a time). */
const ACCESS_BUDGET_MS = 25_000;
const CONCURRENCY = 4;
/** `recent`: the last 7 UTC days, today included. */
export const RECENT_DAYS = 7;
const DAY_MS = 86_400_000;

export const storedVerdicts = storedAs("traffic_access_checks.verdicts", StoredAccessVerdictsSchema);

/** The primary domain, then the others. */
export function brandDomains(project: Pick<Project, "primary_domain" | "other_domains">): string[] {
  return [...new Set([project.primary_domain, ...project.other_domains])];
}

/** Reads sites with the outbound address rules every outbound request follows (webhooks' policy). */
function accessFetcher(ctx: Pick<ServiceContext, "webhookTargets">): PageFetcher {
  return new HttpPageFetcher({ allowPrivate: ctx.webhookTargets.allowPrivate, resolver: ctx.webhookTargets.resolver });
}

export interface AccessOptions {
  /** The sites' side; the real one by default (tests point it at a local site). */
  fetcher?: PageFetcher;
}

async function inPool<T, R>(items: readonly T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await run(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return out;
}

/**
 * Checks the brand's domains (or only `domains` of them) and stores one row per domain; rows of
 * domains the brand no longer has go when every domain is checked. The network is used before
 * the transaction, never inside it. Returns the domains checked.
 */
export async function checkAccess(
  ctx: ServiceContext,
  projectId: string,
  options: AccessOptions & { domains?: readonly string[] } = {},
): Promise<string[]> {
  const project = await getProject(ctx, projectId);
  const all = brandDomains(project);
  const domains = options.domains === undefined ? all : all.filter((d) => options.domains?.includes(d));
  const fetcher = options.fetcher ?? accessFetcher(ctx);
  // Real time: the fetcher's limits are in it, whatever the service's clock says.
  const deadline = Date.now() + ACCESS_BUDGET_MS;
  const checks: DomainCheck[] = await inPool(domains, CONCURRENCY, (domain) => checkDomain(fetcher, domain, deadline));
  const checkedAt = ctx.clock.now().toISOString();
  await inTransaction(ctx, async (tx) => {
    for (const [i, domain] of domains.entries()) {
      const check = checks[i];
      if (check === undefined) continue;
      const values = {
        workspace_id: ctx.workspace.id,
        checked_at: checkedAt,
        robots_status: check.robotsStatus,
        llms_status: check.llmsStatus,
        verdicts: storedVerdicts.write(check.verdicts),
        error: check.error,
      };
      await tx.db
        .insertInto("traffic_access_checks")
        .values({ project_id: projectId, domain, ...values })
        .onConflict((oc) => oc.columns(["project_id", "domain"]).doUpdateSet(values))
        .execute();
    }
    if (options.domains === undefined) {
      await tx.db
        .deleteFrom("traffic_access_checks")
        .where("workspace_id", "=", ctx.workspace.id)
        .where("project_id", "=", projectId)
        .where("domain", "not in", all)
        .execute();
    }
  });
  return domains;
}

interface Recent {
  hits: number;
  errors: number;
  statuses: Map<number, number>;
  last: string | null;
}

/** The audit as stored; a domain never checked (a new brand, a domain just added) is checked first. */
export async function getAccess(
  ctx: ServiceContext,
  projectId: string,
  options: AccessOptions = {},
): Promise<TrafficAccess> {
  const project = await getProject(ctx, projectId);
  const domains = brandDomains(project);
  const read = () =>
    ctx.db
      .selectFrom("traffic_access_checks")
      .selectAll()
      .where("workspace_id", "=", ctx.workspace.id)
      .where("project_id", "=", projectId)
      .execute();
  let rows = await read();
  const missing = domains.filter((d) => !rows.some((row) => row.domain === d));
  if (missing.length > 0) {
    await checkAccess(ctx, projectId, { ...options, domains: missing });
    rows = await read();
  }

  const since = new Date(ctx.clock.now().getTime() - (RECENT_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const hits = await ctx.db
    .selectFrom("traffic_bot_hits")
    .select(["host", "bot", "status"])
    .select((eb) => [eb.fn.sum<number>("hits").as("hits"), eb.fn.max("last_at").as("last_at")])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("day", ">=", since)
    // A hit claiming a bot from outside its published ranges is not the bot.
    .where("verification", "!=", "spoofed")
    .groupBy(["host", "bot", "status"])
    .execute();
  // Per domain and bot. A host on two brand domains is the more specific one's; a log that does
  // not say the host is the primary domain's.
  const recent = new Map<string, Recent>();
  for (const row of hits) {
    const domain =
      domains.filter((d) => row.host !== "" && hostIsOnDomain(row.host, d)).sort((a, b) => b.length - a.length)[0] ??
      project.primary_domain;
    const key = `${domain}\u0000${row.bot}`;
    const entry = recent.get(key) ?? { hits: 0, errors: 0, statuses: new Map<number, number>(), last: null };
    const n = Number(row.hits);
    const status = Number(row.status);
    entry.hits += n;
    if (status >= 400) entry.errors += n;
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + n);
    const last = String(row.last_at);
    if (entry.last === null || last > entry.last) entry.last = last;
    recent.set(key, entry);
  }

  const tracked = new Set<string>(project.engines);
  const out: DomainAccess[] = [];
  for (const domain of domains) {
    const row = rows.find((r) => r.domain === domain);
    if (row === undefined) continue;
    const stored = storedVerdicts.read(row.verdicts);
    out.push({
      domain,
      checked_at: row.checked_at,
      error: row.error,
      robots_txt: { url: stored.robots_url, status: row.robots_status, found: stored.robots_found },
      llms_txt: { url: stored.llms_url, present: stored.llms_present, status: row.llms_status },
      bots: BOTS.map((bot) => {
        const verdict = stored.bots.find((b) => b.bot === bot.name) ?? {
          bot: bot.name,
          verdict: "unknown" as const,
          reason: "not checked yet",
          group: null,
          rule: null,
        };
        const r = recent.get(`${domain}\u0000${bot.name}`);
        return {
          ...verdict,
          operator: bot.operator,
          purpose: bot.purpose,
          engines: [...bot.engines],
          tracked: bot.engines.some((e) => tracked.has(e)),
          recent: {
            hits: r?.hits ?? 0,
            errors: r?.errors ?? 0,
            statuses: [...(r?.statuses ?? new Map<number, number>()).entries()]
              .map(([status, n]) => ({ status, hits: n }))
              .sort((a, b) => b.hits - a.hits || a.status - b.status),
            last_at: r?.last ?? null,
          },
        };
      }),
    });
  }
  const checked = out.map((d) => d.checked_at).sort();
  return {
    object: "traffic_access",
    project_id: projectId,
    checked_at: checked[0] ?? null,
    recent_from: since,
    domains: out,
  };
}
