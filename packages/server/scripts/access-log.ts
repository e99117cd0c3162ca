import { closeSync, openSync, writeSync } from "node:fs";
import SHIPPED from "../src/services/traffic/data/bot-ranges.json" with { type: "json" };
import type { RangesFile } from "../src/services/traffic/ranges.ts";

/**
 * A generated combined-format access log for scripts/traffic-rss.ts (issue 26): one site's traffic
 * over a period, in time order, with a fixed seed. About nine lines in ten are people's, from
 * documentation addresses only (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24), with thousands of
 * distinct browser builds and referrers, about 3% of them referred by chatgpt.com and other
 * engines; the rest are AI bots, the verifiable ones from addresses inside their shipped ranges
 * (one GPTBot hit in ten spoofed, from a documentation address).
 */
const START = Date.UTC(2026, 9, 1);

/** A fixed-seed generator (mulberry32), so that every run writes the same logs. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HUMAN_AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.BUILD Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.BUILD Mobile Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
];
const REFERRERS: [number, string][] = [
  [0.45, "-"],
  [0.28, "https://www.google.com/"],
  [0.1, "INTERNAL"],
  [0.05, "https://www.bing.com/"],
  [0.015, "https://chatgpt.com/"],
  [0.005, "https://www.perplexity.ai/search/abc"],
  [0.003, "https://gemini.google.com/"],
  [0.002, "https://claude.ai/"],
  [0.05, "https://news.ycombinator.com/"],
];

/** An address inside one of `bot`'s shipped IPv4 ranges, picked by `r`. */
export function addressIn(bot: string, r: () => number): string {
  const ranges = ((SHIPPED as RangesFile).bots[bot]?.ranges ?? []).filter((cidr) => !cidr.includes(":"));
  const cidr = ranges[Math.floor(r() * ranges.length)] ?? "192.0.2.0/24";
  const [base = "", bits = "32"] = cidr.split("/");
  const start = base.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
  const host = start + Math.floor(r() * 2 ** (32 - Number(bits)));
  return [24, 16, 8, 0].map((shift) => Math.floor(host / 2 ** shift) % 256).join(".");
}

const docAddress = (r: () => number) =>
  `${["192.0.2", "198.51.100", "203.0.113"][Math.floor(r() * 3)]}.${1 + Math.floor(r() * 254)}`;

/** Pages by popularity: a few are read far more than the rest (a Zipf-like draw). */
const page = (r: () => number, pages: number) => {
  const n = Math.floor(pages ** r()) - 1;
  return n < 20 ? ["/", "/pricing", "/docs", "/blog", "/about"][n % 5] : `/docs/${n % 17}/page-${n}`;
};

/** Each bot's share of all lines, its user agent, and where its requests come from. */
const BOTS: [number, { agent: string; ip: (r: () => number) => string }][] = (
  [
    [
      0.025,
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
      (r) => (r() < 0.9 ? addressIn("GPTBot", r) : docAddress(r)),
    ],
    [
      0.02,
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
      (r) => addressIn("OAI-SearchBot", r),
    ],
    [
      0.015,
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
      (r) => addressIn("ChatGPT-User", r),
    ],
    [
      0.01,
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
      (r) => addressIn("PerplexityBot", r),
    ],
    [
      0.012,
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
      docAddress,
    ],
    [0.012, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", docAddress],
    [0.004, "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", docAddress],
    [
      0.004,
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
      (r) => addressIn("Applebot", r),
    ],
  ] as [number, string, (r: () => number) => string][]
).map(([share, agent, ip]) => [share, { agent, ip }]);

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");
function clfTime(ms: number): string {
  const d = new Date(ms);
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

function pick<T>(table: [number, T][], r: () => number, otherwise: T): T {
  let x = r();
  for (const [p, value] of table) {
    if (x < p) return value;
    x -= p;
  }
  return otherwise;
}

/** Writes a combined-format log of about `bytes` over `days` days of a site of `pages` pages; answers its line count. */
export function writeLog(path: string, bytes: number, { days, pages }: { days: number; pages: number }): number {
  const r = random(26);
  const fd = openSync(path, "w");
  // About 230 bytes a line: the line count fixes the time step, so that the log spans `days` days.
  const expected = Math.round(bytes / 230);
  const step = (days * 86_400_000) / expected;
  let written = 0;
  let lines = 0;
  try {
    while (written < bytes) {
      const batch: string[] = [];
      let batchBytes = 0;
      for (let i = 0; i < 20_000 && written + batchBytes < bytes; i++, lines++) {
        const time = clfTime(START + Math.min(lines, expected - 1) * step);
        const status = pick(
          [
            [0.86, 200],
            [0.07, 304],
            [0.04, 404],
            [0.02, 301],
          ],
          r,
          500,
        );
        const size = 200 + Math.floor(r() * 40_000);
        const bot = pick(BOTS, r, null);
        if (bot !== null) {
          const path = bot.agent.includes("ChatGPT-User")
            ? page(r, pages)
            : `/docs/${Math.floor(r() * pages) % 17}/page-${Math.floor(r() * pages)}`;
          const line = `${bot.ip(r)} - - [${time}] "GET ${path} HTTP/1.1" ${status} ${size} "-" "${bot.agent}"`;
          batch.push(line);
          batchBytes += line.length + 1;
          continue;
        }
        // Browsers' builds and the site's own pages make thousands of distinct agents and referrers.
        const agent = (HUMAN_AGENTS[Math.floor(r() * HUMAN_AGENTS.length)] ?? "").replace(
          "BUILD",
          `${6778 + Math.floor(r() * 40)}.${Math.floor(r() * 200)}`,
        );
        const referred = pick(REFERRERS, r, "-");
        const referrer = referred === "INTERNAL" ? `https://acme.example${page(r, pages)}` : referred;
        const query = r() < 0.15 ? `?q=${Math.floor(r() * 100_000)}` : r() < 0.005 ? "?utm_source=chatgpt.com" : "";
        const line = `${docAddress(r)} - - [${time}] "GET ${page(r, pages)}${query} HTTP/1.1" ${status} ${size} "${referrer}" "${agent}"`;
        batch.push(line);
        batchBytes += line.length + 1;
      }
      // ASCII only: a character is a byte.
      writeSync(fd, `${batch.join("\n")}\n`);
      written += batchBytes;
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}
