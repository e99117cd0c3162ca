import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { Field, Form, FormError } from "../../components/form.tsx";
import { Spinner } from "../../components/page-states.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { formErrors } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import { createWorkspace } from "./workspace-api.ts";

/** "New workspace": the user owns it; it opens at once. */
export function NewWorkspaceDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New workspace</DialogTitle>
          <DialogDescription>
            A workspace holds its own brands, members, API keys and usage. Agencies often keep one per client.
          </DialogDescription>
        </DialogHeader>
        <NewWorkspaceForm onDone={() => onOpenChange(false)} onCancel={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

export function NewWorkspaceForm({ onDone, onCancel }: { onDone?: () => void; onCancel?: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [error, setError] = useState<string>();
  const [fieldError, setFieldError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function submit() {
    if (name.trim() === "") {
      setFieldError("Name the workspace, e.g. the client or team it is for.");
      return;
    }
    setFieldError(undefined);
    setError(undefined);
    setPending(true);
    try {
      const workspace = await createWorkspace(name.trim());
      await queryClient.invalidateQueries({ queryKey: keys.me });
      onDone?.();
      void navigate({ to: "/w/$workspaceId", params: { workspaceId: workspace.id } });
    } catch (caught) {
      const split = formErrors(caught, ["name"]);
      setFieldError(split.fields.name);
      setError(split.message);
    } finally {
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="grid gap-4">
      <FormError message={error} />
      <Field
        label="Workspace name"
        name="workspace-name"
        autoComplete="off"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={fieldError}
      />
      <DialogFooter>
        {onCancel && (
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" disabled={pending}>
          {pending && <Spinner />}
          Create workspace
        </Button>
      </DialogFooter>
    </Form>
  );
}
