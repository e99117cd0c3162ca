import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";

/**
 * The lines of a log as bytes arrive (issue 26): gzip recognised by its magic bytes and
 * decompressed on the way, split on newlines without holding more than the current chunk, and the
 * SHA-256 of the decompressed bytes worked out as they pass, to recognise the same batch again.
 */
export interface LogLines {
  lines: AsyncIterable<string>;
  /** The digest of everything read; ready once `lines` is exhausted. */
  digest(): string;
}

/**
 * Longest line kept whole (a Vercel drain's batch arrives as one JSON line); longer ones are cut
 * and the parser rejects them.
 */
const MAX_LINE = 4 * 1024 * 1024;

const toBuffer = (value: unknown): Buffer => (Buffer.isBuffer(value) ? value : Buffer.from(String(value)));

/** The source's bytes, through gunzip when they start with gzip's magic bytes. */
async function* chunks(source: Readable): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]();
  const head = await iterator.next();
  if (head.done === true) return;
  const first = toBuffer(head.value);
  async function* all(): AsyncGenerator<Buffer> {
    yield first;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield toBuffer(next.value);
  }
  if (first[0] === 0x1f && first[1] === 0x8b) {
    for await (const chunk of Readable.from(all()).pipe(createGunzip())) yield toBuffer(chunk);
    return;
  }
  yield* all();
}

export function logLines(source: Readable): LogLines {
  const hash = createHash("sha256");
  let done: string | null = null;
  async function* split(): AsyncGenerator<string> {
    let carry = "";
    const decoder = new TextDecoder("utf-8");
    for await (const chunk of chunks(source)) {
      hash.update(chunk);
      const text = carry + decoder.decode(chunk, { stream: true });
      let start = 0;
      for (let end = text.indexOf("\n", start); end >= 0; end = text.indexOf("\n", start)) {
        const line = text.slice(start, end);
        yield line.endsWith("\r") ? line.slice(0, -1) : line;
        start = end + 1;
      }
      carry = text.slice(start);
      if (carry.length > MAX_LINE) carry = carry.slice(0, MAX_LINE);
    }
    carry += decoder.decode();
    if (carry !== "") yield carry.endsWith("\r") ? carry.slice(0, -1) : carry;
    done = hash.digest("hex");
  }
  return {
    lines: split(),
    digest: () => {
      if (done === null) throw new Error("the digest is known once every line was read");
      return done;
    },
  };
}
