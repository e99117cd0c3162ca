import { createReadStream } from "node:fs";
import { type FileHandle, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { BotRow, ReferralRow, TrafficAggregate } from "./aggregate.ts";

export type SpilledRow = { kind: "bot"; row: BotRow } | { kind: "visit"; row: ReferralRow };

/** Rows written out per write to the file. */
const WRITE_ROWS = 2_000;

/**
 * Where an import puts the rows it has added up when it holds too many (issue 26): a temporary
 * file of JSON lines, read back when the import writes its counts. An import's memory is then
 * bounded by the rows it holds at once, whatever the log's length; the same row may be in the
 * file several times (from several stretches of the log), and writing adds them up as usual.
 * The file goes when the import ends, however it ends.
 */
export class RowSpill {
  #dir: string | null = null;
  #file: FileHandle | null = null;
  #path = "";

  /** Writes the aggregate's rows out and clears them from memory. */
  async write(aggregate: TrafficAggregate): Promise<void> {
    if (this.#file === null) {
      this.#dir = await mkdtemp(join(tmpdir(), "sightline-import-"));
      this.#path = join(this.#dir, "rows.ndjson");
      this.#file = await open(this.#path, "w", 0o600);
    }
    const file = this.#file;
    for (const chunk of aggregate.botChunks(WRITE_ROWS))
      await file.write(`${chunk.map((row) => JSON.stringify({ kind: "bot", row })).join("\n")}\n`);
    for (const chunk of aggregate.visitChunks(WRITE_ROWS))
      await file.write(`${chunk.map((row) => JSON.stringify({ kind: "visit", row })).join("\n")}\n`);
    aggregate.clearRows();
  }

  /** The rows written out, then those still held by `aggregate`. */
  async *rows(aggregate: TrafficAggregate): AsyncGenerator<SpilledRow> {
    if (this.#file !== null) {
      await this.#file.sync();
      const lines = createInterface({
        input: createReadStream(this.#path, "utf8"),
        crlfDelay: Number.POSITIVE_INFINITY,
      });
      for await (const line of lines) if (line !== "") yield JSON.parse(line) as SpilledRow;
    }
    for (const chunk of aggregate.botChunks(WRITE_ROWS)) for (const row of chunk) yield { kind: "bot", row };
    for (const chunk of aggregate.visitChunks(WRITE_ROWS)) for (const row of chunk) yield { kind: "visit", row };
  }

  async dispose(): Promise<void> {
    await this.#file?.close();
    this.#file = null;
    if (this.#dir !== null) await rm(this.#dir, { recursive: true, force: true });
    this.#dir = null;
  }
}
