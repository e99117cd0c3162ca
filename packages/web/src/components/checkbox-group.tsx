import { type ReactNode, useId } from "react";
import { cn } from "../lib/utils.ts";
import { CheckboxField } from "./checkbox-field.tsx";
import { FieldError } from "./form.tsx";

/**
 * A set of values chosen with checkboxes, in the order of `options`, with the group's error tied to
 * it. `box` puts a long list in a bordered box that scrolls (classes such as its height).
 */
export function CheckboxGroup<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  error,
  box,
}: {
  legend: ReactNode;
  name?: string;
  /** `disabled`: shown but not choosable, its description saying why. */
  options: readonly { value: T; label: string; description?: string | undefined; disabled?: boolean }[];
  value: ReadonlySet<T>;
  onChange: (value: Set<T>) => void;
  error?: string | undefined;
  box?: string;
}) {
  const errorId = useId();
  function toggle(option: T, on: boolean) {
    const next = new Set(value);
    if (on) next.add(option);
    else next.delete(option);
    onChange(next);
  }
  const checkboxes = options.map((option) => (
    <CheckboxField
      key={option.value}
      name={name}
      label={option.label}
      description={option.description}
      disabled={option.disabled}
      checked={value.has(option.value)}
      onCheckedChange={(on) => toggle(option.value, on)}
    />
  ));
  return (
    <fieldset className={box ? "grid gap-2" : "grid gap-3"} aria-describedby={error ? errorId : undefined}>
      <legend className={cn("text-sm font-medium", box ? "mb-1" : "mb-3")}>{legend}</legend>
      {box ? (
        <div className={cn("grid gap-2 overflow-y-auto rounded-md border p-3", box)}>{checkboxes}</div>
      ) : (
        checkboxes
      )}
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}
