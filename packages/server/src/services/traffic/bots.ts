import type { EngineName } from "../engines/catalog.ts";

/**
 * The AI crawlers and fetchers Sightline counts (issue 26), how each names itself in its user
 * agent, who runs it, and which of Sightline's engines it feeds: a crawl by OAI-SearchBot is a page
 * ChatGPT can cite. The engine ↔ crawler mapping is data here, documented in docs/traffic.md.
 * Ranges to verify a claimed bot by its address are in data/bot-ranges.json (ranges.ts).
 */
export interface Bot {
  name: string;
  operator: string;
  /** A case-insensitive token of the user agent that names the bot. */
  token: string;
  /** fetch: asked by a person in a chat right now; search: indexes for the engine's answers; training: model data. */
  purpose: "search" | "fetch" | "training" | "index";
  engines: readonly EngineName[];
}

// More specific tokens first: "Claude-SearchBot" and "Claude-User" before "ClaudeBot" would not
// matter (they differ), but "ChatGPT-User" must not be read as "GPTBot" and it is not a substring.
export const BOTS: readonly Bot[] = [
  {
    name: "OAI-SearchBot",
    operator: "OpenAI",
    token: "oai-searchbot",
    purpose: "search",
    engines: ["chatgpt", "chatgpt_web"],
  },
  {
    name: "ChatGPT-User",
    operator: "OpenAI",
    token: "chatgpt-user",
    purpose: "fetch",
    engines: ["chatgpt", "chatgpt_web"],
  },
  { name: "GPTBot", operator: "OpenAI", token: "gptbot", purpose: "training", engines: ["chatgpt", "chatgpt_web"] },
  {
    name: "Claude-SearchBot",
    operator: "Anthropic",
    token: "claude-searchbot",
    purpose: "search",
    engines: ["claude"],
  },
  { name: "Claude-User", operator: "Anthropic", token: "claude-user", purpose: "fetch", engines: ["claude"] },
  { name: "ClaudeBot", operator: "Anthropic", token: "claudebot", purpose: "training", engines: ["claude"] },
  {
    name: "Perplexity-User",
    operator: "Perplexity",
    token: "perplexity-user",
    purpose: "fetch",
    engines: ["perplexity", "perplexity_web"],
  },
  {
    name: "PerplexityBot",
    operator: "Perplexity",
    token: "perplexitybot",
    purpose: "search",
    engines: ["perplexity", "perplexity_web"],
  },
  {
    name: "Googlebot",
    operator: "Google",
    token: "googlebot",
    purpose: "index",
    engines: ["gemini", "gemini_web", "google_ai_overview", "google_ai_mode"],
  },
  { name: "Bingbot", operator: "Microsoft", token: "bingbot", purpose: "index", engines: ["copilot"] },
  { name: "Applebot", operator: "Apple", token: "applebot", purpose: "index", engines: [] },
  { name: "Amazonbot", operator: "Amazon", token: "amazonbot", purpose: "index", engines: [] },
  { name: "Meta-ExternalAgent", operator: "Meta", token: "meta-externalagent", purpose: "training", engines: [] },
  { name: "Meta-ExternalFetcher", operator: "Meta", token: "meta-externalfetcher", purpose: "fetch", engines: [] },
  { name: "Bytespider", operator: "ByteDance", token: "bytespider", purpose: "training", engines: [] },
  { name: "CCBot", operator: "Common Crawl", token: "ccbot", purpose: "training", engines: [] },
  { name: "DuckAssistBot", operator: "DuckDuckGo", token: "duckassistbot", purpose: "fetch", engines: [] },
  { name: "MistralAI-User", operator: "Mistral AI", token: "mistralai-user", purpose: "fetch", engines: [] },
];

const BY_TOKEN = new Map(BOTS.map((bot) => [bot.token, bot]));
// One case-insensitive pass over the agent, the specific tokens first (a line is read once, and
// most lines are people's: they must cost one failed match, not eighteen searches).
const TOKENS = new RegExp(BOTS.map((bot) => bot.token.replace(/[-]/g, "\\-")).join("|"), "i");

// A log repeats a few thousand user agents over millions of lines: each is read once.
const seen = new Map<string, Bot | null>();
const SEEN_MAX = 20_000;

/** The bot a user agent names, or null. */
export function botOf(userAgent: string | null): Bot | null {
  if (userAgent === null || userAgent === "") return null;
  const known = seen.get(userAgent);
  if (known !== undefined) return known;
  const found = TOKENS.exec(userAgent);
  const bot = found === null ? null : (BY_TOKEN.get(found[0].toLowerCase()) ?? null);
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(userAgent, bot);
  return bot;
}
