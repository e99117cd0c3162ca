import { useId } from "react";
import { Checkbox } from "./ui/checkbox.tsx";
import { Label } from "./ui/label.tsx";

/** A checkbox with its label and a line saying what it means. */
export function CheckboxField({
  label,
  description,
  checked,
  onCheckedChange,
  name,
  disabled = false,
}: {
  label: string;
  description?: string | undefined;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  name?: string | undefined;
  /** Shown but not choosable; the description says why. */
  disabled?: boolean | undefined;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id={id}
        name={name}
        checked={checked}
        disabled={disabled}
        onCheckedChange={(value) => onCheckedChange(value === true)}
        aria-describedby={description ? `${id}-description` : undefined}
        className="mt-0.5"
      />
      <div className="grid gap-0.5">
        <Label htmlFor={id} className={disabled ? "text-muted-foreground" : undefined}>
          {label}
        </Label>
        {description && (
          <p id={`${id}-description`} className="text-xs text-muted-foreground">
            {description}
          </p>
        )}
      </div>
    </div>
  );
}
