import { useQuery } from "@tanstack/react-query";
import { PlusIcon, Trash2Icon } from "lucide-react";
import { useId } from "react";
import { CheckboxField } from "../../components/checkbox-field.tsx";
import { EnginesField } from "../../components/engines-field.tsx";
import { Field, FieldError } from "../../components/form.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Label } from "../../components/ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select.tsx";
import { setupQuery } from "../../lib/queries.ts";
import {
  BRAND_RULE_TYPES,
  MAX_RULE_EMAILS,
  newRule,
  RULE_TYPES,
  type RuleDraft,
  type RuleType,
} from "./schedule-draft.ts";

const MAX_RULES = 20;

function RuleEditor({
  index,
  rule,
  onChange,
  onRemove,
  competitors,
  engines,
  errors,
}: {
  index: number;
  rule: RuleDraft;
  onChange: (rule: RuleDraft) => void;
  onRemove: () => void;
  competitors: readonly string[];
  engines: readonly string[];
  errors: Record<string, string>;
}) {
  const id = useId();
  const setup = useQuery(setupQuery);
  const emailOn = setup.data?.email_delivery ?? true;
  const error = (name: string) => errors[`rules.${index}.${name}`];
  const set = (patch: Partial<RuleDraft>) => onChange({ ...rule, ...patch });
  const described = RULE_TYPES.find((t) => t.type === rule.type)?.description;
  return (
    <fieldset className="grid gap-3 rounded-lg border p-3 sm:p-4">
      <legend className="px-1 text-sm font-medium">{`Alert rule ${index + 1}`}</legend>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-type`}>Condition</Label>
        <Select
          value={rule.type}
          onValueChange={(value) =>
            onChange({ ...newRule(value as RuleType, competitors[0] ?? ""), key: rule.key, engines: rule.engines })
          }
        >
          <SelectTrigger id={`${id}-type`} aria-describedby={`${id}-type-hint`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {RULE_TYPES.map((t) => (
              <SelectItem key={t.type} value={t.type}>
                {t.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <p id={`${id}-type-hint`} className="text-xs text-muted-foreground">
          {described} It fires once when the condition starts to hold.
        </p>
        <FieldError message={error("type")} />
      </div>
      {rule.type === "visibility_below" && (
        <Field
          label="Threshold (% of answers)"
          type="number"
          inputMode="decimal"
          min={0}
          max={100}
          step="any"
          className="[&_input]:max-w-56"
          value={rule.threshold}
          onChange={(event) => set({ threshold: event.target.value })}
          error={error("threshold")}
        />
      )}
      {(rule.type === "crawls_drop" || rule.type === "referrals_drop") && (
        <Field
          label="Fall (% against the week before)"
          type="number"
          inputMode="decimal"
          min={0}
          max={100}
          step="any"
          hint="Judged once the week before had at least 20."
          className="[&_input]:max-w-56"
          value={rule.threshold}
          onChange={(event) => set({ threshold: event.target.value })}
          error={error("threshold")}
        />
      )}
      {rule.type === "sentiment_below" && (
        <Field
          label="Threshold (sentiment, 0–100)"
          type="number"
          inputMode="decimal"
          min={0}
          max={100}
          step="any"
          hint="50 is neutral."
          className="[&_input]:max-w-56"
          value={rule.threshold}
          onChange={(event) => set({ threshold: event.target.value })}
          error={error("threshold")}
        />
      )}
      {rule.type === "visibility_drop" && (
        <>
          <Field
            label="Drop (percentage points)"
            type="number"
            inputMode="decimal"
            min={0}
            max={100}
            step="any"
            hint="Against the schedule's previous run."
            className="[&_input]:max-w-56"
            value={rule.points}
            onChange={(event) => set({ points: event.target.value })}
            error={error("points")}
          />
          <CheckboxField
            label="Only when statistically real"
            description="Fire only when the two runs' 95% intervals do not overlap."
            checked={rule.requireSignificance}
            onCheckedChange={(on) => set({ requireSignificance: on })}
          />
        </>
      )}
      {rule.type === "competitor_overtakes" && (
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-competitor`}>Competitor</Label>
          {competitors.length === 0 ? (
            <p className="text-sm text-muted-foreground">The brand has no competitors yet: add them in its settings.</p>
          ) : (
            <Select value={rule.competitor} onValueChange={(value) => set({ competitor: value })}>
              <SelectTrigger
                id={`${id}-competitor`}
                className="max-w-72"
                aria-invalid={error("competitor") ? true : undefined}
              >
                <SelectValue placeholder="Choose a competitor" />
              </SelectTrigger>
              <SelectContent>
                {competitors.map((name) => (
                  <SelectItem key={name} value={name}>
                    {name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
          <FieldError message={error("competitor")} />
        </div>
      )}
      {!BRAND_RULE_TYPES.includes(rule.type) && (
        <EnginesField
          legend="Engines (optional)"
          description="Judge each chosen engine on its own. None chosen: all engines together."
          purpose="filter"
          engines={engines}
          value={rule.engines}
          onChange={(value) => set({ engines: value })}
          error={error("engines")}
        />
      )}
      <Field
        label="E-mail alerts to (optional)"
        type="text"
        inputMode="email"
        autoComplete="off"
        placeholder="ops@example.com, cmo@example.com"
        hint={
          emailOn
            ? `Up to ${MAX_RULE_EMAILS} addresses, separated by commas.`
            : "This server cannot send e-mail (its operator has not set SMTP_URL)."
        }
        disabled={!emailOn && rule.emails.trim() === ""}
        value={rule.emails}
        onChange={(event) => set({ emails: event.target.value })}
        error={error("emails")}
      />
      <Field
        label="Post alerts to Slack (optional)"
        type="text"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://hooks.slack.com/services/…"
        hint="A Slack incoming-webhook URL (or a Slack-compatible one). It is kept secret: once saved, only its masked form is shown; leave it as it is to keep it."
        value={rule.slack}
        onChange={(event) => set({ slack: event.target.value })}
        error={error("slack")}
      />
      <div>
        <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove rule ${index + 1}`}>
          <Trash2Icon aria-hidden="true" />
          Remove rule
        </Button>
      </div>
    </fieldset>
  );
}

/** A schedule's alert rules: added, changed and removed in place. */
export function AlertRulesField({
  rules,
  onChange,
  competitors,
  engines,
  errors,
}: {
  rules: RuleDraft[];
  onChange: (rules: RuleDraft[]) => void;
  competitors: readonly string[];
  engines: readonly string[];
  errors: Record<string, string>;
}) {
  return (
    <div className="grid gap-3">
      <div>
        <h3 className="text-sm font-medium">Alert rules</h3>
        <p className="text-xs text-muted-foreground">
          Checked after each run; a rule that fires shows under Alerts, is sent to the webhooks that subscribe to
          alert.triggered, and is e-mailed and posted to Slack where the rule says so.
        </p>
      </div>
      <FieldError message={errors.rules} />
      {rules.length === 0 && <p className="text-sm text-muted-foreground">No alert rules.</p>}
      {rules.map((rule, index) => (
        <RuleEditor
          key={rule.key}
          index={index}
          rule={rule}
          competitors={competitors}
          engines={engines}
          errors={errors}
          onChange={(next) => onChange(rules.map((r, i) => (i === index ? next : r)))}
          onRemove={() => onChange(rules.filter((_, i) => i !== index))}
        />
      ))}
      {rules.length < MAX_RULES && (
        <div>
          <Button
            variant="outline"
            size="sm"
            onClick={() => onChange([...rules, newRule("visibility_drop", competitors[0] ?? "")])}
          >
            <PlusIcon aria-hidden="true" />
            Add alert rule
          </Button>
        </div>
      )}
    </div>
  );
}
