import type { EngineName } from "../engines/catalog.ts";
import type { Classified } from "./classify.ts";
import type { ParsedLine } from "./formats/types.ts";
import type { Verification } from "./ranges.ts";

/**
 * What an import adds up to, kept in memory by key rather than by line, so that a file of any
 * length costs as much memory as it has distinct (day, page, bot, status) rows (issue 26).
 */
export interface BotRow {
  day: string;
  host: string;
  path: string;
  bot: string;
  verification: Verification;
  status: number;
  hits: number;
  last_at: string;
}

export interface ReferralRow {
  day: string;
  host: string;
  path: string;
  engine: EngineName;
  visits: number;
}

/** How many first reasons a rejection report lists. */
const REASONS = 5;

/**
 * A copy of `text` that holds on to nothing else. V8 keeps a substring of a longer string as a
 * view into it: a page's path sliced from a line (and a key built from it) keeps the whole line
 * alive for as long as its row is kept, and when lines were themselves slices of the 64 KB chunk
 * they were read from, the whole chunk: new rows turn up all along a log (new days, new pages), so
 * most of the file stayed in memory (a 1 GB log peaked at 2.7 GB of RSS; scripts/traffic-rss.ts).
 * Called once per new row, not per line.
 */
/** A bot row's identity: its day, host, page, bot, verification and status. */
export const botKey = (row: Pick<BotRow, "day" | "host" | "path" | "bot" | "verification" | "status">): string =>
  `${row.day}\u0000${row.host}\u0000${row.path}\u0000${row.bot}\u0000${row.verification}\u0000${row.status}`;

/** A referral row's identity: its day, host, page and engine. */
export const visitKey = (row: Pick<ReferralRow, "day" | "host" | "path" | "engine">): string =>
  `${row.day}\u0000${row.host}\u0000${row.path}\u0000${row.engine}`;

const detached = (text: string): string => JSON.parse(JSON.stringify(text)) as string;

export class TrafficAggregate {
  lines = 0;
  botHits = 0;
  referrals = 0;
  ignored = 0;
  rejected = 0;
  readonly reasons = new Map<string, number>();
  readonly #bots = new Map<string, Omit<BotRow, "last_at"> & { last: number }>();
  readonly #visits = new Map<string, ReferralRow>();

  /** The distinct rows held: what an import's memory grows with. */
  get rows(): number {
    return this.#bots.size + this.#visits.size;
  }

  /** Forgets the rows (once written out elsewhere); the counts of lines stay. */
  clearRows(): void {
    this.#bots.clear();
    this.#visits.clear();
  }

  /** Counts one line: parsed (then classified), skipped, or rejected. */
  add(parsed: ParsedLine, classify: (parsed: Extract<ParsedLine, { kind: "record" }>) => Classified): void {
    if (parsed.kind === "skip") return;
    this.lines++;
    if (parsed.kind === "rejected") {
      this.#reject(parsed.reason);
      return;
    }
    // A NUL (raw, or escaped in a JSON log) is in no real page or host, and no database stores it.
    if (parsed.record.path.includes("\u0000") || parsed.record.host?.includes("\u0000") === true) {
      this.#reject("holds a NUL character in its host or path");
      return;
    }
    const found = classify(parsed);
    if (found.kind === "bot") {
      this.botHits++;
      const key = botKey(found);
      const row = this.#bots.get(key);
      if (row === undefined) {
        this.#bots.set(detached(key), {
          day: found.day,
          host: detached(found.host),
          path: detached(found.path),
          bot: found.bot,
          verification: found.verification,
          status: found.status,
          hits: 1,
          last: found.at,
        });
      } else {
        row.hits++;
        if (found.at > row.last) row.last = found.at;
      }
    } else if (found.kind === "referral") {
      this.referrals++;
      const key = visitKey(found);
      const row = this.#visits.get(key);
      if (row === undefined) {
        this.#visits.set(detached(key), {
          day: found.day,
          host: detached(found.host),
          path: detached(found.path),
          engine: found.engine,
          visits: 1,
        });
      } else row.visits++;
    } else this.ignored++;
  }

  #reject(reason: string): void {
    this.rejected++;
    if (this.reasons.has(reason) || this.reasons.size < REASONS)
      this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + 1);
  }

  /**
   * The bot rows in chunks of `size`, with the last hit's time as ISO 8601: made as they are
   * written, so that writing half a million rows does not first copy them all.
   */
  *botChunks(size: number): Generator<BotRow[]> {
    let chunk: BotRow[] = [];
    for (const { last, ...row } of this.#bots.values()) {
      chunk.push({ ...row, last_at: new Date(last).toISOString() });
      if (chunk.length === size) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk;
  }

  /** The referral rows in chunks of `size`. */
  *visitChunks(size: number): Generator<ReferralRow[]> {
    let chunk: ReferralRow[] = [];
    for (const row of this.#visits.values()) {
      chunk.push(row);
      if (chunk.length === size) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk;
  }

  /** The counts an import answers with. */
  summary() {
    return {
      lines: this.lines,
      bot_hits: this.botHits,
      referrals: this.referrals,
      ignored: this.ignored,
      rejected: this.rejected,
      reasons: [...this.reasons.entries()].map(([reason, count]) => ({ reason, count })),
    };
  }
}
