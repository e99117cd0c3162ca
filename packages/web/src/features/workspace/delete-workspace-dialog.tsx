import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { toast } from "sonner";
import { Field, Form, FormError } from "../../components/form.tsx";
import { Spinner } from "../../components/page-states.tsx";
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
import type { Workspace } from "../../lib/types.ts";
import { deleteWorkspace } from "./workspace-api.ts";

/** Deleting a workspace: the owner types its name to confirm. */
export function DeleteWorkspaceDialog({ workspace }: { workspace: Workspace }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="destructive">Delete workspace</Button>
      </DialogTrigger>
      <DialogContent>
        <DeleteFlow workspace={workspace} />
      </DialogContent>
    </Dialog>
  );
}

function DeleteFlow({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const matches = typed === workspace.name;

  async function submit() {
    if (!matches) return;
    setPending(true);
    setError(undefined);
    try {
      await deleteWorkspace(workspace.id, typed);
      queryClient.removeQueries({ queryKey: keys.workspace(workspace.id) });
      await queryClient.invalidateQueries({ queryKey: keys.me });
      toast.success(`${workspace.name} was deleted`);
      void navigate({ to: "/" });
    } catch (caught) {
      setError(errorMessage(caught));
      setPending(false);
    }
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Delete {workspace.name}?</DialogTitle>
        <DialogDescription>
          This deletes the workspace and everything in it: brands, analyses, reports, monitoring, API keys, webhooks and
          members' access. It cannot be undone.
        </DialogDescription>
      </DialogHeader>
      <Form onSubmit={submit} className="grid gap-4">
        <FormError message={error} />
        <Field
          label={`Type “${workspace.name}” to confirm`}
          name="confirm-name"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button type="submit" variant="destructive" disabled={!matches || pending}>
            {pending && <Spinner />}
            Delete workspace
          </Button>
        </DialogFooter>
      </Form>
    </>
  );
}
