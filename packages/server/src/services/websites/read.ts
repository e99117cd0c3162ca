import { type PageFetcher, USER_AGENT } from "./fetcher.ts";
import { type ReadPage, readPage } from "./page.ts";
import { ALLOW_ALL, parseRobots, type RobotsRules } from "./robots.ts";

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
 * is not read), the home page, then its about, pricing and product pages (by their links, or
 * their usual paths), on the same host, each page within the fetcher's limits and the whole
 * within 20 seconds. Only text and metadata are kept (page.ts).
 */
export async function readWebsite(
  fetcher: PageFetcher,
  address: URL,
  now: () => number = Date.now,
): Promise<WebsiteReading> {
  const started = now();
  const visits: Visit[] = [];
  const robotsAt = new URL("/robots.txt", address);
  const robotsAnswer = await fetcher.get(robotsAt.toString());
  let robots: RobotsRules = ALLOW_ALL;
  if (robotsAnswer.ok && robotsAnswer.status === 200 && !isHtml(robotsAnswer.contentType, robotsAnswer.body)) {
    robots = parseRobots(robotsAnswer.body, USER_AGENT);
  } else if (!robotsAnswer.ok && robotsAnswer.reason.startsWith("refused")) {
    visits.push({ url: robotsAt.toString(), ok: false, reason: robotsAnswer.reason });
    return { ok: false, reason: `${address.hostname} cannot be read: ${robotsAnswer.reason}`, visits };
  }

  const read = async (url: URL): Promise<ReadPage | null> => {
    if (!robots.allows(`${url.pathname}${url.search}`)) {
      visits.push({ url: url.toString(), ok: false, reason: "robots.txt asks us not to read it" });
      return null;
    }
    if (now() - started > WEBSITE_BUDGET_MS) {
      visits.push({ url: url.toString(), ok: false, reason: "not read: the time for reading the site ran out" });
      return null;
    }
    const answer = await fetcher.get(url.toString());
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
