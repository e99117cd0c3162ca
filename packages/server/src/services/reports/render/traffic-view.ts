import { count } from "../../../lib/plural.ts";
import { engineTitle } from "../../labels.ts";
import { engineList } from "../titles.ts";
import type { ReportTraffic } from "../types.ts";

/**
 * The report's "AI crawlers and referrals" (issue 26) in words a marketer reads: what the AI
 * crawlers read of the brand's sites and how many of those reads were really the bot, the visits
 * each AI engine sent, and a warning for each robots.txt rule that shuts AI bots out. Counts are
 * printed as `count` prints every count of the report ("1,240 pages"); engines by their titles.
 */
export interface TrafficView {
  /** What the section counts, and over which days. */
  note: string;
  /** The crawlers' totals, each top bot, then the referring engines. */
  lines: string[];
  /** One per robots.txt rule (or failing robots.txt) that blocks AI bots from every page. */
  warnings: string[];
}

const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
/** A warning names this many bots; past it, it counts the rest. */
const NAMED_BOTS = 3;
/** A count without its noun, grouped as `count` groups it. */
const number = (n: number) => n.toLocaleString("en-US");

/** "15–21 Nov 2026", "28 Nov – 4 Dec 2026", or one day, for the UTC days [from, to). */
function days(from: string, to: string): string {
  const first = new Date(`${from}T00:00:00Z`);
  const last = new Date(Date.parse(`${to}T00:00:00Z`) - 86_400_000);
  if (last.getTime() <= first.getTime()) return day.format(first);
  const end = day.format(last);
  if (first.getUTCFullYear() !== last.getUTCFullYear()) return `${day.format(first)} – ${end}`;
  if (first.getUTCMonth() !== last.getUTCMonth()) return `${day.format(first).replace(/ \d{4}$/, "")} – ${end}`;
  return `${first.getUTCDate()}–${end}`;
}

/** "A", "A and B", "A, B and C". */
function and(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function crawlers(t: ReportTraffic): string {
  const { bot_hits: hits, verified, spoofed, unverifiable } = t.totals;
  if (hits === 0) {
    return "No AI crawler was counted in these days: crawlers are read from access logs (Google Analytics does not see them).";
  }
  const parts = [
    verified > 0 ? `${number(verified)} verified from their operators' published addresses` : null,
    unverifiable > 0 ? `${number(unverifiable)} from bots whose addresses cannot be checked` : null,
    spoofed > 0 ? `${number(spoofed)} from other addresses using a bot's name` : null,
  ].filter((p): p is string => p !== null);
  return `AI crawlers read ${count(hits, "page")} of the brand's sites: ${and(parts)}.`;
}

/** "GPTBot read 1,240 pages (1,180 from OpenAI's published addresses)". */
function bot(b: ReportTraffic["bots"][number]): string {
  const parts = [
    b.verified === b.hits
      ? `all from ${b.operator}'s published addresses`
      : b.verified > 0 || b.spoofed > 0
        ? `${number(b.verified)} from ${b.operator}'s published addresses`
        : null,
    b.spoofed > 0 ? `${number(b.spoofed)} from other addresses using its name` : null,
    b.unverifiable === b.hits
      ? "none could be checked against published addresses"
      : b.unverifiable > 0
        ? `${number(b.unverifiable)} that could not be checked`
        : null,
  ].filter((p): p is string => p !== null);
  return `${b.bot} read ${count(b.hits, "page")} (${parts.join("; ")}).`;
}

function referrals(t: ReportTraffic): string {
  const sent = t.engines.map((e) => `${engineTitle(e.engine)} sent ${count(e.visits, "visit")}`);
  if (sent.length === 0) return "No AI engine referred a visit in these days.";
  if (sent.length === 1) return `${sent[0]}.`;
  return `AI engines sent ${count(t.totals.referrals, "visit")}: ${and(sent)}.`;
}

/** The blocks of one robots.txt rule (or one failing robots.txt) on one domain, as one warning. */
function warnings(blocked: ReportTraffic["blocked"]): string[] {
  const groups = new Map<string, ReportTraffic["blocked"]>();
  for (const block of blocked) {
    const key = JSON.stringify([block.domain, block.line, block.rule, block.group, block.robots_status]);
    groups.set(key, [...(groups.get(key) ?? []), block]);
  }
  return [...groups.values()].flatMap((blocks) => {
    const first = blocks[0];
    if (first === undefined) return [];
    // A robots.txt failing, or a rule for `*`, blocks them all: the ones the brand's engines read first.
    const named = [...blocks].sort((a, b) => Number(b.engines.length > 0) - Number(a.engines.length > 0));
    const bots =
      named.length <= NAMED_BOTS
        ? and(named.map((b) => `${b.bot} (${b.operator})`))
        : `${named.length} AI bots (${named
            .slice(0, NAMED_BOTS)
            .map((b) => b.bot)
            .join(", ")} and ${named.length - NAMED_BOTS} more)`;
    const engines = [...new Set(blocks.flatMap((b) => b.engines))];
    const feeders = blocks.filter((b) => b.engines.length > 0);
    const who =
      feeders.length === blocks.length
        ? blocks.length === 1
          ? "It feeds"
          : "They feed"
        : `${and(feeders.map((b) => b.bot))} ${feeders.length === 1 ? "feeds" : "feed"}`;
    const fed = engines.length === 0 ? "" : ` ${who} ${engineList(engines)}, which the brand tracks.`;
    const where = `${first.domain}/robots.txt`;
    return [
      first.line === null
        ? `${where} answered ${first.robots_status ?? "an error"}: while it does, ${bots} must treat every page as blocked.${fed}`
        : `${where} line ${first.line}, "${first.rule ?? ""}" (for User-agent: ${first.group ?? "*"}), blocks ${bots} from every page.${fed}`,
    ];
  });
}

/** Null when the report has no traffic section (no logs or GA4, no block, or an older report). */
export function trafficView(traffic: ReportTraffic | undefined): TrafficView | null {
  if (traffic === undefined) return null;
  return {
    note: `${days(traffic.from, traffic.to)} (UTC days), from the brand's own access logs (and Google Analytics, where connected). A crawler is verified when it reads from the addresses its operator publishes; where logs and Google Analytics both count a visit, it is counted once.`,
    lines: [crawlers(traffic), ...traffic.bots.map(bot), referrals(traffic)],
    warnings: warnings(traffic.blocked),
  };
}
