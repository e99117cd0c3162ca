import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { CalendarClockIcon } from "lucide-react";
import { toast } from "sonner";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Progress } from "../../components/ui/progress.tsx";
import { formatNumber, formatUsd, plural } from "../../lib/format.ts";
import { keys } from "../../lib/queries.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { allChangesKey, type Change, scheduleChangeSamples } from "./experiments-api.ts";

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

function Side({ label, side }: { label: string; side: { answers: number; needed: number } }) {
  const share = side.needed === 0 ? 100 : Math.min(100, (side.answers / side.needed) * 100);
  const text = `${formatNumber(side.answers)} of ${formatNumber(side.needed)} answers`;
  return (
    <div className="grid gap-1.5">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span className="font-medium">{label}</span>
        <span className="text-muted-foreground tabular-nums">{text}</span>
      </div>
      <Progress value={share} aria-label={`${label}: ${text}`} aria-valuetext={text} />
    </div>
  );
}

/** What the scheduled runs cost, in words: "about 420 credits (≈ $1.20 at the vendors)". */
function costText(plan: Change["plan"]): string {
  // The sandbox and local models cost nothing at a vendor: nothing to say then.
  const usd = plan.cost_usd === null || plan.cost_usd === 0 ? "" : ` (≈ ${formatUsd(plan.cost_usd)} at the vendors)`;
  return `${plural(plan.credits, "credit")}${usd}`;
}

/**
 * The sample plan: the answers the experiment needs to see the planned effect (per prompt and
 * engine, before and again after), what it has, what the missing ones cost, and the button that
 * schedules them, or where the schedule already collecting them is.
 */
export function SamplePlan({ change }: { change: Change }) {
  const { workspaceId, project, canEdit } = useBrand();
  const { plan } = change;
  const scheduled = plan.schedule_id !== null;
  const canSchedule = !scheduled && change.status === "collecting" && plan.answers_per_prompt !== null;
  return (
    <SectionCard
      titleId="plan-title"
      title="Sample plan"
      description={`The answers the experiment needs to see an effect of ${Math.round(plan.effect * 100)} points, and what it has.`}
      contentClassName="grid gap-4"
    >
      <p className="text-sm wrap-anywhere">{plan.message}</p>
      {plan.answers_per_prompt !== null && (
        <div className="grid gap-3 sm:grid-cols-2">
          <Side label="Before the change" side={plan.before} />
          <Side label="After the change" side={plan.after} />
        </div>
      )}
      {scheduled ? (
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md border bg-muted/40 p-3 text-sm">
          <CalendarClockIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span>
            The extra samples are scheduled daily
            {plan.samples_per_run === null
              ? ""
              : ` (${plural(plan.samples_per_run, "answer")} per prompt and engine a run)`}
            ; the schedule stops itself when the result is ready.
          </span>
          <Link
            to="/w/$workspaceId/brands/$brandId/monitoring"
            params={{ workspaceId, brandId: project.id }}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            See it in Monitoring
          </Link>
        </div>
      ) : canSchedule && canEdit && plan.credits > 0 ? (
        <div className="flex flex-wrap items-center gap-3">
          <ScheduleSamplesDialog change={change} />
          <span className="text-sm text-muted-foreground">Costs about {costText(plan)} over the coming days.</span>
        </div>
      ) : null}
    </SectionCard>
  );
}

function ScheduleSamplesDialog({ change }: { change: Change }) {
  return (
    <FormDialog
      trigger={
        <Button>
          <CalendarClockIcon aria-hidden="true" />
          Schedule the extra samples
        </Button>
      }
    >
      {(close) => <ScheduleSamplesForm change={change} onDone={close} />}
    </FormDialog>
  );
}

function ScheduleSamplesForm({ change, onDone }: { change: Change; onDone: () => void }) {
  const { workspaceId, project } = useBrand();
  const queryClient = useQueryClient();
  const { run, pending, errors, formError } = useSubmit();
  const timezone = browserTimeZone();
  const { draft, text } = useDraft({ at: "09:00" }, errors);
  const prompts = change.prompts.length + change.control_prompts.length;

  const submit = () =>
    run(
      async () => {
        await scheduleChangeSamples(workspaceId, project.id, change.id, { at: draft.at, timezone });
        await queryClient.invalidateQueries({ queryKey: allChangesKey(workspaceId, project.id) });
        // The new schedule is Monitoring's.
        void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "monitoring") });
        toast.success("The extra samples are scheduled: every day until the result is ready.");
        onDone();
      },
      {
        check: () => (/^([01]\d|2[0-3]):[0-5]\d$/.test(draft.at) ? {} : { at: "Choose a time of day." }),
        fields: ["at"],
      },
    );

  return (
    <DialogForm
      title="Schedule the extra samples"
      description={`Every day, the ${prompts} treated and control prompts are asked together on the change's engines, until the answers planned are in. Its runs cost one credit per answer, as any analysis: about ${costText(change.plan)} in all.`}
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Schedule daily"
    >
      <Field
        label="Time of day"
        type="time"
        name="samples-at"
        hint={`In your time zone (${timezone}).`}
        className="max-w-48"
        {...text("at")}
      />
    </DialogForm>
  );
}
