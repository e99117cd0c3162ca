import { useState } from "react";
import { toast } from "sonner";
import { CheckboxField } from "../../components/checkbox-field.tsx";
import { Field, Form, FormError, PendingButton, useDraft, useSubmit } from "../../components/form.tsx";
import type { BrandingChange, BrandingSettings } from "./branding-api.ts";
import { BrandingPreview } from "./branding-preview.tsx";
import { ColorField, isColor } from "./color-field.tsx";
import { LogoField } from "./logo-field.tsx";

const FIELDS = ["name", "logo", "primary", "accent", "show_sightline"] as const;
const NAME_MAX = 80;

/** What changed against what is saved: only that is sent (the logo is not sent again). */
function changesOf(
  saved: BrandingSettings,
  draft: { name: string; logo: string | null; primary: string; accent: string; show_sightline: boolean },
): BrandingChange {
  const body: BrandingChange = {};
  const name = draft.name.trim();
  // Empty: the workspace's own name, and its renames.
  if (name !== saved.name) body.name = name === "" ? null : name;
  if (draft.logo !== saved.logo) body.logo = draft.logo;
  if (draft.primary.trim().toLowerCase() !== saved.primary) body.primary = draft.primary.trim();
  if (draft.accent.trim().toLowerCase() !== saved.accent) body.accent = draft.accent.trim();
  if (draft.show_sightline !== saved.show_sightline) body.show_sightline = draft.show_sightline;
  return body;
}

/** The two colours, as the form asks for them. */
const COLOURS = [
  {
    field: "primary",
    label: "Main colour",
    hint: "Headings, the top rule, buttons and your brand's bars and lines in charts.",
  },
  { field: "accent", label: "Highlight colour", hint: "Highlights and links." },
] as const;

/**
 * Settings → Branding, for admins and owners: the name, logo and colours clients see, with a
 * preview of them, and whether "Made with Sightline" appears. Saved all at once, by `save` (a
 * workspace's branding, or an agency's that all its clients inherit).
 */
export function BrandingForm({
  saved,
  readOnly,
  save,
  fallback = "the workspace's name",
}: {
  saved: BrandingSettings;
  readOnly: boolean;
  /** Sends what changed, and keeps what the server answered. */
  save: (change: BrandingChange) => Promise<void>;
  /** What an empty name falls back to, as the hint says it ("the workspace's name"). */
  fallback?: string;
}) {
  const { run, pending, errors, formError } = useSubmit();
  /** A file refused before it was sent (not an image, too large), said under the logo. */
  const [logoProblem, setLogoProblem] = useState<string>();
  const { draft, set, text } = useDraft(
    {
      name: saved.name,
      logo: saved.logo,
      primary: saved.primary,
      accent: saved.accent,
      show_sightline: saved.show_sightline,
    },
    errors,
  );
  const changes = changesOf(saved, draft);
  const unchanged = Object.keys(changes).length === 0;
  const previewName = draft.name.trim() === "" ? saved.workspace_name : draft.name.trim();

  const submit = () =>
    run(
      async () => {
        await save(changes);
        toast.success("Branding saved: what you send from now on carries it.");
      },
      {
        check: () => ({
          name: [...draft.name.trim()].length > NAME_MAX ? `At most ${NAME_MAX} characters.` : undefined,
          primary: isColor(draft.primary) ? undefined : "Use a colour such as #2456d6.",
          accent: isColor(draft.accent) ? undefined : "Use a colour such as #d2691e.",
        }),
        fields: FIELDS,
      },
    );

  return (
    <Form onSubmit={submit} className="grid gap-6">
      <FormError message={formError} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
        <div className="grid content-start gap-5">
          <Field
            label="Name clients see"
            name="branding-name"
            autoComplete="organization"
            hint={
              readOnly
                ? "Signs reports, shared links and e-mails, and is the e-mails' sender name."
                : `Signs reports, shared links and e-mails, and is the e-mails' sender name. Leave it empty to use ${fallback}, “${saved.workspace_name}”.`
            }
            disabled={readOnly}
            {...text("name")}
          />
          <LogoField
            value={draft.logo}
            onChange={(logo) => set("logo", logo)}
            onProblem={setLogoProblem}
            error={logoProblem ?? errors.logo}
            disabled={readOnly}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            {COLOURS.map(({ field, label, hint }) => (
              <ColorField
                key={field}
                label={label}
                hint={hint}
                value={draft[field]}
                onChange={(value) => set(field, value)}
                error={errors[field]}
                disabled={readOnly}
              />
            ))}
          </div>
          {readOnly ? (
            <p className="text-sm">
              {saved.show_sightline
                ? "“Made with Sightline” appears on reports and e-mails."
                : "“Sightline” appears nowhere on reports and e-mails."}
            </p>
          ) : (
            <CheckboxField
              name="show-sightline"
              label="Show “Made with Sightline” on reports and e-mails"
              description="Untick it to send everything under your own name only: the word Sightline then appears nowhere your clients look."
              checked={draft.show_sightline}
              onCheckedChange={(checked) => set("show_sightline", checked)}
            />
          )}
        </div>
        <BrandingPreview
          name={previewName}
          logo={draft.logo}
          primary={isColor(draft.primary) ? draft.primary.trim() : saved.primary}
          accent={isColor(draft.accent) ? draft.accent.trim() : saved.accent}
          showSightline={draft.show_sightline}
        />
      </div>
      {!readOnly && (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <PendingButton type="submit" pending={pending} disabled={unchanged} className="sm:w-auto">
            Save branding
          </PendingButton>
          {!unchanged && <p className="text-xs text-muted-foreground">You have changes that are not saved yet.</p>}
        </div>
      )}
    </Form>
  );
}
