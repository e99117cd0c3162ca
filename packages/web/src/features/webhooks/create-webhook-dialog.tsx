import { useQueryClient } from "@tanstack/react-query";
import { PlusIcon } from "lucide-react";
import { useState } from "react";
import { CheckboxGroup } from "../../components/checkbox-group.tsx";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { SecretReveal } from "../../components/secret-reveal.tsx";
import { Button } from "../../components/ui/button.tsx";
import { keys } from "../../lib/queries.ts";
import { EVENTS } from "./events.ts";
import { createWebhook, type WebhookEventType } from "./webhooks-api.ts";

/** "Add endpoint": the signing secret is shown once, in this dialog only, and gone when it closes. */
export function CreateWebhookDialog({ workspaceId }: { workspaceId: string }) {
  return (
    <FormDialog
      trigger={
        <Button>
          <PlusIcon aria-hidden="true" />
          Add endpoint
        </Button>
      }
    >
      <CreateWebhookFlow workspaceId={workspaceId} />
    </FormDialog>
  );
}

function CreateWebhookFlow({ workspaceId }: { workspaceId: string }) {
  const queryClient = useQueryClient();
  const [events, setEvents] = useState<Set<WebhookEventType>>(() => new Set(["analysis.completed", "alert.triggered"]));
  const [secret, setSecret] = useState<string>();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ url: "", description: "" }, errors);
  const url = draft.url.trim();
  const description = draft.description.trim();

  function check() {
    const found: Record<string, string> = {};
    if (!/^https?:\/\/\S+$/i.test(url)) found.url = "Enter the full address, starting with https://";
    if (events.size === 0) found.events = "Choose at least one event.";
    return found;
  }

  const submit = () =>
    run(
      async () => {
        const created = await createWebhook(workspaceId, {
          url,
          events: EVENTS.map(({ type }) => type).filter((type) => events.has(type)),
          ...(description ? { description } : {}),
        });
        setSecret(created.secret);
        void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "webhooks") });
      },
      { check, fields: ["url", "events", "description"] },
    );

  if (secret) {
    return (
      <SecretReveal
        title="Endpoint added"
        description="Sightline signs every delivery with this secret, so that your receiver can check it came from here."
        label="Signing secret"
        value={secret}
        what="signing secret"
        done="I have copied the secret"
      />
    );
  }

  return (
    <DialogForm
      title="Add a webhook endpoint"
      description="Sightline sends a message to this address each time one of the chosen events happens."
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Add endpoint"
      className="grid gap-5"
    >
      <Field
        label="Endpoint URL"
        name="url"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://example.com/sightline-events"
        hint="A public https address that answers with a 2xx status."
        {...text("url")}
      />
      <CheckboxGroup
        legend="Events to send"
        name="events"
        options={EVENTS.map(({ type, description: what }) => ({ value: type, label: type, description: what }))}
        value={events}
        onChange={setEvents}
        error={errors.events}
      />
      <Field
        label="Description (optional)"
        name="description"
        autoComplete="off"
        placeholder="e.g. Slack alerts for the brand team"
        {...text("description")}
      />
    </DialogForm>
  );
}
