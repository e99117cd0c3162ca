import { errorMessage, fieldErrors } from "../lib/api.ts";
import { Field, Form, PendingButton, useDraft, useSubmit } from "./form.tsx";

/**
 * A name and "Save name" (a workspace's, an agency's): saves the trimmed name when it changed, says
 * what is missing when it is empty, and shows any refusal under the field.
 */
export function NameForm({
  label,
  name: fieldName,
  current,
  missing,
  autoComplete = "off",
  save,
}: {
  label: string;
  name: string;
  current: string;
  /** What to say when the field is left empty. */
  missing: string;
  autoComplete?: string;
  save: (name: string) => Promise<void>;
}) {
  const { run, pending, errors } = useSubmit();
  const { draft, text } = useDraft({ name: current }, errors);
  const unchanged = draft.name.trim() === current;

  const submit = () =>
    run(() => save(draft.name.trim()), {
      check: () => (draft.name.trim() === "" ? { name: missing } : {}),
      // The form has no room for an error of its own: any error goes under the name.
      place: (error) => ({ fields: { name: fieldErrors(error).name ?? errorMessage(error) } }),
    });

  return (
    <Form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <Field label={label} name={fieldName} autoComplete={autoComplete} {...text("name")} className="flex-1" />
      <PendingButton
        type="submit"
        variant="outline"
        pending={pending}
        disabled={unchanged}
        className="sm:mt-[1.375rem]"
      >
        Save name
      </PendingButton>
    </Form>
  );
}
