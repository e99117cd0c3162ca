import { createReadStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TrafficAggregate } from "../src/services/traffic/aggregate.ts";
import { classify } from "../src/services/traffic/classify.ts";
import { createParser } from "../src/services/traffic/formats/detect.ts";
import { BotRanges } from "../src/services/traffic/ranges.ts";
import { logLines } from "../src/services/traffic/read.ts";

/**
 * Log import speed (issue 26): a generated combined-format log (about one line in five an AI bot or
 * an AI referral, the rest people), read and split alone (the baseline), then read, parsed,
 * classified and added up as an import does before it writes its counts. Both in this run, on the
 * same file, so the ratio compares like with like. Goal: ratio ≥ 0.2.
 */
const LINES = 500_000;

const agents = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
  "Mozilla/5.0 (compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15",
];
const referrers = ["-", "https://www.google.com/", "-", "https://chatgpt.com/", "-", "https://www.perplexity.ai/"];

function writeLog(path: string): number {
  const parts: string[] = [];
  for (let i = 0; i < LINES; i++) {
    const agent = agents[i % agents.length] ?? "";
    const referrer = referrers[i % referrers.length] ?? "-";
    // Documentation ranges: the addresses are parsed and compared, never contacted.
    const ip = agent.includes("GPTBot") ? `192.0.2.${i % 128}` : `203.0.113.${i % 250}`;
    const minute = String(i % 60).padStart(2, "0");
    parts.push(
      `${ip} - - [2${i % 7}/Nov/2026:1${i % 10}:${minute}:00 +0000] "GET /docs/page-${i % 2000}?ref=${i % 13} HTTP/1.1" ${i % 50 === 0 ? 404 : 200} ${1000 + (i % 5000)} "${referrer}" "${agent}"`,
    );
  }
  const text = `${parts.join("\n")}\n`;
  writeFileSync(path, text);
  return Buffer.byteLength(text);
}

async function timed(run: () => Promise<number>): Promise<{ lines: number; seconds: number }> {
  const start = performance.now();
  const lines = await run();
  return { lines, seconds: (performance.now() - start) / 1000 };
}

export async function logImportBenchmark(dir: string): Promise<string[]> {
  const path = join(dir, "access.log");
  const bytes = writeLog(path);
  const ranges = new BotRanges({ GPTBot: ["192.0.2.0/25"] });
  const read = () =>
    timed(async () => {
      let lines = 0;
      for await (const _ of logLines(createReadStream(path)).lines) lines++;
      return lines;
    });
  const parse = () =>
    timed(async () => {
      const parser = createParser("combined");
      const aggregate = new TrafficAggregate();
      const domains = ["acme.io"];
      for await (const line of logLines(createReadStream(path)).lines) {
        aggregate.add(parser.parse(line), (parsed) => classify(parsed.record, ranges, domains));
      }
      return aggregate.lines;
    });
  // One warm-up of each, then the better of two runs.
  await read();
  await parse();
  const baseline = [await read(), await read()].sort((a, b) => a.seconds - b.seconds)[0];
  const full = [await parse(), await parse()].sort((a, b) => a.seconds - b.seconds)[0];
  if (baseline === undefined || full === undefined) return [];
  const readRate = baseline.lines / baseline.seconds;
  const importRate = full.lines / full.seconds;
  return [
    `log file: ${LINES.toLocaleString("en-US")} lines, ${(bytes / 1e6).toFixed(0)} MB (combined format)`,
    `reading and splitting the same file: ${Math.round(readRate).toLocaleString("en-US")} lines per second`,
    `log import lines per second (combined format): ${Math.round(importRate).toLocaleString("en-US")}`,
    `ratio, log import ÷ reading and splitting the same file: ${(importRate / readRate).toFixed(2)} (goal ≥ 0.2)`,
  ];
}
