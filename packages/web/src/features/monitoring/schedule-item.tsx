import type { MonitoringSchedule } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { ChevronDownIcon, PauseIcon, PlayIcon, RefreshCwIcon, Trash2Icon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Spinner } from "../../components/page-states.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { RelativeText } from "../../components/when.tsx";
import { errorMessage } from "../../lib/api.ts";
import { engineName, formatDateTimeIn, plural } from "../../lib/format.ts";
import { keys } from "../../lib/queries.ts";
import { cn } from "../../lib/utils.ts";
import { countAnswers, describeAnswers } from "../analyses/answer-count.ts";
import { CreditCost } from "../analyses/credit-cost.tsx";
import { useAudience } from "../analyses/use-analysis-shape.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { deleteSchedule, runScheduleNow, updateSchedule } from "./monitoring-api.ts";
import { RunsList } from "./runs-list.tsx";
import { ScheduleDialog } from "./schedule-dialog.tsx";
import { describeRule, describeSchedule } from "./schedule-draft.ts";

/** "completed", or "completed with failures (2 of 4 answers failed)". */
function lastRunStatus(run: NonNullable<MonitoringSchedule["last_run"]>): string {
  const failed = run.failures?.failed ?? 0;
  if (run.status !== "completed" || failed === 0) return run.status;
  return `completed with failures (${failed} of ${plural(run.failures?.total ?? 0, "answer")} failed)`;
}

/** One schedule: when, what, its rules, its next and last run, its actions and its runs. */
export function ScheduleItem({ schedule }: { schedule: MonitoringSchedule }) {
  const { workspaceId, project, canEdit } = useBrand();
  const queryClient = useQueryClient();
  const runsId = useId();
  const [showRuns, setShowRuns] = useState(false);
  const [busy, setBusy] = useState<"pause">();
  const title = describeSchedule(schedule);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "monitoring", project.id) });

  async function setActive(active: boolean) {
    setBusy("pause");
    try {
      await updateSchedule(workspaceId, schedule.id, { active });
      await refresh();
      toast.success(active ? "The schedule was resumed" : "The schedule was paused");
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(undefined);
    }
  }

  // What a run asks, as the server will: the schedule's engines and prompts, or the brand's (switched-on prompts).
  const paused = new Set(project.paused_prompts ?? []);
  const runEngines = schedule.engines ?? project.engines;
  const runPrompts = schedule.prompts ?? project.prompts.filter((p) => !paused.has(p));
  // As the brand's analyses: under each persona, from each country, and (asking the brand's prompts) its conversations.
  const audience = useAudience(workspaceId, project);
  const held = schedule.prompts === null;
  const shape = {
    prompts: runPrompts.length,
    engines: runEngines.length,
    samples: schedule.samples,
    personas: audience.personas,
    countries: audience.countries,
    scripts: held ? audience.scripts : 0,
    scriptTurns: held ? audience.scriptTurns : 0,
    talkers: runEngines.filter(audience.holdsConversations).length,
  };
  const credits = countAnswers(shape).total;

  async function runNow() {
    const run = await runScheduleNow(workspaceId, schedule.id);
    await refresh();
    setShowRuns(true);
    if (run.status === "skipped") toast.warning(`The run was skipped: ${run.skip_reason ?? "no reason given"}`);
    else toast.success("A run was started");
  }

  async function remove() {
    await deleteSchedule(workspaceId, schedule.id);
    await refresh();
    toast.success("The schedule was deleted");
  }

  return (
    <li className="grid gap-3 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h3 className="font-medium">{title}</h3>
          <p className="mt-0.5 text-sm text-muted-foreground">
            {schedule.engines === null ? "The brand's engines" : schedule.engines.map(engineName).join(", ")} ·{" "}
            {schedule.prompts === null ? "the brand's prompts" : plural(schedule.prompts.length, "prompt")} ·{" "}
            {plural(schedule.samples, "sample")}
            {schedule.batch && " · through the vendors' batch APIs"}
          </p>
        </div>
        <Badge variant={schedule.active ? "success" : "muted"}>{schedule.active ? "Active" : "Paused"}</Badge>
      </div>
      <dl className="grid gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-xs text-muted-foreground">Next run</dt>
          <dd>
            {schedule.active && schedule.next_run_at ? (
              <>
                {formatDateTimeIn(schedule.next_run_at, schedule.timezone)} (
                <RelativeText value={schedule.next_run_at} />)
              </>
            ) : (
              "None while paused"
            )}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Last run</dt>
          <dd>
            {schedule.last_run ? (
              <>
                <RelativeText value={schedule.last_run.created_at} />, {lastRunStatus(schedule.last_run)}
                {schedule.last_run.skip_reason ? ` (${schedule.last_run.skip_reason})` : ""}
              </>
            ) : (
              "Not run yet"
            )}
          </dd>
        </div>
      </dl>
      <div>
        <p className="text-xs text-muted-foreground">Alert rules</p>
        {schedule.alert_rules.length === 0 ? (
          <p className="text-sm">None</p>
        ) : (
          <ul className="mt-1 grid list-disc gap-0.5 pl-5 text-sm">
            {schedule.alert_rules.map((rule) => (
              <li key={rule.id}>{describeRule(rule)}</li>
            ))}
          </ul>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={showRuns}
          aria-controls={runsId}
          onClick={() => setShowRuns((shown) => !shown)}
        >
          <ChevronDownIcon className={cn("transition-transform", showRuns && "rotate-180")} aria-hidden="true" />
          {showRuns ? "Hide runs" : "Show runs"}
        </Button>
        {canEdit && (
          <>
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" disabled={busy !== undefined} aria-label={`Run now: ${title}`}>
                  <RefreshCwIcon aria-hidden="true" />
                  Run now
                </Button>
              }
              title={`Run now and spend ${plural(credits, "credit")}?`}
              description={
                <>
                  {describeAnswers(shape)}, outside the schedule's slots (which are unaffected).
                  <CreditCost workspaceId={workspaceId} credits={credits} />
                </>
              }
              confirmLabel={`Spend ${plural(credits, "credit")} and run`}
              destructive={false}
              onConfirm={runNow}
            />
            <ScheduleDialog schedule={schedule} />
            <Button
              variant="outline"
              size="sm"
              onClick={() => setActive(!schedule.active)}
              disabled={busy !== undefined}
              aria-label={`${schedule.active ? "Pause" : "Resume"} schedule: ${title}`}
            >
              {busy === "pause" ? (
                <Spinner />
              ) : schedule.active ? (
                <PauseIcon aria-hidden="true" />
              ) : (
                <PlayIcon aria-hidden="true" />
              )}
              {schedule.active ? "Pause" : "Resume"}
            </Button>
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" aria-label={`Delete schedule: ${title}`}>
                  <Trash2Icon aria-hidden="true" />
                  Delete
                </Button>
              }
              title="Delete this schedule?"
              description="Its runs stop and its alert rules are removed. Analyses and reports it made are kept. This cannot be undone."
              confirmLabel="Delete schedule"
              onConfirm={remove}
            />
          </>
        )}
      </div>
      {showRuns && (
        <div id={runsId} className="rounded-lg border p-3 sm:p-4">
          <h4 className="mb-2 text-sm font-medium">Recent runs</h4>
          <RunsList scheduleId={schedule.id} />
        </div>
      )}
    </li>
  );
}
