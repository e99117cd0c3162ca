import { engineTitle } from "../labels.ts";
import type { CrawlerBlock, CrawlerErrors } from "../traffic/access-findings.ts";
import { BOTS, type Bot } from "../traffic/bots.ts";
import { type AnswerRow, idOf, type Opportunity, round, WEIGHTS } from "./compute.ts";

/**
 * The crawler opportunities (issue 26): an AI bot that feeds an engine the brand tracks, blocked
 * from every page of a brand domain by its robots.txt (`crawler_blocked`), or served errors on a
 * good share of its requests lately (`crawler_errors`). Their impact is the share of the period's
 * answers that came from the engines the bot feeds: what the brand loses there. Pure, like compute.ts.
 */
export interface CrawlerFacts {
  blocks: CrawlerBlock[];
  errors: CrawlerErrors[];
}

const WHAT_IS_LOST: Record<Bot["purpose"], (engines: string) => string> = {
  search: (engines) => `${engines} cannot cite your pages`,
  index: (engines) => `${engines} cannot cite your pages`,
  fetch: (engines) => `${engines} cannot open your pages when people ask it to`,
  training: (engines) => `the models behind ${engines} do not learn from your pages`,
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function namesOf(engines: string[]): string {
  const titles = [...new Set(engines.map(engineTitle))];
  return titles.length <= 1 ? (titles[0] ?? "") : `${titles.slice(0, -1).join(", ")} and ${titles.at(-1)}`;
}

/** What a bot's opportunity concerns: the tracked engines it feeds, and their answers of the period. */
function concern(kind: Opportunity["kind"], subject: string, engines: string[], rows: AnswerRow[]) {
  const answers = rows.filter((r) => engines.includes(r.engine)).length;
  return {
    id: idOf(kind, subject),
    kind,
    impact: round(Math.min(1, (answers / Math.max(1, rows.length)) * WEIGHTS[kind])),
    answers,
    engines,
    prompts: [],
    urls: [],
    search: null,
    change: null,
    fact: null,
    evidence: [],
  };
}

function blocked(block: CrawlerBlock, engines: string[], rows: AnswerRow[]): Opportunity {
  const { bot, domain, rule } = block;
  const { operator } = bot;
  const base = concern("crawler_blocked", `${domain}\u0000${bot.name}`, engines, rows);
  const names = namesOf(engines);
  const lost = WHAT_IS_LOST[bot.purpose](names);
  const where = block.robotsUrl ?? `${domain}/robots.txt`;
  const fed = `It feeds ${names}, which the brand tracks${base.answers > 0 ? ` (${plural(base.answers, "answer")} of the period)` : ""}.`;
  let title: string;
  let explanation: string;
  if (rule === null) {
    title = `${bot.name} is blocked on ${domain}: its robots.txt answers ${block.robotsStatus ?? "an error"}, so ${lost}`;
    explanation = `${where} answered ${block.robotsStatus ?? "an error"} when it was last read. While robots.txt answers a server error, crawlers must assume every page is disallowed (RFC 9309), so ${bot.name} (${operator}) reads nothing on ${domain}. ${fed} Make robots.txt answer 200 with your rules, or 404 if you have none.`;
  } else {
    title = `${bot.name} is blocked by ${domain}/robots.txt line ${rule.line}: ${lost}`;
    const fix =
      block.group === "*"
        ? `Give it a group of its own ("User-agent: ${bot.name}" with "Allow: /"): a bot follows its own group and ignores the one for *.`
        : "Remove the line, or narrow it to the paths you mean to keep private.";
    explanation = `Line ${rule.line} of ${where}, "${rule.text}" in the group for ${block.group ?? "*"}, blocks ${bot.name} (${operator}) from every page. ${fed} ${fix}`;
  }
  if (bot.purpose === "training") {
    const readers = BOTS.filter(
      (b) => b.operator === bot.operator && (b.purpose === "search" || b.purpose === "fetch"),
    );
    if (readers.length > 0) {
      explanation += ` If you block it on purpose, to keep your pages out of model training, this alone does not stop ${names} citing them: ${readers.map((b) => b.name).join(" and ")} read pages for answers.`;
    }
  }
  return {
    ...base,
    title,
    explanation,
    domain,
    crawler: {
      bot: bot.name,
      operator,
      robots: {
        url: block.robotsUrl,
        status: block.robotsStatus,
        line: rule?.line ?? null,
        rule: rule?.text ?? null,
        user_agent: block.group,
      },
      served: null,
    },
  };
}

function erred(found: CrawlerErrors, engines: string[], rows: AnswerRow[]): Opportunity {
  const { bot } = found;
  const { operator } = bot;
  const base = concern("crawler_errors", bot.name, engines, rows);
  const pages = found.pages.map((p) => `${p.status} on ${p.path} (${p.hits}×)`).join(", ");
  return {
    ...base,
    title: `Fix the errors ${bot.name} is served: ${found.errors} of its ${found.hits} requests in the last 7 days`,
    explanation: `${bot.name} (${operator}), which feeds ${namesOf(engines)}, was answered with an error on ${plural(found.errors, "request")} of ${found.hits} since ${found.since}: ${pages}. A page that answers an error is not read, so it cannot be cited: restore it, or redirect it (301) to where it moved. A 403 or 429 is often a firewall or bot rule turning the AI bot away.`,
    domain: null,
    crawler: {
      bot: bot.name,
      operator,
      robots: null,
      served: { since: found.since, hits: found.hits, errors: found.errors, pages: found.pages },
    },
  };
}

/** The crawler opportunities of the bots that feed an engine in `tracked`; `rows` are the period's answers. */
export function crawlerOpportunities(
  facts: CrawlerFacts,
  tracked: readonly string[],
  rows: AnswerRow[],
): Opportunity[] {
  const fed = (bot: Bot) => bot.engines.filter((e) => tracked.includes(e)).sort();
  return [
    ...facts.blocks.flatMap((block) => {
      const engines = fed(block.bot);
      return engines.length === 0 ? [] : [blocked(block, engines, rows)];
    }),
    ...facts.errors.flatMap((found) => {
      const engines = fed(found.bot);
      return engines.length === 0 ? [] : [erred(found, engines, rows)];
    }),
  ];
}
