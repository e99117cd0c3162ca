import type { Static } from "typebox";
import { OUT_OF_TIME, type PageFetcher, type PageResult, USER_AGENT } from "../websites/fetcher.ts";
import { readRobotsFile } from "../websites/robots.ts";
import { BOTS } from "./bots.ts";
import type { StoredAccessVerdictsSchema } from "./schemas.ts";

/**
 * One domain as the AI bots find it (issue 26): its robots.txt read for each bot, RFC 9309's way,
 * and whether it has an llms.txt. Read over HTTPS, or over plain HTTP when HTTPS cannot be used at
 * all, through a PageFetcher (websites/fetcher.ts: the outbound address rules, size, time and
 * redirect limits). What a bot does with a robots.txt's status:
 * - 2xx: its rules (a web page served instead, as single-page sites do, holds none: everything allowed);
 * - 4xx: "unavailable", everything allowed (§2.3.1.3);
 * - 5xx: "unreachable", everything disallowed (§2.3.1.4).
 * When Sightline itself cannot reach the site the verdicts are `unknown`: a failure from here says
 * nothing certain of what the bots see from theirs.
 */
type StoredVerdicts = Static<typeof StoredAccessVerdictsSchema>;
type BotVerdict = StoredVerdicts["bots"][number];

export interface DomainCheck {
  robotsStatus: number | null;
  llmsStatus: number | null;
  error: string | null;
  verdicts: StoredVerdicts;
}

function isHtml(contentType: string, body: string): boolean {
  return /html/i.test(contentType) || (contentType === "" && /^\s*<(!doctype html|html)/i.test(body));
}

const everyBot = (verdict: BotVerdict["verdict"], reason: string): BotVerdict[] =>
  BOTS.map((bot) => ({ bot: bot.name, verdict, reason, group: null, rule: null }));

const nothingRead = (robotsUrl: string | null, error: string): StoredVerdicts => ({
  robots_url: robotsUrl,
  robots_found: false,
  llms_url: null,
  llms_present: false,
  bots: everyBot("unknown", error),
});

/** Each bot's verdict from a robots.txt's text. */
export function verdictsOf(text: string): BotVerdict[] {
  const file = readRobotsFile(text);
  return BOTS.map((bot) => {
    const rules = file.forAgent(bot.name);
    const { verdict, rule } = rules.verdict();
    const group = rules.group?.agent ?? null;
    const where = group === null ? "" : ` in the group for ${group}`;
    const at = rule === null ? "" : `${rule.text} (line ${rule.line})${where}`;
    const reason =
      group === null
        ? "robots.txt has no group for it or for *: every page is allowed"
        : verdict === "blocked"
          ? `${at} blocks every page`
          : verdict === "partial"
            ? `Some pages are blocked: ${at}${rules.rules.filter((r) => !r.allow).length > 1 ? ", and more" : ""}`
            : rule === null
              ? `No rule of the group for ${group} blocks it`
              : `${at} allows the site`;
    return { bot: bot.name, verdict, reason, group, rule: rule === null ? null : { line: rule.line, text: rule.text } };
  });
}

/** robots.txt over HTTPS, then plain HTTP when HTTPS could not be used at all (not when refused). */
async function fetchRobots(fetcher: PageFetcher, domain: string, deadline: number): Promise<PageResult> {
  const secure = await fetcher.get(`https://${domain}/robots.txt`, deadline);
  if (secure.ok || secure.reason.startsWith("refused") || secure.reason === OUT_OF_TIME) return secure;
  const plain = await fetcher.get(`http://${domain}/robots.txt`, deadline);
  return plain.ok ? plain : secure;
}

export async function checkDomain(fetcher: PageFetcher, domain: string, deadline: number): Promise<DomainCheck> {
  if (Date.now() >= deadline) {
    return {
      robotsStatus: null,
      llmsStatus: null,
      error: OUT_OF_TIME,
      verdicts: nothingRead(null, OUT_OF_TIME),
    };
  }
  const robots = await fetchRobots(fetcher, domain, deadline);
  if (!robots.ok) {
    const error = `robots.txt could not be read: ${robots.reason}`;
    return {
      robotsStatus: null,
      llmsStatus: null,
      error,
      verdicts: nothingRead(robots.url, error),
    };
  }
  const status = robots.status;
  const found = status >= 200 && status < 300 && !isHtml(robots.contentType, robots.body);
  let bots: BotVerdict[];
  // What Sightline itself may read next: llms.txt is asked for only where robots.txt lets us.
  let mayReadLlms = true;
  if (found) {
    bots = verdictsOf(robots.body);
    mayReadLlms = readRobotsFile(robots.body).forAgent(USER_AGENT).allows("/llms.txt");
  } else if (status >= 200 && status < 300) {
    bots = everyBot("allowed", "robots.txt is a web page, not rules: every page is allowed");
  } else if (status >= 500) {
    bots = everyBot(
      "blocked",
      `robots.txt answered ${status}: while it does, crawlers must assume every page is disallowed (RFC 9309 §2.3.1.4)`,
    );
    mayReadLlms = false;
  } else {
    bots = everyBot("allowed", `robots.txt answered ${status}: there are no rules, every page is allowed`);
  }

  let llms: PageResult | null = null;
  if (mayReadLlms && Date.now() < deadline) {
    llms = await fetcher.get(new URL("/llms.txt", robots.url).toString(), deadline);
  }
  const llmsRead = llms?.ok === true ? llms : null;
  return {
    robotsStatus: status,
    llmsStatus: llmsRead?.status ?? null,
    error: null,
    verdicts: {
      robots_url: robots.url,
      robots_found: found,
      llms_url: llms?.url ?? null,
      llms_present:
        llmsRead !== null &&
        llmsRead.status >= 200 &&
        llmsRead.status < 300 &&
        !isHtml(llmsRead.contentType, llmsRead.body),
      bots,
    },
  };
}
