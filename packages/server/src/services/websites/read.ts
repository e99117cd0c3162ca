import { OUT_OF_TIME, type PageFetcher, USER_AGENT } from "./fetcher.ts";
import { type ReadPage, readPage } from "./page.ts";
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, type RobotsRules } from "./robots.ts";

/** The pages read besides the home page, found by their links (or their usual paths), in this order. */
const KINDS: readonly { kind: string; link: RegExp; guess: string }[] = [
  { kind: "about", link: /\/(about|company|who-we-are|our-story)(\/|$)/i, guess: "/about" },
  { kind: "pricing", link: /\/(pricing|plans|prices)(\/|$)/i, guess: "/pricing" },
  { kind: "product", link: /\/(product|products|features|platform|solutions?)(\/|$)/i, guess: "/features" },
];

/** At most this long for the whole reading, whatever each page takes. */
export const WEBSITE_BUDGET_MS = 20_000;

interface Visit {
  url: string;
  ok: boolean;
  /** Why a page was not read: refused, robots.txt, an error status, not HTML… */
  reason?: string;
}

export type WebsiteReading =
  | { ok: true; pages: ReadPage[]; visits: Visit[] }
  | { ok: false; reason: string; visits: Visit[] };

/** `acme.com`, `https://acme.com/`, `http://www.acme.com/en` → an absolute URL; null when it is not an address. */
export function websiteAddress(input: string): URL | null {
  const trimmed = input.trim();
  if (trimmed === "" || /\s/.test(trimmed)) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.hostname.includes(".") || url.hostname.startsWith("[") ? url : null;
  } catch {
    return null;
  }
}

function isHtml(contentType: string, body: string): boolean {
  return /html/i.test(contentType) || (contentType === "" && /^\s*<(!doctype html|html)/i.test(body));
}

/**
 * Reads a brand's website as a person would skim it: robots.txt first (a site that disallows us
 * is not read, nor one whose robots.txt fails with a 5xx: RFC 9309 §2.3.1.4), the home page, then
 * its about, pricing and product pages (by their links, or their usual paths), on the same host,
 * each page within the fetcher's limits and all of it, robots.txt included, by `deadline` (a
 * `Date.now()` time; 20 seconds from now unless the caller's reading started earlier).
 * Only text and metadata are kept (page.ts).
 */
export async function readWebsite(
  fetcher: PageFetcher,
  address: URL,
  deadline: number = Date.now() + WEBSITE_BUDGET_MS,
): Promise<WebsiteReading> {
  const visits: Visit[] = [];
  const robotsAt = new URL("/robots.txt", address);
  const robotsAnswer = await fetcher.get(robotsAt.toString(), deadline);
  let robots: RobotsRules = ALLOW_ALL;
  let disallowed = "robots.txt asks us not to read it";
  if (robotsAnswer.ok && robotsAnswer.status === 200 && !isHtml(robotsAnswer.contentType, robotsAnswer.body)) {
    robots = parseRobots(robotsAnswer.body, USER_AGENT);
  } else if (robotsAnswer.ok && robotsAnswer.status >= 500) {
    // A server error on robots.txt means "read nothing for now", not "no rules" (RFC 9309 §2.3.1.4).
    robots = DISALLOW_ALL;
    disallowed = `not read: its robots.txt answered ${robotsAnswer.status}, which asks crawlers to read nothing for now`;
  } else if (!robotsAnswer.ok && robotsAnswer.reason.startsWith("refused")) {
    visits.push({ url: robotsAt.toString(), ok: false, reason: robotsAnswer.reason });
    return { ok: false, reason: `${address.hostname} cannot be read: ${robotsAnswer.reason}`, visits };
  }

  const read = async (url: URL): Promise<ReadPage | null> => {
    if (!robots.allows(`${url.pathname}${url.search}`)) {
      visits.push({ url: url.toString(), ok: false, reason: disallowed });
      return null;
    }
    if (Date.now() >= deadline) {
      visits.push({ url: url.toString(), ok: false, reason: OUT_OF_TIME });
      return null;
    }
    const answer = await fetcher.get(url.toString(), deadline);
    if (!answer.ok) {
      visits.push({ url: url.toString(), ok: false, reason: answer.reason });
      return null;
    }
    if (answer.status >= 400) {
      visits.push({ url: answer.url, ok: false, reason: `the site answered ${answer.status}` });
      return null;
    }
    if (!isHtml(answer.contentType, answer.body)) {
      visits.push({ url: answer.url, ok: false, reason: `not a web page (${answer.contentType || "no type"})` });
      return null;
    }
    visits.push({ url: answer.url, ok: true });
    return readPage(answer.url, answer.body);
  };

  const home = await read(address);
  if (home === null) {
    const last = visits.at(-1);
    return { ok: false, reason: `${address.hostname} could not be read: ${last?.reason ?? "no answer"}`, visits };
  }
  const origin = new URL(home.url);
  const links = home.links.flatMap((link) => {
    try {
      const url = new URL(link.href, origin);
      return url.hostname === origin.hostname ? [url] : [];
    } catch {
      return [];
    }
  });
  const pages = [home];
  const seen = new Set([origin.pathname]);
  for (const { link, guess } of KINDS) {
    const found = links.find((url) => link.test(url.pathname) && !seen.has(url.pathname)) ?? new URL(guess, origin);
    if (seen.has(found.pathname)) continue;
    seen.add(found.pathname);
    found.hash = "";
    const page = await read(found);
    if (page !== null) pages.push(page);
  }
  return { ok: true, pages, visits };
}

/**
 * Reads the website as the person typed it: an address typed without a scheme ("acme.com") is
 * tried over HTTPS first, then over plain HTTP when HTTPS could not be used at all (not when the
 * site was refused or disallowed us). Both tries share one `deadline`: the budget holds in all.
 */
export async function readTypedWebsite(
  fetcher: PageFetcher,
  typed: string,
  address: URL,
  deadline: number = Date.now() + WEBSITE_BUDGET_MS,
): Promise<WebsiteReading> {
  const reading = await readWebsite(fetcher, address, deadline);
  const typedScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed.trim());
  if (reading.ok || typedScheme || address.protocol !== "https:" || reading.reason.includes("refused:")) {
    return reading;
  }
  if (Date.now() >= deadline) return reading;
  const plain = new URL(address);
  plain.protocol = "http:";
  const again = await readWebsite(fetcher, plain, deadline);
  return again.ok ? again : reading;
}
