import { useId, useState } from "react";
import { CheckboxField } from "../../components/checkbox-field.tsx";
import { EnginesField } from "../../components/engines-field.tsx";
import { Field, FieldError, Form, FormError } from "../../components/form.tsx";
import { Spinner } from "../../components/page-states.tsx";
import { TextareaField } from "../../components/textarea-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import { DialogClose, DialogFooter } from "../../components/ui/dialog.tsx";
import { Label } from "../../components/ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select.tsx";
import { engineName, plural } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { AlertRulesField } from "./alert-rules-field.tsx";
import {
  checkSchedule,
  type Frequency,
  type ScheduleDraft,
  scheduleServerErrors,
  WEEKDAYS,
  type Weekday,
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
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);
  const set = <K extends keyof ScheduleDraft>(key: K, value: ScheduleDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  async function submit() {
    const found = checkSchedule(draft);
    setErrors(found);
    setFormError(Object.keys(found).length > 0 ? "Some fields need your attention." : undefined);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      await onSubmit(draft);
    } catch (error) {
      const placed = scheduleServerErrors(error);
      setErrors(placed.fields);
      setFormError(placed.message ?? "Some fields need your attention.");
    } finally {
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="grid gap-5">
      <FormError message={formError} />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-frequency`}>Frequency</Label>
          <Select value={draft.frequency} onValueChange={(value) => set("frequency", value as Frequency)}>
            <SelectTrigger id={`${id}-frequency`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {FREQUENCIES.map((f) => (
                <SelectItem key={f.value} value={f.value}>
                  {f.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <FieldError message={errors.frequency} />
        </div>
        {draft.frequency === "week" && (
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-weekday`}>Weekday</Label>
            <Select value={draft.weekday} onValueChange={(value) => set("weekday", value as Weekday)}>
              <SelectTrigger id={`${id}-weekday`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {WEEKDAYS.map((day) => (
                  <SelectItem key={day} value={day}>
                    {weekdayName(day)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FieldError message={errors.weekday} />
          </div>
        )}
        {(draft.frequency === "day" || draft.frequency === "week") && (
          <Field
            label="Time of day"
            type="time"
            value={draft.at}
            onChange={(event) => set("at", event.target.value)}
            error={errors.at}
          />
        )}
        {draft.frequency === "cron" && (
          <Field
            label="Cron expression"
            autoComplete="off"
            placeholder="0 9 * * 1-5"
            hint="Five fields: minute, hour, day of month, month, day of week. At most once an hour."
            className="[&_input]:font-mono"
            value={draft.cron}
            onChange={(event) => set("cron", event.target.value)}
            error={errors.cron}
          />
        )}
        <div className="grid gap-1.5">
          <Field
            label="Time zone"
            autoComplete="off"
            list={`${id}-zones`}
            hint="IANA name, e.g. Europe/Paris or America/New_York."
            value={draft.timezone}
            onChange={(event) => set("timezone", event.target.value)}
            error={errors.timezone}
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
          <TextareaField
            label="Prompts for this schedule"
            rows={5}
            hint="One per line."
            value={draft.prompts}
            onChange={(event) => set("prompts", event.target.value)}
            error={errors.prompts}
          />
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
        value={draft.samples}
        onChange={(event) => set("samples", event.target.value)}
        error={errors.samples}
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
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={pending}>
          {pending && <Spinner />}
          {submitLabel}
        </Button>
      </DialogFooter>
    </Form>
  );
}
