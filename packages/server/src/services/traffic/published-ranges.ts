import { isIP } from "node:net";

/**
 * Reads an operator's published list of its crawler's addresses (issue 26, `sightline bots
 * update`). The shapes the sources in data/bot-ranges.json use:
 * - Google's JSON, which OpenAI, Perplexity, Bing and Apple publish too:
 *   `{"creationTime": "…", "prefixes": [{"ipv4Prefix": "…"}, {"ipv6Prefix": "…"}]}`;
 * - a JSON array of CIDRs;
 * - a web page or plain text listing addresses (DuckDuckGo's help page lists DuckAssistBot's, one
 *   bare address an item), read for the addresses in its text.
 * Every range is checked: a list with one bad range is refused whole, since a partial list would
 * call the missing addresses' hits spoofed.
 */
type Published = { ok: true; ranges: string[]; published: string | null } | { ok: false; reason: string };

/**
 * The broadest prefix accepted. A /0 (or anything near it) would verify every address claiming
 * the bot: a source that served one is broken or compromised, not a crawler's list.
 */
const BROADEST: Record<number, number> = { 4: 8, 6: 16 };

/** `address/bits` with a real address and a prefix length its family allows, or null. */
export function validCidr(text: string): string | null {
  const match = /^([0-9A-Fa-f:.]+)\/(\d{1,3})$/.exec(text.trim());
  if (match === null) return null;
  const [, address = "", bitsText = ""] = match;
  const family = isIP(address);
  const bits = Number(bitsText);
  if (family === 0 || bits > (family === 4 ? 32 : 128) || bits < (BROADEST[family] ?? 0)) return null;
  return `${address}/${bits}`;
}

const refused = (reason: string): Published => ({ ok: false, reason });

/** The ranges of a JSON answer, or why it is not one of the shapes above. */
function fromJson(json: unknown): Published {
  const entries: unknown[] | null = Array.isArray(json)
    ? json
    : typeof json === "object" && json !== null && Array.isArray((json as { prefixes?: unknown }).prefixes)
      ? (json as { prefixes: unknown[] }).prefixes
      : null;
  if (entries === null) return refused('not a list of ranges (expected {"prefixes": [{"ipv4Prefix": …}, …]})');
  const ranges: string[] = [];
  for (const [index, entry] of entries.entries()) {
    const prefix = (entry as { ipv4Prefix?: unknown; ipv6Prefix?: unknown } | null) ?? {};
    const value = typeof entry === "string" ? entry : (prefix.ipv4Prefix ?? prefix.ipv6Prefix);
    const cidr = typeof value === "string" ? validCidr(value) : null;
    if (cidr === null) return refused(`entry ${index + 1} is not a valid range (${JSON.stringify(value ?? entry)})`);
    ranges.push(cidr);
  }
  const creationTime = (json as { creationTime?: unknown }).creationTime;
  return { ok: true, ranges, published: typeof creationTime === "string" ? creationTime : null };
}

/** The addresses and ranges written in a page's text (scripts, styles and tags left out). */
function fromText(body: string): Published {
  const text = body
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&[#a-z0-9]+;/gi, " ");
  const ranges: string[] = [];
  for (const raw of text.split(/[\s,;()[\]"'|]+/)) {
    const token = raw.replace(/\.+$/, "");
    const family = isIP(token);
    const cidr = family === 0 ? validCidr(token) : `${token}/${family === 4 ? 32 : 128}`;
    // "::" and "0.0.0.0" name no crawler (and "::" turns up in prose and code).
    if (cidr !== null && !/^(::|0\.0\.0\.0)\//.test(cidr)) ranges.push(cidr);
  }
  return ranges.length === 0
    ? refused("no address in the page")
    : { ok: true, ranges: [...new Set(ranges)], published: null };
}

/** The ranges in an operator's answer, in any of the shapes above. */
export function parsePublished(body: string): Published {
  const trimmed = body.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (error) {
      // A cut download must not be read as a shorter list.
      return refused(`invalid JSON (${(error as Error).message})`);
    }
    const read = fromJson(json);
    if (read.ok && read.ranges.length === 0) return refused("the list is empty");
    return read.ok ? { ...read, ranges: [...new Set(read.ranges)] } : read;
  }
  return fromText(body);
}
