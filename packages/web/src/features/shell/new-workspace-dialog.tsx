import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Field, Form, FormError, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogActions, DialogHeading } from "../../components/form-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Dialog, DialogContent } from "../../components/ui/dialog.tsx";
import { keys } from "../../lib/queries.ts";
import { createWorkspace } from "./workspace-api.ts";

/** "New workspace": the user owns it; it opens at once. */
export function NewWorkspaceDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeading
          title="New workspace"
          description="A workspace holds its own brands, members, API keys and usage. Agencies often keep one per client."
        />
        <NewWorkspaceForm onDone={() => onOpenChange(false)} onCancel={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

export function NewWorkspaceForm({ onDone, onCancel }: { onDone?: () => void; onCancel?: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ name: "" }, errors);
  const { name } = draft;

  const submit = () =>
    run(
      async () => {
        const workspace = await createWorkspace(name.trim());
        await queryClient.invalidateQueries({ queryKey: keys.me });
        onDone?.();
        void navigate({ to: "/w/$workspaceId", params: { workspaceId: workspace.id } });
      },
      {
        check: () => (name.trim() === "" ? { name: "Name the workspace, e.g. the client or team it is for." } : {}),
        fields: ["name"],
      },
    );

  return (
    <Form onSubmit={submit} className="grid gap-4">
      <FormError message={formError} />
      <Field label="Workspace name" name="workspace-name" autoComplete="off" {...text("name")} />
      <DialogActions
        type="submit"
        pending={pending}
        label="Create workspace"
        // Also shown on a page of its own, where there is nothing to cancel.
        cancel={
          onCancel ? (
            <Button variant="outline" onClick={onCancel}>
              Cancel
            </Button>
          ) : (
            false
          )
        }
      />
    </Form>
  );
}
