import { TriangleAlertIcon } from "lucide-react";
import type { ReactNode } from "react";
import { CopyField } from "./copy-field.tsx";
import { DialogDone, DialogHeading, useKeepDialogOpen } from "./form-dialog.tsx";

/**
 * A secret shown once, right after it was made, as the last step of a `FormDialog`: the plain warning
 * that it cannot be shown again, the value to copy, and one button to close. The secret lives only in
 * the state of the step that shows it, which unmounts when the dialog closes; while it is shown, a
 * stray click outside does not close the dialog.
 */
export function SecretReveal({
  title,
  description,
  label,
  value,
  what,
  done,
}: {
  title: string;
  description: ReactNode;
  label: string;
  value: string;
  /** What the secret is, in the warning: "key", "signing secret". */
  what: string;
  /** The button that closes the dialog: "I have copied the key". */
  done: string;
}) {
  useKeepDialogOpen();
  return (
    <>
      <DialogHeading title={title} description={description} />
      <div className="grid gap-3">
        <div role="alert" className="flex gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm">
          <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
          <p>
            <strong className="font-semibold">Copy the {what} now.</strong> For your security it is shown only this
            once: once you close this window it cannot be shown again. If you lose it, create a new one.
          </p>
        </div>
        <CopyField label={label} value={value} />
      </div>
      <DialogDone label={done} />
    </>
  );
}
