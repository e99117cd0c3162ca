import type { Clock } from "../../lib/clock.ts";
import SHIPPED from "./data/bot-ranges.json" with { type: "json" };
import { parsePublished } from "./published-ranges.ts";
import type { RangesFile } from "./ranges.ts";

/**
 * `sightline bots update` (issue 26): the AI bots' ranges fetched again from the addresses their
 * operators publish them at (named in the shipped data/bot-ranges.json), checked, and put together
 * into a file of the shipped file's shape. A source that fails (no network, an error, a list that
 * does not read) is reported with why and keeps the ranges it had; the operators' servers are
 * outside systems, so their failures are values, not exceptions.
 */
interface RangesUpdateContext {
  /** How the sources are asked: the global `fetch` in the CLI. */
  fetch: typeof fetch;
  clock: Clock;
  /** How long one source may take, answer included. */
  timeoutMs: number;
}

/** The shape of data/bot-ranges.json, which `bots update` writes too. */
interface FullRangesFile extends RangesFile {
  note: string;
  as_of: string;
  snapshot: string;
}

export type SourceOutcome = { bot: string; source: string } & (
  | { ok: true; ranges: number; published: string | null }
  | { ok: false; reason: string; kept: number | null }
);

interface RangesUpdate {
  file: FullRangesFile;
  sources: SourceOutcome[];
  refreshed: number;
}

/** The most one source may send: the largest list (Google's) is tens of KB. */
const MAX_BYTES = 4 * 1024 * 1024;

const shipped = SHIPPED as FullRangesFile;

/** A ranges file of either shape (ranges.ts), as bots with their source and ranges. */
function rangesOf(file: unknown): RangesFile["bots"] {
  if (typeof file !== "object" || file === null || Array.isArray(file)) throw new Error("not a JSON object");
  const bots = (file as { bots?: unknown }).bots;
  if (typeof bots === "object" && bots !== null && !Array.isArray(bots)) return bots as RangesFile["bots"];
  // The short shape, `{"GPTBot": ["cidr", …], …}`: a bot's list, or null for none.
  return Object.fromEntries(
    Object.entries(file as Record<string, unknown>).flatMap(([bot, ranges]) =>
      Array.isArray(ranges) || ranges === null
        ? [[bot, { ranges: ranges?.filter((r): r is string => typeof r === "string") ?? null }]]
        : [],
    ),
  );
}

/** Each bot's source: the shipped file's, replaced per bot by `overrides` (a mirror, a test server). */
export function rangeSources(overrides: Record<string, string> = {}): { bot: string; url: string }[] {
  const named = Object.entries(shipped.bots).flatMap(([bot, entry]) =>
    entry.source === undefined ? [] : [{ bot, url: overrides[bot] ?? entry.source }],
  );
  return [...named, ...Object.entries(overrides).flatMap(([bot, url]) => (bot in shipped.bots ? [] : [{ bot, url }]))];
}

/** Why a request failed, in words an operator can act on. */
function failure(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: string }).name;
  if (name === "TimeoutError" || name === "AbortError") return `no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.message ?? cause?.code;
  return `${(error as Error).message}${detail === undefined ? "" : `: ${detail}`}`;
}

/** The body, or null past MAX_BYTES. */
async function boundedText(response: Response): Promise<string | null> {
  if (response.body === null) return "";
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of response.body) {
    size += part.byteLength;
    if (size > MAX_BYTES) return null;
    parts.push(part);
  }
  return Buffer.concat(parts).toString("utf8");
}

async function fetchOne(ctx: RangesUpdateContext, url: string) {
  if (!/^https?:\/\//i.test(url)) return { ok: false as const, reason: "not an http(s) address" };
  try {
    const response = await ctx.fetch(url, {
      signal: AbortSignal.timeout(ctx.timeoutMs),
      headers: { accept: "application/json, text/plain;q=0.9, text/html;q=0.8", "user-agent": "Sightline bots update" },
    });
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false as const, reason: `HTTP ${response.status}` };
    }
    const text = await boundedText(response);
    if (text === null) return { ok: false as const, reason: `larger than ${MAX_BYTES / 1024 / 1024} MB` };
    return parsePublished(text);
  } catch (error) {
    return { ok: false as const, reason: failure(error, ctx.timeoutMs) };
  }
}

/** One line on what was refreshed and what kept, for the file's `snapshot`. */
function snapshotOf(day: string, sources: SourceOutcome[], previousAsOf: string | null): string {
  const fresh = sources.flatMap((s) => (s.ok ? [`${s.bot}${s.published === null ? "" : ` (${s.published})`}`] : []));
  const kept = sources.flatMap((s) => (s.ok ? [] : [`${s.bot} (${s.reason})`]));
  return [
    `Fetched by \`sightline bots update\` on ${day}, each from its source: ${fresh.join(", ")}.`,
    kept.length === 0
      ? ""
      : ` Not refreshed, kept from the previous file${previousAsOf === null ? "" : ` (as of ${previousAsOf})`}: ${kept.join(", ")}.`,
  ].join("");
}

/**
 * Fetches every source at once (each bounded by `timeoutMs`) and answers the new file: fresh ranges
 * where a source answered with a valid list, the previous ones (from `previous`, either shape)
 * elsewhere, and every other bot of `previous` as it was.
 */
export async function updateBotRanges(
  ctx: RangesUpdateContext,
  previous: unknown,
  sources: { bot: string; url: string }[],
): Promise<RangesUpdate> {
  const before = rangesOf(previous);
  const previousAsOf = (previous as { as_of?: unknown }).as_of;
  const fetched = await Promise.all(
    sources.map(async ({ bot, url }) => ({ bot, url, read: await fetchOne(ctx, url) })),
  );
  const bots: RangesFile["bots"] = {};
  const outcomes: SourceOutcome[] = [];
  for (const { bot, url, read } of fetched) {
    if (read.ok) {
      bots[bot] = { source: url, ranges: read.ranges };
      outcomes.push({ bot, source: url, ok: true, ranges: read.ranges.length, published: read.published });
    } else {
      const kept = before[bot]?.ranges ?? null;
      bots[bot] = { source: before[bot]?.source ?? url, ranges: kept };
      outcomes.push({ bot, source: url, ok: false, reason: read.reason, kept: kept === null ? null : kept.length });
    }
  }
  for (const [bot, entry] of Object.entries(before)) if (!(bot in bots)) bots[bot] = entry;
  const day = ctx.clock.now().toISOString().slice(0, 10);
  return {
    file: {
      note: shipped.note,
      as_of: day,
      snapshot: snapshotOf(day, outcomes, typeof previousAsOf === "string" ? previousAsOf : null),
      bots,
    },
    sources: outcomes,
    refreshed: outcomes.filter((outcome) => outcome.ok).length,
  };
}
