import { ImageIcon, UploadIcon, XIcon } from "lucide-react";
import { type ChangeEvent, useId } from "react";
import { FieldError } from "../../components/form.tsx";
import { Button } from "../../components/ui/button.tsx";
import { readLogo } from "./logo-file.ts";

/** The logo as it will be shown (about 40 px high), with upload and remove; the file is checked before it goes. */
export function LogoField({
  value,
  onChange,
  onProblem,
  error,
  disabled,
}: {
  /** A data URL, or null for none. */
  value: string | null;
  onChange: (value: string | null) => void;
  onProblem: (problem: string | undefined) => void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const id = useId();
  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // The same file may be chosen again after a removal.
    event.target.value = "";
    if (file === undefined) return;
    const read = await readLogo(file);
    if ("problem" in read) {
      onProblem(read.problem);
      return;
    }
    onProblem(undefined);
    onChange(read.url);
  }
  return (
    <fieldset className="grid min-w-0 gap-1.5" aria-describedby={`${id}-hint`}>
      <legend className="mb-1.5 text-sm leading-none font-medium">Logo</legend>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="flex h-16 w-full items-center justify-center rounded-md border bg-white px-3 sm:w-56">
          {value === null ? (
            <span className="flex items-center gap-1.5 text-xs text-neutral-600">
              <ImageIcon className="size-4" aria-hidden="true" />
              No logo yet
            </span>
          ) : (
            <img src={value} alt="Logo preview" className="max-h-10 max-w-full object-contain" />
          )}
        </div>
        {!disabled && (
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <label className="cursor-pointer has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring">
                <UploadIcon aria-hidden="true" />
                {value === null ? "Upload logo" : "Replace logo"}
                <input
                  type="file"
                  accept="image/png,image/jpeg"
                  className="sr-only"
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                  onChange={choose}
                />
              </label>
            </Button>
            {value !== null && (
              <Button variant="ghost" size="sm" onClick={() => onChange(null)}>
                <XIcon aria-hidden="true" />
                Remove logo
              </Button>
            )}
          </div>
        )}
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        PNG or JPEG, 200 kB at most. Shown about 40 px high at the top of reports and e-mails; a wide logo on a
        transparent or white background looks best.
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}
