import { useId } from "react";
import { CheckboxField } from "../../components/checkbox-field.tsx";
import { EnginesField } from "../../components/engines-field.tsx";
import { Field, FieldError, Form, FormError, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogActions } from "../../components/form-dialog.tsx";
import { SelectField } from "../../components/select-field.tsx";
import { TextareaField } from "../../components/textarea-field.tsx";
import { engineName, plural } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { AlertRulesField } from "./alert-rules-field.tsx";
import {
  checkSchedule,
  type Frequency,
  type ScheduleDraft,
  scheduleServerErrors,
  WEEKDAYS,
  weekdayName,
} from "./schedule-draft.ts";

const FREQUENCIES: { value: Frequency; label: string }[] = [
  { value: "hour", label: "Every hour" },
  { value: "day", label: "Every day" },
  { value: "week", label: "Every week" },
  { value: "cron", label: "Cron expression" },
];

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return ["UTC"];
  }
}

/** When a schedule runs, what it asks, and its alert rules; the server's issues land on their fields. */
export function ScheduleForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial: ScheduleDraft;
  submitLabel: string;
  onSubmit: (draft: ScheduleDraft) => Promise<void>;
}) {
  const { project, engines } = useBrand();
  const id = useId();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, set, text } = useDraft(initial, errors);

  const submit = () =>
    run(() => onSubmit(draft), {
      check: () => checkSchedule(draft),
      place: scheduleServerErrors,
      summary: "Some fields need your attention.",
    });

  return (
    <Form onSubmit={submit} className="grid gap-5">
      <FormError message={formError} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Frequency"
          value={draft.frequency}
          onChange={(value) => set("frequency", value)}
          options={FREQUENCIES}
          error={errors.frequency}
        />
        {draft.frequency === "week" && (
          <SelectField
            label="Weekday"
            value={draft.weekday}
            onChange={(value) => set("weekday", value)}
            options={WEEKDAYS.map((day) => ({ value: day, label: weekdayName(day) }))}
            error={errors.weekday}
          />
        )}
        {(draft.frequency === "day" || draft.frequency === "week") && (
          <Field label="Time of day" type="time" {...text("at")} />
        )}
        {draft.frequency === "cron" && (
          <Field
            label="Cron expression"
            autoComplete="off"
            placeholder="0 9 * * 1-5"
            hint="Five fields: minute, hour, day of month, month, day of week. At most once an hour."
            className="[&_input]:font-mono"
            {...text("cron")}
          />
        )}
        <div className="grid gap-1.5">
          <Field
            label="Time zone"
            autoComplete="off"
            list={`${id}-zones`}
            hint="IANA name, e.g. Europe/Paris or America/New_York."
            {...text("timezone")}
          />
          <datalist id={`${id}-zones`}>
            {timeZones().map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </div>
      </div>
      <div className="grid gap-3">
        <CheckboxField
          label="Ask the brand's engines"
          description={`At each run, the engines set on the brand then (now: ${project.engines.map(engineName).join(", ")}).`}
          checked={draft.brandEngines}
          onCheckedChange={(on) => set("brandEngines", on)}
        />
        {!draft.brandEngines && (
          <EnginesField
            engines={engines}
            value={draft.engines}
            onChange={(value) => set("engines", value)}
            error={errors.engines}
          />
        )}
        {draft.brandEngines && <FieldError message={errors.engines} />}
      </div>
      <div className="grid gap-3">
        <CheckboxField
          label="Ask the brand's prompts"
          description={`At each run, the brand's prompts then (now: ${plural(project.prompts.length, "prompt")}).`}
          checked={draft.brandPrompts}
          onCheckedChange={(on) => set("brandPrompts", on)}
        />
        {!draft.brandPrompts && (
          <TextareaField label="Prompts for this schedule" rows={5} hint="One per line." {...text("prompts")} />
        )}
        {draft.brandPrompts && <FieldError message={errors.prompts} />}
      </div>
      <Field
        label="Samples"
        type="number"
        inputMode="numeric"
        min={1}
        max={10}
        className="[&_input]:max-w-40"
        hint="Times each prompt is asked of each engine per run (1–10); each answer costs one credit."
        {...text("samples")}
      />
      <AlertRulesField
        rules={draft.rules}
        onChange={(rules) => set("rules", rules)}
        competitors={project.competitors.map((c) => c.name)}
        engines={engines}
        errors={errors}
      />
      <CheckboxField
        label="Use the vendors' batch APIs"
        description="ChatGPT, Claude and Gemini answer through their batch APIs: about half the price, but a run completes within 24 hours instead of minutes. Other engines are asked at once."
        checked={draft.batch}
        onCheckedChange={(on) => set("batch", on)}
      />
      <CheckboxField
        label="Active"
        description="Runs on its schedule. Pause it to stop the runs without losing its settings."
        checked={draft.active}
        onCheckedChange={(on) => set("active", on)}
      />
      <DialogActions type="submit" pending={pending} label={submitLabel} />
    </Form>
  );
}
