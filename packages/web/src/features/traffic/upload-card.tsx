import { useQueryClient } from "@tanstack/react-query";
import { UploadIcon } from "lucide-react";
import { type ChangeEvent, type DragEvent, useId, useRef, useState } from "react";
import { RoleNote } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { SelectField } from "../../components/select-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Progress } from "../../components/ui/progress.tsx";
import { cn } from "../../lib/utils.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { trafficKey } from "./traffic-api.ts";
import { type FileOutcome, type LogFormat, type UploadProgress, uploadLogs } from "./upload-logs.ts";
import { UploadOutcomes } from "./upload-outcomes.tsx";
import { FORMATS, formatBytes } from "./words.ts";

const AUTO = "auto";

/**
 * "Upload log files": one or more access logs (plain or .gz, any size) cut into batches in the
 * browser and sent one by one, with a progress bar over all of them, then what each counted.
 */
export function UploadCard() {
  const { workspaceId, project, canEdit } = useBrand();
  const queryClient = useQueryClient();
  const id = useId();
  const [format, setFormat] = useState<LogFormat | typeof AUTO>(AUTO);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [outcomes, setOutcomes] = useState<FileOutcome[]>([]);
  const [stopped, setStopped] = useState(false);
  const [dragging, setDragging] = useState(false);
  const running = useRef<AbortController | null>(null);
  const busy = progress !== null;

  async function upload(files: File[]) {
    if (files.length === 0 || running.current) return;
    const controller = new AbortController();
    running.current = controller;
    setOutcomes([]);
    setStopped(false);
    setProgress({ sent: 0, total: files.reduce((sum, f) => sum + f.size, 0), file: 1, files: files.length, name: "" });
    try {
      await uploadLogs({
        workspaceId,
        projectId: project.id,
        files,
        format: format === AUTO ? null : format,
        signal: controller.signal,
        onProgress: setProgress,
        onOutcome: setOutcomes,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") setStopped(true);
    } finally {
      running.current = null;
      setProgress(null);
      // Whatever was counted, even before a failure, shows on the page.
      void queryClient.invalidateQueries({ queryKey: trafficKey(workspaceId, project.id) });
    }
  }

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])];
    // The same files may be chosen again (to see them recognised as already imported).
    event.target.value = "";
    void upload(files);
  }

  function drop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (canEdit && !busy) void upload([...event.dataTransfer.files]);
  }

  const percent = progress && progress.total > 0 ? Math.min(100, (progress.sent / progress.total) * 100) : 0;
  const sentText = progress ? `${formatBytes(progress.sent)} of ${formatBytes(progress.total)} sent` : "";

  return (
    <SectionCard
      id="upload-logs"
      titleId="upload-logs-title"
      title="Upload log files"
      description={
        <>
          Your web server or CDN writes one line for every request it answers: its access log. Upload it here (as it is,
          or gzipped). Sightline keeps only AI crawlers' requests and visits from AI answers, as daily counts per page;
          every other line is dropped, and no visitor's address is stored.
        </>
      }
      contentClassName="grid gap-4"
    >
      {!canEdit ? (
        <RoleNote>Members and above can upload logs. You can see what was imported on this page.</RoleNote>
      ) : (
        <>
          <details className="text-sm">
            <summary className="w-fit cursor-pointer rounded-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
              Where do I find the access log?
            </summary>
            <ul className="mt-2 grid list-disc gap-1 pl-5 text-muted-foreground">
              <li>
                nginx: <code className="text-foreground">/var/log/nginx/access.log</code>, and the older days in{" "}
                <code className="text-foreground">access.log.1</code>, <code className="text-foreground">.2.gz</code>…
              </li>
              <li>
                Apache: <code className="text-foreground">/var/log/apache2/access.log</code> (or{" "}
                <code className="text-foreground">/var/log/httpd/access_log</code>).
              </li>
              <li>Amazon CloudFront: the files of the distribution's log bucket in S3.</li>
              <li>
                Cloudflare, Vercel or Fastly: they keep no file to download; send the logs automatically instead (see
                Log drains below).
              </li>
              <li>Not sure? Ask whoever runs the website for the access logs of the last weeks.</li>
            </ul>
          </details>
          {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping files is a shortcut for the button inside, which keyboards and screen readers use */}
          <div
            className={cn(
              "grid gap-4 rounded-lg border border-dashed p-4 transition-colors sm:grid-cols-[minmax(0,16rem)_1fr] sm:items-end",
              dragging && "border-primary bg-accent",
            )}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={drop}
          >
            <SelectField
              label="Format"
              value={format}
              onChange={setFormat}
              options={[{ value: AUTO, label: "Detect automatically" }, ...FORMATS]}
            />
            <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
              <Button asChild className={cn(busy && "pointer-events-none opacity-50")}>
                <label className="cursor-pointer has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:focus-visible]:ring-offset-2">
                  <UploadIcon aria-hidden="true" />
                  Upload log files
                  <input
                    type="file"
                    multiple
                    className="sr-only"
                    disabled={busy}
                    aria-describedby={`${id}-hint`}
                    onChange={choose}
                  />
                </label>
              </Button>
              <span id={`${id}-hint`} className="text-xs text-muted-foreground">
                or drop them here. Plain or .gz, any size; several files at once (a rotated log and its older days).
              </span>
            </div>
          </div>
          {progress && (
            <div className="grid gap-2">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
                <p>
                  Sending <span className="font-medium wrap-anywhere">{progress.name}</span>
                  {progress.files > 1 ? ` (file ${progress.file} of ${progress.files})` : ""}…
                </p>
                <p className="text-muted-foreground tabular-nums">{sentText}</p>
              </div>
              <Progress
                value={percent}
                aria-label="Upload progress"
                getValueLabel={() => `${Math.floor(percent)}%, ${sentText}`}
              />
              <div>
                <Button variant="outline" size="sm" onClick={() => running.current?.abort()}>
                  Stop the upload
                </Button>
              </div>
            </div>
          )}
          <UploadOutcomes outcomes={outcomes} stopped={stopped} busy={busy} />
        </>
      )}
    </SectionCard>
  );
}
