import { AlertCircleIcon, CheckCircle2Icon, CopyCheckIcon } from "lucide-react";
import { Button } from "../../components/ui/button.tsx";
import { errorMessage } from "../../lib/api.ts";
import { formatNumber, plural } from "../../lib/format.ts";
import type { FileOutcome } from "./upload-logs.ts";
import { formatName } from "./words.ts";

/** What one file counted, in a sentence: "48,210 lines read (nginx or Apache (combined)): …". */
function Counted({ outcome: o }: { outcome: FileOutcome }) {
  const fresh = o.batches - o.duplicates;
  return (
    <>
      {o.duplicates > 0 && (
        <p className="text-muted-foreground">
          {o.duplicates === o.batches
            ? "Already imported: these lines were counted when the file was uploaded before, and are not counted again."
            : `${plural(o.duplicates, "part")} of ${formatNumber(o.batches)} had been imported before and ${o.duplicates === 1 ? "was" : "were"} not counted again.`}
        </p>
      )}
      {fresh > 0 && (
        <p>
          {plural(o.lines, "line")} read{o.format ? ` (${formatName(o.format)})` : ""}:{" "}
          <strong className="font-semibold">{plural(o.botHits, "AI crawl")}</strong>,{" "}
          <strong className="font-semibold">{plural(o.referrals, "AI-referred visit")}</strong>,{" "}
          {formatNumber(o.ignored)} other {o.ignored === 1 ? "line" : "lines"} dropped
          {o.rejected > 0 ? `, ${formatNumber(o.rejected)} not readable` : ""}.
        </p>
      )}
      {o.reasons.length > 0 && (
        <div className="text-muted-foreground">
          <p>Lines that could not be read, and why:</p>
          <ul className="list-disc pl-5">
            {o.reasons.slice(0, 5).map((r) => (
              <li key={r.reason}>
                {r.reason}: {formatNumber(r.count)}
              </li>
            ))}
          </ul>
          {o.format === null || o.rejected > o.lines / 2 ? (
            <p className="mt-1">If most lines are refused, choose the log's format instead of detecting it.</p>
          ) : null}
        </div>
      )}
    </>
  );
}

function Icon({ outcome }: { outcome: FileOutcome }) {
  if (outcome.error !== undefined) return <AlertCircleIcon className="size-4 text-destructive" aria-hidden="true" />;
  if (outcome.batches > 0 && outcome.duplicates === outcome.batches)
    return <CopyCheckIcon className="size-4 text-muted-foreground" aria-hidden="true" />;
  return <CheckCircle2Icon className="size-4 text-success" aria-hidden="true" />;
}

/** Brings the page's figures into view, and the focus with them. */
function showFigures() {
  const figures = document.getElementById("traffic-figures");
  figures?.scrollIntoView({ block: "start" });
  figures?.focus({ preventScroll: true });
}

/** Each file's outcome as its batches are answered; after a failure or a stop, what to do next. */
export function UploadOutcomes({
  outcomes,
  stopped,
  busy,
}: {
  outcomes: FileOutcome[];
  stopped: boolean;
  busy: boolean;
}) {
  const failed = outcomes.some((o) => o.error !== undefined && !(o.error instanceof DOMException));
  return (
    <div role="status" aria-live="polite" className="grid gap-3 text-sm empty:hidden">
      {outcomes.map((o) => (
        <section
          key={o.name}
          aria-label={`Upload of ${o.name}`}
          className="grid gap-1 rounded-md border bg-muted/40 px-3 py-2"
        >
          <h3 className="flex items-center gap-1.5 font-medium wrap-anywhere">
            <Icon outcome={o} />
            {o.name}
            {busy && o.error === undefined && o === outcomes.at(-1) ? (
              <span className="font-normal text-muted-foreground"> (sending)</span>
            ) : null}
          </h3>
          {o.batches === 0 && o.error === undefined && !busy ? (
            <p className="text-muted-foreground">The file is empty: there was nothing to read.</p>
          ) : (
            <Counted outcome={o} />
          )}
          {o.error !== undefined && !(o.error instanceof DOMException) && (
            <p className="text-destructive">Stopped: {errorMessage(o.error)}</p>
          )}
        </section>
      ))}
      {(stopped || failed) && (
        <p className="text-muted-foreground">
          {stopped ? "The upload was stopped. " : ""}What was sent before is counted. Upload the same file again to send
          the rest: the parts already imported are recognised and skipped.
        </p>
      )}
      {!busy && !stopped && !failed && outcomes.some((o) => o.batches > o.duplicates) && (
        <p className="text-muted-foreground">
          The figures on this page now include these lines.{" "}
          <Button variant="link" className="h-auto p-0" onClick={showFigures}>
            Show the figures
          </Button>
        </p>
      )}
    </div>
  );
}
