import { useId } from "react";
import { engineName } from "../lib/format.ts";
import { CheckboxField } from "./checkbox-field.tsx";
import { FieldError } from "./form.tsx";

/** Engines as checkboxes, in the order given (the workspace's plan), with the group's error. */
export function EnginesField({
  legend = "Engines",
  description,
  engines,
  value,
  onChange,
  error,
}: {
  legend?: string;
  description?: string;
  engines: readonly string[];
  value: readonly string[];
  onChange: (engines: string[]) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const describedBy = [description ? `${id}-description` : undefined, error ? `${id}-error` : undefined]
    .filter(Boolean)
    .join(" ");
  function toggle(engine: string, on: boolean) {
    const next = new Set(value);
    if (on) next.add(engine);
    else next.delete(engine);
    onChange(engines.filter((name) => next.has(name)));
  }
  return (
    <fieldset className="grid gap-2" aria-describedby={describedBy || undefined}>
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {description && (
        <p id={`${id}-description`} className="-mt-1 mb-1 text-xs text-muted-foreground">
          {description}
        </p>
      )}
      <div className="grid gap-2.5 sm:grid-cols-2">
        {engines.map((engine) => (
          <CheckboxField
            key={engine}
            name="engines"
            label={engineName(engine)}
            checked={value.includes(engine)}
            onCheckedChange={(on) => toggle(engine, on)}
          />
        ))}
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}
