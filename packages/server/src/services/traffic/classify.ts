import type { EngineName } from "../engines/catalog.ts";
import { botOf } from "./bots.ts";
import type { LogRecord } from "./formats/types.ts";
import type { BotRanges, Verification } from "./ranges.ts";
import { referringEngine } from "./referrers.ts";

/**
 * What one request is to Sightline (issue 26): a hit by an AI bot (with how its address stands
 * against the bot's ranges), a visit referred by an AI engine, or nothing to keep. Privacy by
 * construction: the result holds no address and no user agent, only the bot's name or the engine.
 */
export type Classified =
  | {
      kind: "bot";
      day: string;
      /** The hit's time, epoch milliseconds. */
      at: number;
      host: string;
      path: string;
      status: number;
      bot: string;
      verification: Verification;
    }
  | { kind: "referral"; day: string; host: string; path: string; engine: EngineName }
  | { kind: "ignored" };

/** Pages longer than this are cut: a path is a page, not a place for payloads. */
const MAX_PATH = 512;

/** Whether a host is one of the brand's domains or under one (a log may serve several sites). */
export function ownHost(host: string | null, domains: readonly string[]): boolean {
  if (host === null || host === "" || domains.length === 0) return true;
  const plain = host.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  return domains.some((domain) => plain === domain || plain.endsWith(`.${domain}`));
}

const IGNORED: Classified = { kind: "ignored" };

const DAY_MS = 86_400_000;
const days = new Map<number, string>();

/** The UTC day of a time, formatted once per day seen (a log spans few days, over many lines). */
function dayOf(ms: number): string {
  const index = Math.floor(ms / DAY_MS);
  let day = days.get(index);
  if (day === undefined) {
    day = new Date(index * DAY_MS).toISOString().slice(0, 10);
    if (days.size > 10_000) days.clear();
    days.set(index, day);
  }
  return day;
}

export function classify(record: LogRecord, ranges: BotRanges, domains: readonly string[]): Classified {
  const bot = botOf(record.userAgent);
  const engine = bot === null ? referringEngine(record.referrer, record.query) : null;
  // Most lines are people's visits from elsewhere: decided above, they cost nothing more.
  if (bot === null && engine === null) return IGNORED;
  if (!ownHost(record.host, domains)) return IGNORED;
  const host = (record.host ?? "").toLowerCase().replace(/:\d+$/, "");
  const path = record.path.slice(0, MAX_PATH);
  const at = record.at.getTime();
  const day = dayOf(at);
  if (bot !== null) {
    return {
      kind: "bot",
      day,
      at,
      host,
      path,
      status: record.status ?? 0,
      bot: bot.name,
      verification: ranges.verify(bot.name, record.ip),
    };
  }
  return engine === null ? IGNORED : { kind: "referral", day, host, path, engine };
}
