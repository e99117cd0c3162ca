import { AlertCircleIcon } from "lucide-react";
import { type ComponentProps, type FormEvent, type ReactNode, useId } from "react";
import { cn } from "../lib/utils.ts";
import { Input } from "./ui/input.tsx";
import { Label } from "./ui/label.tsx";

interface FieldProps extends Omit<ComponentProps<"input">, "id"> {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  /** Rendered under the input, inside its description (e.g. password rules). */
  after?: ReactNode;
}

/** A labelled input with its hint and its error, both tied to it for screen readers. */
export function Field({ label, hint, error, after, className, ...input }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint || after ? hintId : undefined, error ? errorId : undefined].filter(Boolean).join(" ");
  return (
    <div className={cn("grid gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy || undefined} {...input} />
      {(hint || after) && (
        <div id={hintId} className="text-xs text-muted-foreground">
          {hint}
          {after}
        </div>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

export function FieldError({ id, message }: { id?: string; message?: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="flex items-start gap-1 text-xs font-medium text-destructive">
      <AlertCircleIcon className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      {message}
    </p>
  );
}

/** The error of a whole form, announced when it appears. */
export function FormError({ message }: { message?: string | undefined }) {
  if (!message) return null;
  return (
    <div
      role="alert"
      className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive"
    >
      <AlertCircleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{message}</span>
    </div>
  );
}

/**
 * A form that validates in code (no browser bubbles): after each submit, the first field marked invalid
 * gets the focus, so keyboard and screen-reader users land on what needs fixing.
 */
export function Form({
  onSubmit,
  ...props
}: Omit<ComponentProps<"form">, "onSubmit" | "noValidate"> & { onSubmit: () => unknown }) {
  async function handle(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    await onSubmit();
    requestAnimationFrame(() => {
      if (form.isConnected) form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    });
  }
  return <form noValidate onSubmit={handle} {...props} />;
}
