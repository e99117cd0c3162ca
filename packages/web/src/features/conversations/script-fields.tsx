import { PlusIcon, Trash2Icon } from "lucide-react";
import { useId } from "react";
import { Field, FieldError } from "../../components/form.tsx";
import { TextareaField } from "../../components/textarea-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import { MAX_FOLLOW_UPS } from "./conversations-api.ts";
import { type FollowUpDraft, MAX_TURN_LENGTH, rowKey, type VariableDraft } from "./script-draft.ts";

/** The follow-ups, added and removed in place (1 to 5), with the placeholders they may use. */
export function FollowUpsField({
  rows,
  onChange,
  errors,
}: {
  rows: FollowUpDraft[];
  onChange: (rows: FollowUpDraft[]) => void;
  errors: Record<string, string>;
}) {
  const hintId = useId();
  return (
    <fieldset className="grid gap-3" aria-describedby={hintId}>
      <legend className="mb-1 text-sm font-medium">Follow-ups</legend>
      <p id={hintId} className="-mt-2 text-xs text-muted-foreground">
        Placeholders: <code>{"{brand}"}</code> your brand, <code>{"{top_competitor_named}"}</code> the competitor the
        previous answer named first, <code>{"{first_named}"}</code> the first tracked brand it named (if it named none,
        the conversation stops there), and <code>{"{name}"}</code> for a variable below.
      </p>
      <ol className="grid gap-3">
        {rows.map((row, index) => (
          <li key={row.key} className="flex items-start gap-2">
            <TextareaField
              className="min-w-0 flex-1"
              label={`Follow-up ${index + 1}`}
              rows={2}
              maxLength={MAX_TURN_LENGTH}
              placeholder={
                index === 0
                  ? "e.g. We can't use {top_competitor_named}; what else?"
                  : "e.g. Which of those is cheapest?"
              }
              value={row.text}
              onChange={(event) =>
                onChange(rows.map((r) => (r.key === row.key ? { ...r, text: event.target.value } : r)))
              }
              error={errors[`turns.${index + 1}`]}
            />
            <Button
              variant="ghost"
              size="icon"
              className="mt-6"
              aria-label={`Remove follow-up ${index + 1}`}
              onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
            >
              <Trash2Icon aria-hidden="true" />
            </Button>
          </li>
        ))}
      </ol>
      <FieldError message={errors.followUps} />
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={rows.length >= MAX_FOLLOW_UPS}
          onClick={() => onChange([...rows, { key: rowKey(), text: "" }])}
        >
          <PlusIcon aria-hidden="true" />
          Add a follow-up
        </Button>
        <span className="text-xs text-muted-foreground">
          {rows.length} of {MAX_FOLLOW_UPS}
        </span>
      </div>
    </fieldset>
  );
}

/** The script's own words for its questions: `tool` = `Slack`, written `{tool}` in a turn. */
export function VariablesField({
  rows,
  onChange,
  errors,
}: {
  rows: VariableDraft[];
  onChange: (rows: VariableDraft[]) => void;
  errors: Record<string, string>;
}) {
  const hintId = useId();
  const update = (key: number, patch: Partial<VariableDraft>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <fieldset className="grid gap-3" aria-describedby={hintId}>
      <legend className="mb-1 text-sm font-medium">Variables (optional)</legend>
      <p id={hintId} className="-mt-2 text-xs text-muted-foreground">
        Words you reuse in the questions: name <code>tool</code> with the value <code>Slack</code>, then write{" "}
        <code>{"{tool}"}</code>.
      </p>
      {rows.length > 0 && (
        <ol className="grid gap-3">
          {rows.map((row, index) => (
            <li key={row.key} className="flex items-start gap-2">
              <Field
                className="min-w-0 flex-1"
                label={`Variable ${index + 1} name`}
                autoComplete="off"
                maxLength={40}
                placeholder="e.g. tool"
                value={row.name}
                onChange={(event) => update(row.key, { name: event.target.value })}
                error={errors[`variables.${index}`]}
              />
              <Field
                className="min-w-0 flex-1"
                label={`Variable ${index + 1} value`}
                autoComplete="off"
                maxLength={200}
                placeholder="e.g. Slack"
                value={row.value}
                onChange={(event) => update(row.key, { value: event.target.value })}
              />
              <Button
                variant="ghost"
                size="icon"
                className="mt-6"
                aria-label={`Remove variable ${index + 1}`}
                onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
              >
                <Trash2Icon aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ol>
      )}
      <FieldError message={errors.variables} />
      <div>
        <Button variant="outline" size="sm" onClick={() => onChange([...rows, { key: rowKey(), name: "", value: "" }])}>
          <PlusIcon aria-hidden="true" />
          Add a variable
        </Button>
      </div>
    </fieldset>
  );
}
