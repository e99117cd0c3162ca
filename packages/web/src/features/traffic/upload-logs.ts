import type { TrafficImport } from "@sightline/sdk";
import { v1Upload } from "../../lib/api.ts";
import { inspectLogFile, type LogFile, logBatches } from "./log-batches.ts";

export type LogFormat = TrafficImport["format"];

/** What one file's upload counted, its batches' answers added up. */
export interface FileOutcome {
  name: string;
  /** Batches sent and answered. */
  batches: number;
  /** Of those, the batches imported before (the same bytes): counted then, not again. */
  duplicates: number;
  format: LogFormat | null;
  /** The batches counted now, added up. */
  lines: number;
  botHits: number;
  referrals: number;
  ignored: number;
  rejected: number;
  /** Why lines were rejected, with how many each, most first. */
  reasons: { reason: string; count: number }[];
  /** Why the upload of this file stopped before its end. */
  error?: unknown;
}

export interface UploadProgress {
  /** Bytes of lines sent, of all the files, and how many there are. */
  sent: number;
  total: number;
  /** The file being sent, counted from 1. */
  file: number;
  files: number;
  name: string;
}

interface UploadInput {
  workspaceId: string;
  projectId: string;
  files: readonly File[];
  /** null: detected by the server from each file's first lines. */
  format: LogFormat | null;
  signal: AbortSignal;
  onProgress: (progress: UploadProgress) => void;
  /** Each file's outcome as it finishes, the last one as it goes. */
  onOutcome: (outcomes: FileOutcome[]) => void;
}

function emptyOutcome(name: string): FileOutcome {
  return {
    name,
    batches: 0,
    duplicates: 0,
    format: null,
    lines: 0,
    botHits: 0,
    referrals: 0,
    ignored: 0,
    rejected: 0,
    reasons: [],
  };
}

function add(outcome: FileOutcome, answer: TrafficImport): void {
  outcome.batches += 1;
  outcome.format ??= answer.format;
  // A batch sent before answers what it counted then: it is not counted twice, so not added twice.
  if (answer.duplicate) {
    outcome.duplicates += 1;
    return;
  }
  outcome.lines += answer.lines;
  outcome.botHits += answer.bot_hits;
  outcome.referrals += answer.referrals;
  outcome.ignored += answer.ignored;
  outcome.rejected += answer.rejected;
  for (const { reason, count } of answer.reasons) {
    const known = outcome.reasons.find((r) => r.reason === reason);
    if (known) known.count += count;
    else outcome.reasons.push({ reason, count });
  }
  outcome.reasons.sort((a, b) => b.count - a.count);
}

/**
 * Sends the files one after the other, each cut into batches (log-batches.ts), one request per
 * batch; reports the bytes sent of all the files and each file's outcome as it goes. A failed batch
 * stops the upload (the batches before it stay counted: sending the file again skips them); an abort
 * too, with an AbortError.
 */
export async function uploadLogs(input: UploadInput): Promise<FileOutcome[]> {
  const { workspaceId, projectId, files, signal, onProgress, onOutcome } = input;
  const logs: LogFile[] = [];
  for (const file of files) logs.push(await inspectLogFile(file));
  // Bytes of lines of the files sent, and of those after the current one (as their sizes say).
  let done = 0;
  const after = (index: number) => logs.slice(index + 1).reduce((sum, log) => sum + log.size, 0);
  const outcomes: FileOutcome[] = [];

  for (const [index, log] of logs.entries()) {
    const outcome = emptyOutcome(log.file.name);
    outcomes.push(outcome);
    let format = input.format;
    let fileSent = 0;
    const report = (sent: number) => {
      // A gzip trailer's size can fall short (several members, 4 GiB or more): the file is at least what was read.
      const total = done + Math.max(log.size, sent) + after(index);
      onProgress({ sent: done + sent, total, file: index + 1, files: logs.length, name: log.file.name });
    };
    report(0);
    try {
      for await (const batch of logBatches(log)) {
        if (signal.aborted) throw new DOMException("The upload was stopped.", "AbortError");
        const answer = await v1Upload(
          workspaceId,
          "importProjectTrafficLogs",
          { params: { id: projectId }, query: format === null ? {} : { format }, body: batch.body },
          {
            signal,
            onProgress: (sent, size) => report(fileSent + (size > 0 ? (sent / size) * batch.lines : 0)),
          },
        );
        fileSent += batch.lines;
        report(fileSent);
        add(outcome, answer);
        // The rest of the file is read as its first batch was: what detection found holds for all of it.
        format ??= answer.format;
        onOutcome([...outcomes]);
      }
    } catch (error) {
      outcome.error = error;
      onOutcome([...outcomes]);
      throw error;
    }
    done += fileSent;
    onOutcome([...outcomes]);
  }
  onProgress({ sent: done, total: done, file: logs.length, files: logs.length, name: logs.at(-1)?.file.name ?? "" });
  return outcomes;
}
