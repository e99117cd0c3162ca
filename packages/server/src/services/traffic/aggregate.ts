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

export class TrafficAggregate {
  lines = 0;
  botHits = 0;
  referrals = 0;
  ignored = 0;
  rejected = 0;
  readonly reasons = new Map<string, number>();
  readonly #bots = new Map<string, Omit<BotRow, "last_at"> & { last: number }>();
  readonly visits = new Map<string, ReferralRow>();

  /** Counts one line: parsed (then classified), skipped, or rejected. */
  add(parsed: ParsedLine, classify: (parsed: Extract<ParsedLine, { kind: "record" }>) => Classified): void {
    if (parsed.kind === "skip") return;
    this.lines++;
    if (parsed.kind === "rejected") {
      this.rejected++;
      if (this.reasons.has(parsed.reason) || this.reasons.size < REASONS) {
        this.reasons.set(parsed.reason, (this.reasons.get(parsed.reason) ?? 0) + 1);
      }
      return;
    }
    const found = classify(parsed);
    if (found.kind === "bot") {
      this.botHits++;
      const key = `${found.day}\u0000${found.host}\u0000${found.path}\u0000${found.bot}\u0000${found.verification}\u0000${found.status}`;
      const row = this.#bots.get(key);
      if (row === undefined) {
        this.#bots.set(key, {
          day: found.day,
          host: found.host,
          path: found.path,
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
      const key = `${found.day}\u0000${found.host}\u0000${found.path}\u0000${found.engine}`;
      const row = this.visits.get(key);
      if (row === undefined) {
        this.visits.set(key, { day: found.day, host: found.host, path: found.path, engine: found.engine, visits: 1 });
      } else row.visits++;
    } else this.ignored++;
  }

  /** The bot rows, with the last hit's time as ISO 8601. */
  botRows(): BotRow[] {
    return [...this.#bots.values()].map(({ last, ...row }) => ({ ...row, last_at: new Date(last).toISOString() }));
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
