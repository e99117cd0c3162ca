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
import type { Scope } from "../../lib/types.ts";
import { createApiKey } from "./api-keys-api.ts";
import { SCOPES } from "./scopes.ts";

/**
 * "Create API key". The new key's value lives only in the state of the dialog's content, which unmounts
 * when the dialog closes: closing loses it for good, as the warning says.
 */
export function CreateKeyDialog({ workspaceId }: { workspaceId: string }) {
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
          Create API key
        </Button>
      </DialogTrigger>
      <DialogContent
        // Once the key is shown, a stray click outside must not throw it away; Esc and the buttons still close.
        onInteractOutside={(event) => {
          if (revealed) event.preventDefault();
        }}
      >
        <CreateKeyFlow workspaceId={workspaceId} onRevealed={() => setRevealed(true)} />
      </DialogContent>
    </Dialog>
  );
}

function CreateKeyFlow({ workspaceId, onRevealed }: { workspaceId: string; onRevealed: () => void }) {
  const queryClient = useQueryClient();
  const scopesErrorId = useId();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Set<Scope>>(() => new Set<Scope>(["read"]));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [created, setCreated] = useState<{ name: string; key: string }>();

  function toggle(scope: Scope, on: boolean) {
    setScopes((current) => {
      const next = new Set(current);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
  }

  async function submit() {
    const found: Record<string, string> = {};
    if (name.trim() === "") found.name = "Give the key a name that says where it is used.";
    if (scopes.size === 0) found.scopes = "Choose at least one permission.";
    setErrors(found);
    setFormError(undefined);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      const ordered = SCOPES.map(({ scope }) => scope).filter((scope) => scopes.has(scope));
      const key = await createApiKey(workspaceId, name.trim(), ordered);
      setCreated({ name: key.name, key: key.key });
      onRevealed();
      void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "api-keys") });
    } catch (error) {
      const split = formErrors(error, ["name", "scopes"]);
      setErrors(split.fields);
      setFormError(split.message);
    } finally {
      setPending(false);
    }
  }

  if (created) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Your new API key</DialogTitle>
          <DialogDescription>“{created.name}” is ready to use.</DialogDescription>
        </DialogHeader>
        <SecretReveal label="API key" value={created.key} what="key" />
        <DialogFooter>
          <DialogClose asChild>
            <Button>I have copied the key</Button>
          </DialogClose>
        </DialogFooter>
      </>
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Create API key</DialogTitle>
        <DialogDescription>
          A key lets a tool or a script use this workspace through the Sightline API. Give it only the permissions it
          needs.
        </DialogDescription>
      </DialogHeader>
      <Form onSubmit={submit} className="grid gap-5">
        <FormError message={formError} />
        <Field
          label="Name"
          name="key-name"
          autoComplete="off"
          placeholder="e.g. Looker Studio connector"
          hint="Say where the key is used, so you know what stops working if you revoke it."
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={errors.name}
        />
        <fieldset className="grid gap-3" aria-describedby={errors.scopes ? scopesErrorId : undefined}>
          <legend className="mb-3 text-sm font-medium">Permissions</legend>
          {SCOPES.map(({ scope, label, grants }) => (
            <CheckboxField
              key={scope}
              name="scopes"
              label={label}
              description={grants}
              checked={scopes.has(scope)}
              onCheckedChange={(on) => toggle(scope, on)}
            />
          ))}
          <FieldError id={scopesErrorId} message={errors.scopes} />
        </fieldset>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button type="submit" disabled={pending}>
            {pending && <Spinner />}
            Create key
          </Button>
        </DialogFooter>
      </Form>
    </>
  );
}
