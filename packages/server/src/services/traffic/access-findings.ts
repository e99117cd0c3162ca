import type { ServiceContext } from "../context.ts";
import { RECENT_DAYS, storedVerdicts } from "./access.ts";
import { BOTS, type Bot } from "./bots.ts";

/**
 * What the access audit and the access logs say that needs doing, as facts for the opportunities
 * (opportunities/crawlers.ts words them): bots robots.txt blocks from every page of a brand domain,
 * and bots served errors lately. Every bot is listed; which feed the brand's engines is the
 * opportunities' call.
 */
export interface CrawlerBlock {
  domain: string;
  bot: Bot;
  robotsUrl: string | null;
  robotsStatus: number | null;
  /** The `User-agent` of the group that blocks it, as written; null when a 5xx blocks everything. */
  group: string | null;
  rule: { line: number; text: string } | null;
  reason: string;
}

export interface CrawlerErrors {
  bot: Bot;
  /** The first UTC day counted. */
  since: string;
  hits: number;
  errors: number;
  /** The pages and statuses, most hits first, at most 5. */
  pages: { path: string; status: number; hits: number }[];
}

/** A bot's errors are worth fixing from this many in the window, and this share of its hits. */
const MIN_ERRORS = 3;
const MIN_ERROR_SHARE = 0.1;
const DAY_MS = 86_400_000;

/**
 * The brand's findings; with `domains` (its domains now), a domain it no longer has is left out
 * before the next daily check drops its row.
 */
export async function crawlerFindings(
  ctx: ServiceContext,
  projectId: string,
  domains?: readonly string[],
): Promise<{ blocks: CrawlerBlock[]; errors: CrawlerErrors[] }> {
  const byName = new Map(BOTS.map((bot) => [bot.name, bot]));
  const checks = await ctx.db
    .selectFrom("traffic_access_checks")
    .select(["domain", "robots_status", "verdicts"])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .orderBy("domain")
    .execute();
  const blocks: CrawlerBlock[] = [];
  for (const check of checks) {
    if (domains !== undefined && !domains.includes(check.domain)) continue;
    const stored = storedVerdicts.read(check.verdicts);
    for (const verdict of stored.bots) {
      const bot = byName.get(verdict.bot);
      if (bot === undefined || verdict.verdict !== "blocked") continue;
      blocks.push({
        domain: check.domain,
        bot,
        robotsUrl: stored.robots_url,
        robotsStatus: check.robots_status,
        group: verdict.group,
        rule: verdict.rule,
        reason: verdict.reason,
      });
    }
  }

  const since = new Date(ctx.clock.now().getTime() - (RECENT_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const rows = await ctx.db
    .selectFrom("traffic_bot_hits")
    .select(["bot", "path", "status"])
    .select((eb) => eb.fn.sum<number>("hits").as("hits"))
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("day", ">=", since)
    // A firewall turning away a spoofed bot does its job.
    .where("verification", "!=", "spoofed")
    .groupBy(["bot", "path", "status"])
    .execute();
  const perBot = new Map<string, CrawlerErrors>();
  for (const row of rows) {
    const bot = byName.get(row.bot);
    if (bot === undefined) continue;
    const entry = perBot.get(bot.name) ?? { bot, since, hits: 0, errors: 0, pages: [] };
    const n = Number(row.hits);
    const status = Number(row.status);
    entry.hits += n;
    if (status >= 400) {
      entry.errors += n;
      entry.pages.push({ path: row.path, status, hits: n });
    }
    perBot.set(bot.name, entry);
  }
  const errors = [...perBot.values()]
    .filter((e) => e.errors >= MIN_ERRORS && e.errors >= e.hits * MIN_ERROR_SHARE)
    .map((e) => ({
      ...e,
      pages: e.pages.sort((a, b) => b.hits - a.hits || a.path.localeCompare(b.path) || a.status - b.status).slice(0, 5),
    }));
  return { blocks, errors };
}

/**
 * What the findings rest on, for the opportunities' cache: the latest check and the latest
 * import of logs (a log drain's push is an import too).
 */
export async function crawlerBasis(ctx: ServiceContext, projectId: string): Promise<string> {
  const checked = await ctx.db
    .selectFrom("traffic_access_checks")
    .select((eb) => eb.fn.max("checked_at").as("at"))
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  const imported = await ctx.db
    .selectFrom("traffic_imports")
    .select((eb) => [eb.fn.max("created_at").as("at"), eb.fn.countAll<number>().as("n")])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  return `${checked?.at ?? ""}/${imported?.at ?? ""}/${Number(imported?.n ?? 0)}`;
}
