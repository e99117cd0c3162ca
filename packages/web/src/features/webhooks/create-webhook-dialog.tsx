import { useQueryClient } from "@tanstack/react-query";
import { PlusIcon } from "lucide-react";
import { useId, useState } from "react";
import { CheckboxField } from "../../components/checkbox-field.tsx";
import { Field, FieldError, Form, FormError } from "../../components/form.tsx";
import { Spinner } from "../../components/page-states.tsx";
import { SecretReveal } from "../../components/secret-reveal.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../components/ui/dialog.tsx";
import { formErrors } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import { EVENTS } from "./events.ts";
import { createWebhook, type WebhookEventType } from "./webhooks-api.ts";

/** "Add endpoint": the signing secret is shown once, in this dialog only, and gone when it closes. */
export function CreateWebhookDialog({ workspaceId }: { workspaceId: string }) {
  const [open, setOpen] = useState(false);
  const [revealed, setRevealed] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setRevealed(false);
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <PlusIcon aria-hidden="true" />
          Add endpoint
        </Button>
      </DialogTrigger>
      <DialogContent
        onInteractOutside={(event) => {
          if (revealed) event.preventDefault();
        }}
      >
        <CreateWebhookFlow workspaceId={workspaceId} onRevealed={() => setRevealed(true)} />
      </DialogContent>
    </Dialog>
  );
}

function CreateWebhookFlow({ workspaceId, onRevealed }: { workspaceId: string; onRevealed: () => void }) {
  const queryClient = useQueryClient();
  const eventsErrorId = useId();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<Set<WebhookEventType>>(() => new Set(["analysis.completed", "alert.triggered"]));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [secret, setSecret] = useState<string>();

  function toggle(type: WebhookEventType, on: boolean) {
    setEvents((current) => {
      const next = new Set(current);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });
  }

  async function submit() {
    const found: Record<string, string> = {};
    if (!/^https?:\/\/\S+$/i.test(url.trim())) found.url = "Enter the full address, starting with https://";
    if (events.size === 0) found.events = "Choose at least one event.";
    setErrors(found);
    setFormError(undefined);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      const created = await createWebhook(workspaceId, {
        url: url.trim(),
        events: EVENTS.map(({ type }) => type).filter((type) => events.has(type)),
        ...(description.trim() ? { description: description.trim() } : {}),
      });
      setSecret(created.secret);
      onRevealed();
      void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "webhooks") });
    } catch (error) {
      const split = formErrors(error, ["url", "events", "description"]);
      setErrors(split.fields);
      setFormError(split.message);
    } finally {
      setPending(false);
    }
  }

  if (secret) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Endpoint added</DialogTitle>
          <DialogDescription>
            Sightline signs every delivery with this secret, so that your receiver can check it came from here.
          </DialogDescription>
        </DialogHeader>
        <SecretReveal label="Signing secret" value={secret} what="signing secret" />
        <DialogFooter>
          <DialogClose asChild>
            <Button>I have copied the secret</Button>
          </DialogClose>
        </DialogFooter>
      </>
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Add a webhook endpoint</DialogTitle>
        <DialogDescription>
          Sightline sends a message to this address each time one of the chosen events happens.
        </DialogDescription>
      </DialogHeader>
      <Form onSubmit={submit} className="grid gap-5">
        <FormError message={formError} />
        <Field
          label="Endpoint URL"
          name="url"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://example.com/sightline-events"
          hint="A public https address that answers with a 2xx status."
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          error={errors.url}
        />
        <fieldset className="grid gap-3" aria-describedby={errors.events ? eventsErrorId : undefined}>
          <legend className="mb-3 text-sm font-medium">Events to send</legend>
          {EVENTS.map(({ type, description: what }) => (
            <CheckboxField
              key={type}
              name="events"
              label={type}
              description={what}
              checked={events.has(type)}
              onCheckedChange={(on) => toggle(type, on)}
            />
          ))}
          <FieldError id={eventsErrorId} message={errors.events} />
        </fieldset>
        <Field
          label="Description (optional)"
          name="description"
          autoComplete="off"
          placeholder="e.g. Slack alerts for the brand team"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          error={errors.description}
        />
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button type="submit" disabled={pending}>
            {pending && <Spinner />}
            Add endpoint
          </Button>
        </DialogFooter>
      </Form>
    </>
  );
}
