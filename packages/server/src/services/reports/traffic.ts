import type { ServiceContext } from "../context.ts";
import type { Project } from "../projects/types.ts";
import { brandDomains } from "../traffic/access.ts";
import { crawlerFindings } from "../traffic/access-findings.ts";
import { trafficSummary } from "../traffic/summary.ts";
import type { ReportTraffic } from "./types.ts";

/** How many bots a report names; the totals count every one. */
const TOP_BOTS = 10;
/** The fewest UTC days a report's traffic covers: an analysis lasts minutes, a log is read by the day. */
const MIN_DAYS = 7;
const DAY_MS = 86_400_000;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The UTC days a report's traffic covers, `to` excluded: every day its period touches, and at
 * least the 7 ending with its last (today included, as the access audit's "recent"). A weekly
 * digest's week is its 7 days exactly; an analysis's report reads the week up to it, since logs
 * arrive by the day and its own minutes would show almost nothing.
 */
export function trafficDays(period: { start: string; end: string }): { from: string; to: string } {
  const end = Date.parse(period.end);
  const midnight = end % DAY_MS === 0;
  const to = midnight ? end : end - (end % DAY_MS) + DAY_MS;
  const from = Math.min(Date.parse(period.start) - (Date.parse(period.start) % DAY_MS), to - MIN_DAYS * DAY_MS);
  return { from: dayOf(from), to: dayOf(to) };
}

/**
 * The brand's AI crawlers and referrals over a report's days, read through the traffic feature
 * (its counts and its stored access audit; nothing is fetched), or undefined when it had none and
 * robots.txt blocks no bot: a report without logs carries no empty section.
 */
export async function reportTraffic(
  ctx: ServiceContext,
  project: Project,
  period: { start: string; end: string },
): Promise<ReportTraffic | undefined> {
  // An analysis accepted before its brand was deleted still finishes and gets its report; the
  // traffic feature reads live brands only (it would refuse this one), so the report has none.
  if (project.deleted_at !== undefined) return undefined;
  const { from, to } = trafficDays(period);
  const summary = await trafficSummary(ctx, project.id, { from, to });
  const domains = brandDomains(project);
  const findings = await crawlerFindings(ctx, project.id, domains);
  // The primary domain's blocks first, as the access audit lists its domains (a stable sort).
  findings.blocks.sort((a, b) => domains.indexOf(a.domain) - domains.indexOf(b.domain));
  const { totals } = summary;
  if (totals.bot_hits === 0 && totals.referrals === 0 && findings.blocks.length === 0) return undefined;

  const perBot = new Map<string, ReportTraffic["bots"][number]>();
  for (const row of summary.bots) {
    const bot = perBot.get(row.bot) ?? {
      bot: row.bot,
      operator: row.operator,
      hits: 0,
      verified: 0,
      spoofed: 0,
      unverifiable: 0,
    };
    bot.hits += row.hits;
    bot[row.verification] += row.hits;
    perBot.set(row.bot, bot);
  }
  const tracked = new Set<string>(project.engines);
  return {
    from,
    to,
    totals,
    bots: [...perBot.values()].sort((a, b) => b.hits - a.hits || a.bot.localeCompare(b.bot)).slice(0, TOP_BOTS),
    engines: summary.engines,
    blocked: findings.blocks.map((block) => ({
      bot: block.bot.name,
      operator: block.bot.operator,
      domain: block.domain,
      robots_url: block.robotsUrl,
      robots_status: block.robotsStatus,
      line: block.rule?.line ?? null,
      rule: block.rule?.text ?? null,
      group: block.group,
      engines: block.bot.engines.filter((engine) => tracked.has(engine)),
    })),
  };
}
