import { ApiError } from "../../errors/api-error.ts";
import type { ServiceContext } from "../context.ts";
import { MAX_WAIT_SECONDS } from "../limits.ts";
import { getAnalysis } from "./read.ts";
import type { Analysis } from "./types.ts";

const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 250;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Told each time more of the analysis's answers are in: `done` (succeeded or failed) of `total`. */
export type WaitProgress = (done: number, total: number, message: string) => void;

function progressSentence(analysis: Analysis): string {
  const { succeeded, failed, total } = analysis.progress;
  const failures = failed === 0 ? "" : `, ${failed} failed`;
  return `${succeeded + failed} of ${total} answers in${failures}`;
}

export type WaitOutcome = { finished: true; analysis: Analysis } | { finished: false; analysis: Analysis };

/**
 * Waits until the analysis finishes (whichever worker runs it), for at most `seconds`, or until
 * `signal` aborts (the client left, the server drains). Reads the stored analysis, so that it
 * works across processes; polls from 25 ms backing off to 250 ms.
 */
export async function waitForAnalysis(
  ctx: ServiceContext,
  id: string,
  seconds: number,
  signal: AbortSignal,
  progress: WaitProgress | null = null,
): Promise<WaitOutcome> {
  const deadline = performance.now() + Math.min(seconds, MAX_WAIT_SECONDS) * 1000;
  let pause = FIRST_POLL_MS;
  let told = -1;
  for (;;) {
    const analysis = await getAnalysis(ctx, id);
    const done = analysis.progress.succeeded + analysis.progress.failed;
    if (progress !== null && done > told) {
      told = done;
      progress(done, analysis.progress.total, progressSentence(analysis));
    }
    if (analysis.status === "completed" || analysis.status === "failed") return { finished: true, analysis };
    const left = deadline - performance.now();
    if (left <= 0 || signal.aborted) return { finished: false, analysis };
    await sleep(Math.min(pause, left), signal);
    pause = Math.min(MAX_POLL_MS, pause * 2);
  }
}

/**
 * A finished analysis none of whose answers succeeded, as the error it is: 502 ENGINE_FAILURE,
 * one detail per engine with what its vendor said. Its credits were given back.
 */
export function engineFailure(analysis: Analysis): ApiError {
  const details = analysis.errors.map((failure) => ({
    field: "engines",
    issue: failure.message,
    engine: failure.engine,
    analysis_id: analysis.id,
  }));
  const engines = analysis.errors.map((failure) => failure.engine).join(", ");
  return new ApiError(
    "ENGINE_FAILURE",
    `Every answer of analysis ${analysis.id} failed (${engines || "no engine answered"}); its credits were given back. Retry, or use another engine.`,
    { details: details.length > 0 ? details : [{ issue: "no engine answered", analysis_id: analysis.id }] },
  );
}
