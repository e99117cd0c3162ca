import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { toast } from "sonner";
import { CheckboxField } from "../../components/checkbox-field.tsx";
import { CheckboxGroup } from "../../components/checkbox-group.tsx";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { TextareaField } from "../../components/textarea-field.tsx";
import { useBrand } from "../brand-page/brand-context.tsx";
import { type ChangeDraft, changeBodyOf, changeServerErrors, checkChange, emptyChange } from "./change-draft.ts";
import { allChangesKey, createChange } from "./experiments-api.ts";

/** What "I did this" on an opportunity fills in. */
export interface ChangePrefill {
  title: string;
  opportunityId: string;
}

/**
 * "Record a change": what was done and when, the pages it touched, the prompts it should move and
 * those it should not, the effect to look for. Recorded, it opens the change's page.
 */
export function RecordChangeDialog({ trigger, prefill }: { trigger: ReactNode; prefill?: ChangePrefill }) {
  return (
    <FormDialog trigger={trigger} className="max-h-[92vh] overflow-y-auto sm:max-w-2xl">
      {(close) => <RecordChangeForm prefill={prefill} onDone={close} />}
    </FormDialog>
  );
}

function RecordChangeForm({ prefill, onDone }: { prefill: ChangePrefill | undefined; onDone: () => void }) {
  const { workspaceId, project } = useBrand();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, set, text } = useDraft<ChangeDraft>(emptyChange(new Date(), prefill), errors);
  const paused = new Set(project.paused_prompts ?? []);
  const prompts = project.prompts.filter((p) => !paused.has(p));
  const options = prompts.map((p) => ({ value: p, label: p }));
  const fromOpportunity = draft.opportunityId !== "";

  const submit = () =>
    run(
      async () => {
        const change = await createChange(workspaceId, project.id, changeBodyOf(draft));
        await queryClient.invalidateQueries({ queryKey: allChangesKey(workspaceId, project.id) });
        toast.success(`“${change.title}” is recorded: its figures are computed from the answers.`);
        onDone();
        await navigate({
          to: "/w/$workspaceId/brands/$brandId/experiments/$changeId",
          params: { workspaceId, brandId: project.id, changeId: change.id },
        });
      },
      {
        check: () => checkChange(draft),
        place: changeServerErrors,
        summary: "Some fields need attention.",
      },
    );

  return (
    <DialogForm
      title="Record a change"
      description="Sightline measures its effect: how much more the prompts it should move (treated) change than those it should not (control), before against after."
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Record the change"
    >
      <Field
        label="What did you change?"
        name="change-title"
        autoComplete="off"
        placeholder="e.g. Rewrote the pricing page"
        {...text("title")}
      />
      <Field
        label="When"
        type="datetime-local"
        name="change-at"
        hint="When it went live, in your time zone. Answers before it are compared with answers after it."
        {...text("changedAt", "changed_at")}
      />
      <TextareaField
        label="Changed pages (optional)"
        name="change-pages"
        rows={3}
        placeholder={`https://${project.primary_domain}/pricing`}
        hint="The brand's pages that changed, one address a line. Their citations in the answers are measured too."
        {...text("pages")}
      />
      <Field
        label="Placement (optional)"
        name="change-placement"
        type="url"
        autoComplete="off"
        placeholder="https://review-site.example/best-crm"
        hint="An outside page that now covers the brand: a review, a listicle, an article."
        {...text("placementUrl", "placement_url")}
      />
      <div className="grid gap-3">
        <CheckboxField
          label={fromOpportunity ? "Treat the opportunity's prompts" : "Let Sightline propose the treated prompts"}
          description={
            fromOpportunity
              ? "The prompts of the opportunity you acted on are the ones the change should move."
              : "The prompts whose answers cite the changed pages (or the placement), then those sharing their words. Untick to choose them."
          }
          checked={draft.propose}
          onCheckedChange={(on) => set("propose", on)}
        />
        {draft.propose && errors.prompts && <p className="text-xs font-medium text-destructive">{errors.prompts}</p>}
        {!draft.propose && (
          <CheckboxGroup
            legend="Treated prompts: those the change should move"
            options={options}
            value={new Set(draft.treated)}
            onChange={(value) => {
              const chosen = prompts.filter((p) => value.has(p));
              set("treated", chosen);
              set(
                "control",
                draft.control.filter((p) => !value.has(p)),
              );
            }}
            error={errors.prompts}
            box="max-h-48"
          />
        )}
      </div>
      <div className="grid gap-3">
        <CheckboxField
          label="Compare with all the other prompts"
          description="The control prompts, which the change should not move, are the brand's other active prompts. Untick to choose them."
          checked={draft.restAsControl}
          onCheckedChange={(on) => set("restAsControl", on)}
        />
        {draft.restAsControl && errors.control_prompts && (
          <p className="text-xs font-medium text-destructive">{errors.control_prompts}</p>
        )}
        {!draft.restAsControl && (
          <CheckboxGroup
            legend="Control prompts: those the change should not move"
            options={draft.propose ? options : options.filter((o) => !draft.treated.includes(o.value))}
            value={new Set(draft.control)}
            onChange={(value) =>
              set(
                "control",
                prompts.filter((p) => value.has(p)),
              )
            }
            error={errors.control_prompts}
            box="max-h-48"
          />
        )}
      </div>
      <Field
        label="Effect to detect (points)"
        name="change-effect"
        type="number"
        inputMode="decimal"
        min={2}
        max={100}
        className="max-w-56"
        placeholder="Let Sightline choose"
        hint="The smallest change in visibility worth knowing about: the sample plan asks enough answers to see it. Empty: 10 points, or the smallest your prompts can show."
        {...text("effect")}
      />
    </DialogForm>
  );
}
