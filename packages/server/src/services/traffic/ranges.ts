import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { BOTS } from "./bots.ts";
// Bundled with the server (esbuild inlines it), so the built server needs no file beside it.
import SHIPPED from "./data/bot-ranges.json" with { type: "json" };

/**
 * Whether a claimed bot's address is in its operator's published ranges (issue 26). The ranges
 * ship as a dated data file (data/bot-ranges.json, with each list's source); SIGHTLINE_BOT_RANGES_FILE
 * replaces it with a file of the same shape, or of the short shape `{"GPTBot": ["cidr", …], …}`.
 * A bot without ranges in the file is `unverifiable`; one whose address is outside them, `spoofed`.
 */
export type Verification = "verified" | "spoofed" | "unverifiable";

interface Block {
  /** 4 or 6. */
  family: number;
  /** The network's first address, as a bigint over 32 or 128 bits. */
  start: bigint;
  bits: number;
}

export interface RangesFile {
  as_of?: string;
  bots: Record<string, { source?: string; ranges: string[] | null }>;
}

/** An address as a bigint with its family, or null when it is not one. */
function addressValue(address: string): { family: number; value: bigint } | null {
  const plain = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const family = isIP(plain);
  if (family === 4) {
    const parts = plain.split(".").map(Number);
    return { family, value: parts.reduce((acc, part) => (acc << 8n) | BigInt(part), 0n) };
  }
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
    if (mapped?.[1] !== undefined) return addressValue(mapped[1]);
    const [head = "", tail = ""] = plain.split("::");
    const left = head === "" ? [] : head.split(":");
    const right = plain.includes("::") ? (tail === "" ? [] : tail.split(":")) : [];
    const groups = plain.includes("::")
      ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
      : left;
    return { family, value: groups.reduce((acc, group) => (acc << 16n) | BigInt(Number.parseInt(group, 16)), 0n) };
  }
  return null;
}

function parseBlock(cidr: string): Block | null {
  const [address = "", bitsText] = cidr.trim().split("/");
  const parsed = addressValue(address);
  if (parsed === null) return null;
  const width = parsed.family === 4 ? 32 : 128;
  const bits = bitsText === undefined ? width : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > width) return null;
  const shift = BigInt(width - bits);
  return { family: parsed.family, start: (parsed.value >> shift) << shift, bits };
}

function inside(block: Block, family: number, value: bigint): boolean {
  if (block.family !== family) return false;
  const shift = BigInt((family === 4 ? 32 : 128) - block.bits);
  return value >> shift === block.start >> shift;
}

/** The ranges of every bot, read once from the shipped file or the one SIGHTLINE_BOT_RANGES_FILE names. */
export class BotRanges {
  readonly asOf: string | null;
  readonly #blocks = new Map<string, Block[] | null>();

  constructor(file: RangesFile | Record<string, string[] | null>) {
    const bots: Record<string, { ranges: string[] | null }> =
      "bots" in file && typeof file.bots === "object" && file.bots !== null && !Array.isArray(file.bots)
        ? (file as RangesFile).bots
        : Object.fromEntries(
            Object.entries(file as Record<string, string[] | null>).map(([k, v]) => [k, { ranges: v }]),
          );
    this.asOf = "as_of" in file && typeof file.as_of === "string" ? file.as_of : null;
    for (const bot of BOTS) {
      const ranges = bots[bot.name]?.ranges ?? null;
      this.#blocks.set(
        bot.name,
        ranges === null ? null : ranges.map(parseBlock).filter((block): block is Block => block !== null),
      );
    }
  }

  /** The ranges in `path`, or the ones shipped with Sightline. */
  static load(path?: string): BotRanges {
    if (path === undefined) return new BotRanges(SHIPPED as RangesFile);
    return new BotRanges(JSON.parse(readFileSync(path, "utf8")) as RangesFile);
  }

  /** How a request that names `bot` from `address` stands against the bot's published ranges. */
  verify(bot: string, address: string | null): Verification {
    const blocks = this.#blocks.get(bot) ?? null;
    if (blocks === null || blocks.length === 0) return "unverifiable";
    const parsed = address === null ? null : addressValue(address);
    if (parsed === null) return "spoofed";
    return blocks.some((block) => inside(block, parsed.family, parsed.value)) ? "verified" : "spoofed";
  }
}
