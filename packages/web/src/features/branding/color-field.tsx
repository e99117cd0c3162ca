import { useId } from "react";
import { FieldError } from "../../components/form.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";

const HEX = /^#[0-9a-f]{6}$/i;

export function isColor(value: string): boolean {
  return HEX.test(value.trim());
}

/**
 * A colour: the browser's picker for choosing by eye, beside its `#rrggbb` for pasting a brand
 * guide's exact value. Both edit the same value.
 */
export function ColorField({
  label,
  hint,
  value,
  onChange,
  error,
  disabled,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hintId, error ? errorId : undefined].filter(Boolean).join(" ");
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-center gap-2">
        <input
          type="color"
          aria-label={`${label}: pick`}
          aria-describedby={hintId}
          // The picker shows the last valid colour while the text is being typed.
          value={isColor(value) ? value.trim().toLowerCase() : "#000000"}
          onChange={(event) => onChange(event.target.value)}
          disabled={disabled}
          className="h-9 w-12 shrink-0 cursor-pointer rounded-md border border-input bg-card p-1 disabled:cursor-not-allowed disabled:opacity-50"
        />
        <Input
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          spellCheck={false}
          maxLength={7}
          disabled={disabled}
          className="w-28 font-mono"
        />
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        {hint}
      </p>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
