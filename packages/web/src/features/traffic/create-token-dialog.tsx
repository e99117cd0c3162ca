import { useQueryClient } from "@tanstack/react-query";
import { PlusIcon } from "lucide-react";
import { useState } from "react";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { SecretReveal } from "../../components/secret-reveal.tsx";
import { Button } from "../../components/ui/button.tsx";
import { createIngestToken, trafficKey } from "./traffic-api.ts";

/**
 * "Create ingest token". The token lives only in the state of the dialog's content, which unmounts
 * when the dialog closes, as an API key's does: closing loses it for good.
 */
export function CreateTokenDialog({ workspaceId, projectId }: { workspaceId: string; projectId: string }) {
  return (
    <FormDialog
      trigger={
        <Button>
          <PlusIcon aria-hidden="true" />
          Create ingest token
        </Button>
      }
    >
      <CreateTokenFlow workspaceId={workspaceId} projectId={projectId} />
    </FormDialog>
  );
}

function CreateTokenFlow({ workspaceId, projectId }: { workspaceId: string; projectId: string }) {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<{ name: string; token: string }>();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ name: "" }, errors);

  const submit = () =>
    run(
      async () => {
        const token = await createIngestToken(workspaceId, projectId, draft.name.trim());
        setCreated({ name: token.name, token: token.token });
        void queryClient.invalidateQueries({ queryKey: trafficKey(workspaceId, projectId, "ingest-tokens") });
      },
      {
        check: () => (draft.name.trim() === "" ? { name: "Name the token after where it is used." } : {}),
        fields: ["name"],
      },
    );

  if (created) {
    return (
      <SecretReveal
        title="Your new ingest token"
        description={
          <>
            Paste it into “{created.name}” as the header <code>Authorization: Bearer</code> followed by the token. It
            can only send this brand's logs: it reads nothing and opens nothing else.
          </>
        }
        label="Ingest token"
        value={created.token}
        what="token"
        done="I have copied the token"
      />
    );
  }

  return (
    <DialogForm
      title="Create ingest token"
      description="A token lets a log drain or a CDN send this brand's access logs to Sightline by itself. It can do nothing else."
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Create token"
    >
      <Field
        label="Name"
        name="token-name"
        autoComplete="off"
        placeholder="e.g. Cloudflare Logpush, production"
        hint="Say where it is used, so you know what stops sending if you revoke it."
        {...text("name")}
      />
    </DialogForm>
  );
}
