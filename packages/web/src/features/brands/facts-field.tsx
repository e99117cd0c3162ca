import { useId } from "react";
import { Field, FieldError } from "../../components/form.tsx";
import { TextareaField } from "../../components/textarea-field.tsx";
import { Label } from "../../components/ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select.tsx";
import type { FactsDraft } from "./brand-draft.ts";

const UNSTATED = "unstated";

/** The brand's fact sheet: what answers are checked against (the Opportunities page lists what they get wrong). */
export function FactsField({
  value,
  onChange,
  errors,
}: {
  value: FactsDraft;
  onChange: (value: FactsDraft) => void;
  errors: Record<string, string>;
}) {
  const id = useId();
  const set = <K extends keyof FactsDraft>(key: K, next: FactsDraft[K]) => onChange({ ...value, [key]: next });
  return (
    <div className="grid gap-4">
      <div className="grid gap-4 md:grid-cols-2">
        <Field
          label="Founded in"
          inputMode="numeric"
          maxLength={4}
          placeholder="e.g. 2015"
          value={value.foundedYear}
          onChange={(event) => set("foundedYear", event.target.value)}
          error={errors["facts.founded_year"]}
        />
        <Field
          label="Headquarters"
          autoComplete="off"
          placeholder="e.g. Austin, Texas"
          hint="City first."
          maxLength={120}
          value={value.headquarters}
          onChange={(event) => set("headquarters", event.target.value)}
          error={errors["facts.headquarters"]}
        />
      </div>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">Starting price</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          <Field
            label="Amount"
            inputMode="decimal"
            placeholder="e.g. 29"
            value={value.priceAmount}
            onChange={(event) => set("priceAmount", event.target.value)}
          />
          <Field
            label="Currency"
            autoComplete="off"
            maxLength={3}
            placeholder="USD"
            className="[&_input]:uppercase"
            value={value.priceCurrency}
            onChange={(event) => set("priceCurrency", event.target.value)}
          />
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-period`}>Per</Label>
            <Select
              value={value.pricePeriod === "" ? UNSTATED : value.pricePeriod}
              onValueChange={(next) => set("pricePeriod", next === UNSTATED ? "" : (next as FactsDraft["pricePeriod"]))}
            >
              <SelectTrigger id={`${id}-period`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="month">Month</SelectItem>
                <SelectItem value="year">Year</SelectItem>
                <SelectItem value="once">One-time</SelectItem>
                <SelectItem value={UNSTATED}>Not stated</SelectItem>
              </SelectContent>
            </Select>
          </div>
        </div>
        <p className="text-xs text-muted-foreground">
          The lowest paid plan. An answer quoting a price more than 10% off in the same currency is flagged.
        </p>
        <FieldError message={errors["facts.starting_price"]} />
      </fieldset>
      <div className="grid gap-1.5 sm:max-w-xs">
        <Label htmlFor={`${id}-free`}>Free plan</Label>
        <Select
          value={value.freePlan === "" ? UNSTATED : value.freePlan}
          onValueChange={(next) => set("freePlan", next === UNSTATED ? "" : (next as FactsDraft["freePlan"]))}
        >
          <SelectTrigger id={`${id}-free`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={UNSTATED}>Not stated</SelectItem>
            <SelectItem value="yes">There is a free plan</SelectItem>
            <SelectItem value="no">There is no free plan</SelectItem>
          </SelectContent>
        </Select>
      </div>
      <TextareaField
        label="Key features, one per line"
        rows={3}
        placeholder={"Slack integration\nmobile app"}
        hint="In a few words each. An answer saying the brand lacks one of them is flagged."
        value={value.features}
        onChange={(event) => set("features", event.target.value)}
        error={errors["facts.features"] ?? errors.facts}
      />
    </div>
  );
}
