/**
 * A log file cut, in the browser, into batches of whole lines for the traffic import: the server
 * takes at most 256 MiB a request, and a batch of about 8 MiB keeps each request short and the
 * progress bar moving. The cut depends only on the lines, so the same file always cuts the same
 * way: the server, which counts each batch once by the SHA-256 of its bytes, recognises a file
 * uploaded again batch by batch, plain or gzipped.
 *
 * A gzipped file (recognised by its first two bytes, as the server does) is decompressed here with
 * the browser's DecompressionStream: only plain lines can be cut at line boundaries, and the
 * server's limit is on the decompressed bytes. Nothing is read whole: memory holds about one batch.
 */

const BATCH_BYTES = 8 * 1024 * 1024;
const NEWLINE = 0x0a;

export interface LogFile {
  file: File;
  gzip: boolean;
  /**
   * Bytes of lines it holds: its size, or for a gzipped file the size its trailer records (exact
   * below 4 GiB for a file of one gzip member; an estimate otherwise, corrected as it is read).
   */
  size: number;
}

export interface Batch {
  body: Blob;
  /** Bytes of the file's lines in it (CloudFront's repeated header left out). */
  lines: number;
}

/** Whether the file is gzipped, and how many bytes of lines it holds. */
export async function inspectLogFile(file: File): Promise<LogFile> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  if (!gzip || file.size < 18) return { file, gzip, size: file.size };
  // ISIZE, the gzip trailer's last four bytes: the uncompressed size modulo 2^32, little-endian.
  const trailer = new DataView(await file.slice(file.size - 4).arrayBuffer());
  const size = trailer.getUint32(0, true);
  return { file, gzip, size: size >= file.size ? size : file.size * 8 };
}

/** The last newline at or before `limit` bytes into `chunks`, as a count of bytes up to and including it. */
function lastNewline(chunks: readonly Uint8Array<ArrayBuffer>[], limit: number): number {
  let start = 0;
  const starts = chunks.map((chunk) => {
    const at = start;
    start += chunk.byteLength;
    return at;
  });
  for (let i = chunks.length - 1; i >= 0; i--) {
    const chunk = chunks[i] as Uint8Array<ArrayBuffer>;
    const offset = starts[i] ?? 0;
    if (offset >= limit) continue;
    const at = chunk.lastIndexOf(NEWLINE, Math.min(chunk.byteLength, limit - offset) - 1);
    if (at >= 0) return offset + at + 1;
  }
  return 0;
}

/** The first newline in `chunks`, as a count of bytes up to and including it; 0 when none. */
function firstNewline(chunks: readonly Uint8Array<ArrayBuffer>[]): number {
  let offset = 0;
  for (const chunk of chunks) {
    const at = chunk.indexOf(NEWLINE);
    if (at >= 0) return offset + at + 1;
    offset += chunk.byteLength;
  }
  return 0;
}

/** `chunks` split after `count` bytes, without copying. */
function splitAt(
  chunks: readonly Uint8Array<ArrayBuffer>[],
  count: number,
): [Uint8Array<ArrayBuffer>[], Uint8Array<ArrayBuffer>[]] {
  const head: Uint8Array<ArrayBuffer>[] = [];
  const tail: Uint8Array<ArrayBuffer>[] = [];
  let left = count;
  for (const chunk of chunks) {
    if (left >= chunk.byteLength) head.push(chunk);
    else if (left > 0) {
      head.push(chunk.subarray(0, left));
      tail.push(chunk.subarray(left));
    } else tail.push(chunk);
    left -= chunk.byteLength;
  }
  return [head, tail];
}

/** The file's batches, one at a time: each of at most `batchBytes` bytes of whole lines (a longer line goes alone). */
export async function* logBatches(log: LogFile, batchBytes = BATCH_BYTES): AsyncGenerator<Batch> {
  const stream = log.file.stream();
  const lines = log.gzip ? stream.pipeThrough(new DecompressionStream("gzip")) : stream;
  const reader = lines.getReader();
  let pending: Uint8Array<ArrayBuffer>[] = [];
  let pendingBytes = 0;
  // CloudFront's logs (W3C) name their columns in a `#Fields:` line at the top: a batch cut from the
  // middle of one needs it too, so the last one seen goes before each batch that has none of its own.
  let w3c: boolean | null = null;
  let fields: string | null = null;

  function batchOf(chunks: Uint8Array<ArrayBuffer>[], bytes: number): Batch {
    if (w3c === null) w3c = chunks[0]?.[0] === 0x23; // "#": CloudFront's "#Version:" or "#Fields:"
    if (!w3c) return { body: new Blob(chunks), lines: bytes };
    const own = findFields(chunks);
    const header = chunks[0]?.[0] === 0x23 || fields === null ? "" : `${fields}\n`;
    if (own !== null) fields = own;
    return { body: new Blob(header === "" ? chunks : [header, ...chunks]), lines: bytes };
  }

  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (value !== undefined && value.byteLength > 0) {
        pending.push(value);
        pendingBytes += value.byteLength;
      }
      while (pendingBytes >= batchBytes || (done && pendingBytes > 0)) {
        // The file's end is a line's end; anywhere else, the last whole line that fits.
        let cut = done && pendingBytes <= batchBytes ? pendingBytes : lastNewline(pending, batchBytes);
        // One line longer than a batch: it goes alone, up to its end (or all of it, at the end of the file).
        if (cut === 0) cut = firstNewline(pending) || (done ? pendingBytes : 0);
        // No line end in sight: not something to hold in memory whole (the server rejects such a line anyway).
        if (cut === 0 && pendingBytes >= 8 * batchBytes) cut = batchBytes;
        if (cut === 0) break;
        const [head, tail] = splitAt(pending, cut);
        pending = tail;
        pendingBytes -= cut;
        yield batchOf(head, cut);
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
    void lines.cancel().catch(() => undefined);
  }
}

/** The last `#Fields:` line among the batch's lines, or null. */
function findFields(chunks: readonly Uint8Array<ArrayBuffer>[]): string | null {
  const text = new TextDecoder().decode(chunks.length === 1 ? (chunks[0] as Uint8Array<ArrayBuffer>) : concat(chunks));
  const at = text.lastIndexOf("#Fields:");
  if (at < 0 || (at > 0 && text[at - 1] !== "\n")) return null;
  const end = text.indexOf("\n", at);
  return text.slice(at, end < 0 ? undefined : end).replace(/\r$/, "");
}

function concat(chunks: readonly Uint8Array<ArrayBuffer>[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
