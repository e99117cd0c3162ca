import { TriangleAlertIcon } from "lucide-react";
import { CopyField } from "./copy-field.tsx";

/** A secret shown once, right after it was made, with the plain warning that it cannot be shown again. */
export function SecretReveal({ label, value, what }: { label: string; value: string; what: string }) {
  return (
    <div className="grid gap-3">
      <div role="alert" className="flex gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm">
        <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
        <p>
          <strong className="font-semibold">Copy the {what} now.</strong> For your security it is shown only this once:
          once you close this window it cannot be shown again. If you lose it, create a new one.
        </p>
      </div>
      <CopyField label={label} value={value} />
    </div>
  );
}
