import { useQueryClient } from "@tanstack/react-query";
import { PlusIcon } from "lucide-react";
import { useState } from "react";
import { CheckboxGroup } from "../../components/checkbox-group.tsx";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { SecretReveal } from "../../components/secret-reveal.tsx";
import { Button } from "../../components/ui/button.tsx";
import { keys } from "../../lib/queries.ts";
import type { Scope } from "../../lib/types.ts";
import { createApiKey } from "./api-keys-api.ts";
import { SCOPES } from "./scopes.ts";

/**
 * "Create API key". The new key's value lives only in the state of the dialog's content, which unmounts
 * when the dialog closes: closing loses it for good, as the warning says.
 */
export function CreateKeyDialog({ workspaceId }: { workspaceId: string }) {
  return (
    <FormDialog
      trigger={
        <Button>
          <PlusIcon aria-hidden="true" />
          Create API key
        </Button>
      }
    >
      <CreateKeyFlow workspaceId={workspaceId} />
    </FormDialog>
  );
}

function CreateKeyFlow({ workspaceId }: { workspaceId: string }) {
  const queryClient = useQueryClient();
  const [scopes, setScopes] = useState<Set<Scope>>(() => new Set<Scope>(["read"]));
  const [created, setCreated] = useState<{ name: string; key: string }>();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ name: "" }, errors);
  const { name } = draft;

  function check() {
    const found: Record<string, string> = {};
    if (name.trim() === "") found.name = "Give the key a name that says where it is used.";
    if (scopes.size === 0) found.scopes = "Choose at least one permission.";
    return found;
  }

  const submit = () =>
    run(
      async () => {
        const ordered = SCOPES.map(({ scope }) => scope).filter((scope) => scopes.has(scope));
        const key = await createApiKey(workspaceId, name.trim(), ordered);
        setCreated({ name: key.name, key: key.key });
        void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "api-keys") });
      },
      { check, fields: ["name", "scopes"] },
    );

  if (created) {
    return (
      <SecretReveal
        title="Your new API key"
        description={`“${created.name}” is ready to use.`}
        label="API key"
        value={created.key}
        what="key"
        done="I have copied the key"
      />
    );
  }

  return (
    <DialogForm
      title="Create API key"
      description="A key lets a tool or a script use this workspace through the Sightline API. Give it only the permissions it needs."
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Create key"
      className="grid gap-5"
    >
      <Field
        label="Name"
        name="key-name"
        autoComplete="off"
        placeholder="e.g. Looker Studio connector"
        hint="Say where the key is used, so you know what stops working if you revoke it."
        {...text("name")}
      />
      <CheckboxGroup
        legend="Permissions"
        name="scopes"
        options={SCOPES.map(({ scope, label, grants }) => ({ value: scope, label, description: grants }))}
        value={scopes}
        onChange={setScopes}
        error={errors.scopes}
      />
    </DialogForm>
  );
}
