import { useQueryClient } from "@tanstack/react-query";
import { RefreshCwIcon } from "lucide-react";
import { useState } from "react";
import { FormError, useSubmit } from "../../components/form.tsx";
import { DialogActions, DialogHeading, FormDialog } from "../../components/form-dialog.tsx";
import { SecretReveal } from "../../components/secret-reveal.tsx";
import { Button } from "../../components/ui/button.tsx";
import { keys } from "../../lib/queries.ts";
import { updateWebhook } from "./webhooks-api.ts";

/** Confirm, rotate, then show the new secret once (in this dialog's state only). */
export function RotateSecretDialog({
  workspaceId,
  endpointId,
  url,
}: {
  workspaceId: string;
  endpointId: string;
  url: string;
}) {
  return (
    <FormDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={`Rotate secret of ${url}`}>
          <RefreshCwIcon aria-hidden="true" />
          Rotate secret
        </Button>
      }
    >
      <RotateFlow workspaceId={workspaceId} endpointId={endpointId} />
    </FormDialog>
  );
}

function RotateFlow({ workspaceId, endpointId }: { workspaceId: string; endpointId: string }) {
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string>();
  const { run, pending, formError } = useSubmit();

  const rotate = () =>
    run(async () => {
      const updated = await updateWebhook(workspaceId, endpointId, { rotate_secret: true });
      if (!updated.secret) throw new Error("The server did not return the new secret. Try again.");
      setSecret(updated.secret);
      void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "webhooks") });
    });

  if (secret) {
    return (
      <SecretReveal
        title="New signing secret"
        description="Deliveries from now on are signed with this secret. Update your receiver."
        label="Signing secret"
        value={secret}
        what="signing secret"
        done="I have copied the secret"
      />
    );
  }

  return (
    <>
      <DialogHeading
        title="Rotate the signing secret?"
        description="The current secret stops working at once: deliveries are signed with the new one from now on, so your receiver will reject them until you give it the new secret."
      />
      <FormError message={formError} />
      <DialogActions onClick={rotate} pending={pending} label="Rotate secret" />
    </>
  );
}
