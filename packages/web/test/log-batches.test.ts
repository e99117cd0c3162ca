import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { inspectLogFile, logBatches } from "../src/features/traffic/log-batches.ts";

/** A seeded generator, so that a failure can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Lines of random lengths (some longer than a batch), the last one with or without its newline. */
function lines(seed: number, count: number, longest: number, endsWithNewline: boolean): string {
  const next = random(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(`${i} ${"x".repeat(Math.floor(next() * longest))}`);
  return out.join("\n") + (endsWithNewline ? "\n" : "");
}

async function cut(text: string | Uint8Array<ArrayBuffer>, name: string, batchBytes: number) {
  const file = new File([text], name);
  const log = await inspectLogFile(file);
  const out: { text: string; lines: number }[] = [];
  for await (const batch of logBatches(log, batchBytes))
    out.push({ text: await batch.body.text(), lines: batch.lines });
  return { log, batches: out };
}

describe("cutting a log file into batches", () => {
  it("cuts only at line ends, each batch within its size unless one line is longer, and loses nothing", async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const endsWithNewline of [true, false]) {
        const text = lines(seed, 400, 300, endsWithNewline);
        const { log, batches } = await cut(text, "access.log", 1_000);
        expect(log).toMatchObject({ gzip: false, size: text.length });
        expect(batches.map((b) => b.text).join("")).toBe(text);
        expect(batches.length).toBeGreaterThan(text.length / 1_000);
        for (const [i, b] of batches.entries()) {
          if (i < batches.length - 1 || endsWithNewline) expect(b.text.endsWith("\n")).toBe(true);
          // Longer than a batch only when it is one line.
          if (b.text.length > 1_000) expect(b.text.slice(0, -1)).not.toContain("\n");
          expect(b.lines).toBe(b.text.length);
        }
      }
    }
  });

  it("cuts at a line end when the chunks read add up to exactly a batch", async () => {
    const text = lines(11, 300, 120, true);
    // A browser reads a file from disk in chunks (64 KiB in Chromium): here, 64 bytes at a time.
    const bytes = new TextEncoder().encode(text);
    const stream = () =>
      new ReadableStream<Uint8Array<ArrayBuffer>>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64) controller.enqueue(bytes.slice(at, at + 64));
          controller.close();
        },
      });
    const file = { name: "access.log", size: bytes.length, stream } as unknown as File;
    const out: string[] = [];
    for await (const batch of logBatches({ file, gzip: false, size: bytes.length }, 1_024))
      out.push(await batch.body.text());
    expect(out.join("")).toBe(text);
    for (const b of out) expect(b.endsWith("\n")).toBe(true);
  });

  it("cuts a gzipped file as it cuts the same lines plain, its size read from the gzip trailer", async () => {
    const text = lines(7, 2_000, 200, true);
    const plain = await cut(text, "access.log", 4_096);
    const gzipped = await cut(new Uint8Array(gzipSync(text)), "access.log.1.gz", 4_096);
    expect(gzipped.log).toMatchObject({ gzip: true, size: text.length });
    // The same bytes per batch: the server recognises a file sent again, plain or gzipped.
    expect(gzipped.batches).toEqual(plain.batches);
  });

  it("gives every CloudFront batch the columns' #Fields line", async () => {
    const fields = "#Fields: date time c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent)";
    const rows = Array.from(
      { length: 300 },
      (_, i) =>
        `2026-11-20\t08:00:${String(i % 60).padStart(2, "0")}\t192.0.2.${i % 200}\tGET\tacme.test\t/p${i}\t200\t-\tGPTBot/1.2`,
    );
    const text = `#Version: 1.0\n${fields}\n${rows.join("\n")}\n`;
    const { batches } = await cut(text, "E2ABC.2026-11-20-08.log", 2_000);
    expect(batches.length).toBeGreaterThan(3);
    for (const b of batches) expect(b.text.split("\n").find((line) => line.startsWith("#Fields:"))).toBe(fields);
    // What the file holds, and only that, once the repeated headers are left out.
    const [first, ...rest] = batches.map((b) => b.text);
    expect([first, ...rest.map((t) => t.slice(fields.length + 1))].join("")).toBe(text);
  });

  it("reads an empty file as no batch", async () => {
    expect((await cut("", "empty.log", 1_000)).batches).toEqual([]);
  });
});
