import { Field, FieldError, textOf } from "../../components/form.tsx";
import { SelectField } from "../../components/select-field.tsx";
import { TextareaField } from "../../components/textarea-field.tsx";
import type { FactsDraft } from "./brand-draft.ts";

const UNSTATED = "unstated" as const;

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
  const set = <K extends keyof FactsDraft>(key: K, next: FactsDraft[K]) => onChange({ ...value, [key]: next });
  const text = textOf(value, set, errors);
  return (
    <div className="grid gap-4">
      <div className="grid gap-4 md:grid-cols-2">
        <Field
          label="Founded in"
          inputMode="numeric"
          maxLength={4}
          placeholder="e.g. 2015"
          {...text("foundedYear", "facts.founded_year")}
        />
        <Field
          label="Headquarters"
          autoComplete="off"
          placeholder="e.g. Austin, Texas"
          hint="City first."
          maxLength={120}
          {...text("headquarters", "facts.headquarters")}
        />
      </div>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">Starting price</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label="Amount" inputMode="decimal" placeholder="e.g. 29" {...text("priceAmount")} />
          <Field
            label="Currency"
            autoComplete="off"
            maxLength={3}
            placeholder="USD"
            className="[&_input]:uppercase [&_input::placeholder]:normal-case"
            {...text("priceCurrency")}
          />
          <SelectField
            label="Per"
            value={value.pricePeriod || UNSTATED}
            onChange={(next) => set("pricePeriod", next === UNSTATED ? "" : next)}
            options={[
              { value: "month", label: "Month" },
              { value: "year", label: "Year" },
              { value: "once", label: "One-time" },
              { value: UNSTATED, label: "Not stated" },
            ]}
          />
        </div>
        <p className="text-xs text-muted-foreground">
          The lowest paid plan. An answer quoting a price more than 10% off in the same currency is flagged.
        </p>
        <FieldError message={errors["facts.starting_price"]} />
      </fieldset>
      <SelectField
        label="Free plan"
        className="sm:max-w-xs"
        value={value.freePlan || UNSTATED}
        onChange={(next) => set("freePlan", next === UNSTATED ? "" : next)}
        options={[
          { value: UNSTATED, label: "Not stated" },
          { value: "yes", label: "There is a free plan" },
          { value: "no", label: "There is no free plan" },
        ]}
      />
      <TextareaField
        label="Key features, one per line"
        rows={3}
        placeholder={"e.g. Slack integration\ne.g. mobile app"}
        hint="In a few words each. An answer saying the brand lacks one of them is flagged."
        {...text("features", "facts.features")}
        error={errors["facts.features"] ?? errors.facts}
      />
    </div>
  );
}
