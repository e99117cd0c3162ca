import { useQueryClient } from "@tanstack/react-query";
import { FileUpIcon } from "lucide-react";
import { type ChangeEvent, useState } from "react";
import { toast } from "sonner";
import { Field, Form, FormError, PendingButton, useDraft, useSubmit } from "../../components/form.tsx";
import { TextareaField } from "../../components/textarea-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import { useBrand } from "../brand-page/brand-context.tsx";
import { connectGa4, trafficKey } from "./traffic-api.ts";

type KeyFile = { client_email: string; private_key: string } & Record<string, unknown>;

/** The key file's JSON, or what is wrong with it, in words. */
function readKey(text: string): KeyFile | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return "This is not the JSON key file: paste the whole file, from { to }.";
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return "This is not a key file.";
  const key = parsed as Record<string, unknown>;
  if (typeof key.client_email !== "string" || typeof key.private_key !== "string") {
    return "The key file has no client_email or private_key: download a JSON key of the service account.";
  }
  return key as KeyFile;
}

/**
 * Connects the brand's GA4 property, or replaces its key: the property id and the service account's
 * JSON key, pasted or read from its file. The key stays in this form's state only; the server keeps
 * it encrypted and never gives it back.
 */
export function Ga4Form({ onDone, onCancel }: { onDone: () => void; onCancel?: () => void }) {
  const { workspaceId, project } = useBrand();
  const queryClient = useQueryClient();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, set, text } = useDraft({ property_id: "", service_account_key: "" }, errors);
  const [reading, setReading] = useState<string>();

  async function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file === undefined) return;
    if (file.size > 64 * 1024) {
      setReading("This file is too large to be a key file.");
      return;
    }
    setReading(undefined);
    set("service_account_key", await file.text());
  }

  const submit = () =>
    run(
      async () => {
        const key = readKey(draft.service_account_key);
        if (typeof key === "string") return;
        await connectGa4(workspaceId, project.id, {
          property_id: draft.property_id.trim(),
          service_account_key: key,
        });
        await queryClient.invalidateQueries({ queryKey: trafficKey(workspaceId, project.id, "ga4") });
        toast.success("GA4 is connected. Its last 30 days are read within minutes; “Sync now” reads them at once.");
        onDone();
      },
      {
        check: () => {
          const key = readKey(draft.service_account_key);
          return {
            ...(/^(properties\/)?\d{1,20}$/.test(draft.property_id.trim())
              ? {}
              : { property_id: "Enter the property's number, e.g. 123456789." }),
            ...(typeof key === "string" ? { service_account_key: key } : {}),
          };
        },
        fields: ["property_id", "service_account_key"],
      },
    );

  return (
    <Form onSubmit={submit} className="grid gap-4">
      <ol className="grid list-decimal gap-1 pl-5 text-sm text-muted-foreground">
        <li>In Google Cloud, create a service account, then a key for it: Keys → Add key → JSON. A file downloads.</li>
        <li>In that Google Cloud project, enable the “Google Analytics Data API”.</li>
        <li>In GA4, Admin → Property access management: add the service account's e-mail as a Viewer.</li>
        <li>Fill in the property's ID and the key below.</li>
      </ol>
      <FormError message={formError} />
      <Field
        label="GA4 property ID"
        name="ga4-property"
        autoComplete="off"
        inputMode="numeric"
        placeholder="e.g. 123456789"
        hint="A number, in GA4 under Admin → Property details."
        className="sm:max-w-xs"
        {...text("property_id")}
      />
      <div className="grid gap-2">
        <TextareaField
          label="Service account key (JSON)"
          name="ga4-key"
          rows={5}
          spellCheck={false}
          autoComplete="off"
          className="font-mono"
          placeholder='{"type": "service_account", "client_email": "…", "private_key": "…"}'
          hint="Paste the key file's content, or choose the file. Stored encrypted; never shown again."
          {...text("service_account_key")}
          error={errors.service_account_key ?? reading}
        />
        <div>
          <Button asChild variant="outline" size="sm">
            <label className="cursor-pointer has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring">
              <FileUpIcon aria-hidden="true" />
              Choose the key file
              <input type="file" accept=".json,application/json" className="sr-only" onChange={chooseFile} />
            </label>
          </Button>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <PendingButton type="submit" pending={pending}>
          Connect GA4
        </PendingButton>
        {onCancel && (
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </Form>
  );
}
