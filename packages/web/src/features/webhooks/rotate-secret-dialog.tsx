import { useQueryClient } from "@tanstack/react-query";
import { RefreshCwIcon } from "lucide-react";
import { useState } from "react";
import { FormError } from "../../components/form.tsx";
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
import { errorMessage } from "../../lib/api.ts";
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
        <Button variant="outline" size="sm" aria-label={`Rotate secret of ${url}`}>
          <RefreshCwIcon aria-hidden="true" />
          Rotate secret
        </Button>
      </DialogTrigger>
      <DialogContent
        onInteractOutside={(event) => {
          if (revealed) event.preventDefault();
        }}
      >
        <RotateFlow workspaceId={workspaceId} endpointId={endpointId} onRevealed={() => setRevealed(true)} />
      </DialogContent>
    </Dialog>
  );
}

function RotateFlow({
  workspaceId,
  endpointId,
  onRevealed,
}: {
  workspaceId: string;
  endpointId: string;
  onRevealed: () => void;
}) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [secret, setSecret] = useState<string>();

  async function rotate() {
    setPending(true);
    setError(undefined);
    try {
      const updated = await updateWebhook(workspaceId, endpointId, { rotate_secret: true });
      if (!updated.secret) throw new Error("The server did not return the new secret. Try again.");
      setSecret(updated.secret);
      onRevealed();
      void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "webhooks") });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(false);
    }
  }

  if (secret) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>New signing secret</DialogTitle>
          <DialogDescription>
            Deliveries from now on are signed with this secret. Update your receiver.
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
        <DialogTitle>Rotate the signing secret?</DialogTitle>
        <DialogDescription>
          The current secret stops working at once: deliveries are signed with the new one from now on, so your receiver
          will reject them until you give it the new secret.
        </DialogDescription>
      </DialogHeader>
      <FormError message={error} />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button onClick={rotate} disabled={pending}>
          {pending && <Spinner />}
          Rotate secret
        </Button>
      </DialogFooter>
    </>
  );
}
