import { AlertCircleIcon } from "lucide-react";
import { type ComponentProps, type FormEvent, type ReactNode, useId, useState } from "react";
import { formErrors } from "../lib/api.ts";
import { cn } from "../lib/utils.ts";
import { Spinner } from "./page-states.tsx";
import { Button } from "./ui/button.tsx";
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

/** A button that shows a spinner and is disabled while what it started runs. */
export function PendingButton({
  pending,
  disabled,
  children,
  ...button
}: ComponentProps<typeof Button> & { pending: boolean }) {
  return (
    <Button disabled={pending || disabled} {...button}>
      {pending && <Spinner />}
      {children}
    </Button>
  );
}

type Issues = Record<string, string>;

interface SubmitOptions {
  /** Checks the values before anything is sent: the issues by field name; any issue stops the submit. */
  check?: () => Partial<Issues>;
  /** The fields the form shows: the server's issues on them go next to them, any other error on top. */
  fields?: readonly string[];
  /** Places a failed send on the fields and the form, when `fields` is not enough. */
  place?: (error: unknown) => { fields: Issues; message?: string | undefined };
  /** The form's message when some fields have issues and nothing more is to be said (long forms). */
  summary?: string;
}

/**
 * A form's submit with its pending and error states: check, send, and place what failed next to its
 * field or on top of the form (`FormError`). Plain state, not `useMutation`: `Form` moves the focus to
 * the first invalid field right after the submit, so the errors must be set when `run` returns.
 */
export function useSubmit() {
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Issues>({});
  const [formError, setFormError] = useState<string>();

  async function run(send: () => Promise<unknown>, { check, fields = [], place, summary }: SubmitOptions = {}) {
    const found = Object.fromEntries(Object.entries(check?.() ?? {}).filter(([, issue]) => issue)) as Issues;
    const invalid = Object.keys(found).length > 0;
    setErrors(found);
    setFormError(invalid ? summary : undefined);
    if (invalid) return;
    setPending(true);
    try {
      await send();
    } catch (error) {
      const placed = place ? place(error) : formErrors(error, fields);
      setErrors(placed.fields);
      setFormError(placed.message ?? (Object.keys(placed.fields).length > 0 ? summary : undefined));
    } finally {
      setPending(false);
    }
  }

  return { run, pending, errors, formError, setFormError };
}

type TextKey<D> = { [K in keyof D]-?: D[K] extends string ? K : never }[keyof D];

/** What ties a text input to a draft: its value, its change, its issue. */
export interface TextBinding {
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  error: string | undefined;
}

/**
 * Ties text inputs to the values of a draft: `text(key, field)` gives an input its value, its change
 * and the issue found on `field` (the API's name of it; the key by default).
 */
export function textOf<D>(draft: D, set: <K extends keyof D>(key: K, value: D[K]) => void, errors: Issues) {
  return (key: TextKey<D>, field: string = String(key)): TextBinding => ({
    value: draft[key] as string,
    onChange: (event: { target: { value: string } }) => set(key, event.target.value as D[typeof key]),
    error: errors[field],
  });
}

/**
 * A form's values as one object: `set` changes one of them, `text` ties a text input to one (`textOf`),
 * `reset` goes back to the first values.
 */
export function useDraft<D extends object>(initial: D, errors: Issues) {
  const [first] = useState(initial);
  const [draft, setDraft] = useState(initial);
  const set = <K extends keyof D>(key: K, value: D[K]) => setDraft((d) => ({ ...d, [key]: value }));
  return { draft, set, text: textOf(draft, set, errors), reset: () => setDraft(first) };
}
