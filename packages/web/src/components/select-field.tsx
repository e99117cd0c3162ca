import { type ReactNode, useId } from "react";
import { cn } from "../lib/utils.ts";
import { FieldError } from "./form.tsx";
import { Label } from "./ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "./ui/select.tsx";

/** A labelled choice of one option, with its error tied to it for screen readers. */
export function SelectField<T extends string>({
  label,
  value,
  onChange,
  options,
  error,
  hint,
  className,
  triggerClassName,
  contentClassName,
  placeholder,
}: {
  label: string;
  value: T;
  onChange: (value: T) => void;
  /** `disabled`: listed but not choosable (its label says why). */
  options: readonly { value: T; label: ReactNode; disabled?: boolean }[];
  error?: string | undefined;
  /** A line under it saying what the choice does. */
  hint?: ReactNode;
  className?: string;
  triggerClassName?: string;
  contentClassName?: string;
  /** Shown while nothing is chosen (`value` is ""). */
  placeholder?: string;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(" ");
  return (
    <div className={cn("grid gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      {/* Radix gives back one of the values it was given. */}
      <Select value={value} onValueChange={(next) => onChange(next as T)}>
        <SelectTrigger id={id} className={triggerClassName} aria-describedby={describedBy || undefined}>
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent className={contentClassName}>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {hint && (
        <div id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </div>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
