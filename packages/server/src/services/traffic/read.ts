import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { validationError } from "../../errors/api-error.ts";

/**
 * The lines of a log as bytes arrive (issue 26): gzip recognised by its magic bytes and
 * decompressed on the way, split on newlines (as bytes, each line decoded on its own) without
 * holding more than the current chunk, and the SHA-256 of the decompressed bytes worked out as
 * they pass, to recognise the same batch again.
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

const NEWLINE = 0x0a;

/**
 * The line between `start` and `end` (without a trailing CR, cut at MAX_LINE bytes), decoded into
 * a string of its own: a slice of the chunk's text would keep the whole chunk alive for as long as
 * anything taken from the line (a page, a user agent in a cache) is kept.
 */
function lineOf(bytes: Buffer, start: number, end: number): string {
  if (end > start && bytes[end - 1] === 0x0d) end--;
  return bytes.toString("utf8", start, Math.min(end, start + MAX_LINE));
}

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
    const gunzip = createGunzip();
    try {
      for await (const chunk of Readable.from(all()).pipe(gunzip)) yield toBuffer(chunk);
    } catch (error) {
      // zlib's own errors (a cut or corrupt archive) are the sender's; anything else is not.
      if (!(error instanceof Error && "errno" in error && (error as { code?: string }).code?.startsWith("Z_")))
        throw error;
      throw validationError(
        [{ field: "body", issue: `is not a valid gzip stream (${error.message})` }],
        "The log is not valid gzip: it starts like gzip but could not be decompressed.",
      );
    }
    return;
  }
  yield* all();
}

/**
 * `maxBytes` bounds the decompressed bytes read (an HTTP push's limit; a file read from disk has
 * none): past it, reading stops with a validation error, before anything was counted.
 */
export function logLines(source: Readable, maxBytes = Number.POSITIVE_INFINITY): LogLines {
  const hash = createHash("sha256");
  let done: string | null = null;
  let read = 0;
  async function* split(): AsyncGenerator<string> {
    // The bytes of a line begun in an earlier chunk, copied (at most MAX_LINE of them).
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    // A byte-order mark opens the first line at most; TextDecoder dropped it, and so does this.
    let first = true;
    const opening = (line: string): string => {
      if (!first) return line;
      first = false;
      return line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
    };
    for await (const chunk of chunks(source)) {
      read += chunk.length;
      if (read > maxBytes) {
        source.destroy();
        throw validationError(
          [{ field: "body", issue: `holds more than ${maxBytes} bytes (decompressed); send it in smaller batches` }],
          `The batch is too large: at most ${maxBytes} bytes of log lines (decompressed) per request.`,
        );
      }
      hash.update(chunk);
      let start = 0;
      let end = chunk.indexOf(NEWLINE);
      if (end >= 0 && pendingBytes > 0) {
        pending.push(chunk.subarray(0, end));
        const whole = Buffer.concat(pending);
        yield opening(lineOf(whole, 0, whole.length));
        pending = [];
        pendingBytes = 0;
        start = end + 1;
        end = chunk.indexOf(NEWLINE, start);
      }
      for (; end >= 0; end = chunk.indexOf(NEWLINE, start)) {
        yield opening(lineOf(chunk, start, end));
        start = end + 1;
      }
      if (start < chunk.length && pendingBytes < MAX_LINE) {
        const rest = Buffer.from(chunk.subarray(start, start + MAX_LINE - pendingBytes));
        pending.push(rest);
        pendingBytes += rest.length;
      }
    }
    if (pendingBytes > 0) {
      const whole = Buffer.concat(pending);
      yield opening(lineOf(whole, 0, whole.length));
    }
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
