import type { EngineName } from "../engines/catalog.ts";

/**
 * Visits referred by an AI engine (issue 26): by the referrer's host, or, where the engine strips
 * the referrer, by the `utm_source` it adds to the links it shows (ChatGPT adds
 * `utm_source=chatgpt.com`). Mapped to Sightline's engines; documented in docs/traffic.md.
 */
const HOSTS: readonly [string, EngineName][] = [
  ["chatgpt.com", "chatgpt"],
  ["chat.openai.com", "chatgpt"],
  ["openai.com", "chatgpt"],
  ["perplexity.ai", "perplexity"],
  ["gemini.google.com", "gemini"],
  ["bard.google.com", "gemini"],
  ["copilot.microsoft.com", "copilot"],
  ["bing.com/chat", "copilot"],
  ["claude.ai", "claude"],
  ["chat.deepseek.com", "deepseek"],
  ["deepseek.com", "deepseek"],
  ["grok.com", "grok"],
  ["x.ai", "grok"],
];

/** `utm_source` values engines use, by name without ".com" / ".ai". */
const UTM_NAMES = new Map<string, EngineName>([
  ["chatgpt", "chatgpt"],
  ["openai", "chatgpt"],
  ["perplexity", "perplexity"],
  ["gemini", "gemini"],
  ["claude", "claude"],
  ["copilot", "copilot"],
  ["deepseek", "deepseek"],
  ["grok", "grok"],
]);

/** The engine a referrer URL or host, or a utm_source value, points at; null when none. */
function engineOfHost(host: string): EngineName | null {
  const value = host.toLowerCase().replace(/^www\./, "");
  for (const [known, engine] of HOSTS) {
    const knownHost = known.split("/")[0] ?? known;
    if (value === knownHost || value.endsWith(`.${knownHost}`)) {
      return known.includes("/") ? null : engine;
    }
  }
  return null;
}

/** The engine that referred a visit, from its referrer and its query string. */
// Only referrers that mention one of these are worth reading as URLs: a line is read once, and
// most referrers are search engines, social sites or the site itself.
const MENTIONS = /chatgpt|openai|perplexity|gemini|bard\.google|copilot|bing\.com|claude|deepseek|grok|x\.ai/i;

/** The host and path of a referrer, read by hand (no URL object per line), or null. */
function hostAndPath(referrer: string): { host: string; path: string } | null {
  const scheme = referrer.indexOf("://");
  const start = scheme >= 0 ? scheme + 3 : 0;
  let end = start;
  while (end < referrer.length && !"/?#".includes(referrer[end] ?? "")) end++;
  const authority = referrer.slice(start, end);
  const host = authority.slice(authority.lastIndexOf("@") + 1).replace(/:\d+$/, "");
  if (!/^[a-z0-9.-]+$/i.test(host)) return null;
  const rest = referrer.slice(end);
  const path = rest.startsWith("/") ? (rest.split(/[?#]/)[0] ?? "/") : "/";
  return { host: host.toLowerCase(), path };
}

// Referrers repeat across lines (the same chat link, the same search page): each is read once.
const seen = new Map<string, EngineName | null>();
const SEEN_MAX = 20_000;

function engineOfReferrer(referrer: string): EngineName | null {
  const known = seen.get(referrer);
  if (known !== undefined) return known;
  const engine = MENTIONS.test(referrer) ? readReferrer(referrer) : null;
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(referrer, engine);
  return engine;
}

export function referringEngine(referrer: string | null, query: string | null): EngineName | null {
  if (referrer !== null && referrer !== "" && referrer !== "-") {
    const engine = engineOfReferrer(referrer);
    if (engine !== null) return engine;
  }
  return query === null ? null : engineOfQuery(query);
}

function readReferrer(referrer: string): EngineName | null {
  const parsed = hostAndPath(referrer);
  if (parsed === null) return null;
  if (/(^|\.)bing\.com$/i.test(parsed.host) && parsed.path.startsWith("/chat")) return "copilot";
  return engineOfHost(parsed.host);
}

function engineOfQuery(query: string): EngineName | null {
  if (query.includes("utm_source=")) {
    for (const part of query.split("&")) {
      if (!part.startsWith("utm_source=")) continue;
      let value = part.slice("utm_source=".length);
      try {
        value = decodeURIComponent(value.replace(/\+/g, " "));
      } catch {
        // a malformed escape: read it as written
      }
      const name = value.trim().toLowerCase();
      const engine = engineOfHost(name) ?? UTM_NAMES.get(name.replace(/\.(?:com|ai)$/, "")) ?? null;
      if (engine !== null) return engine;
    }
  }
  return null;
}
