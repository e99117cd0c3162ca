import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { keys } from "../../lib/queries.ts";
import type { Workspace } from "../../lib/types.ts";
import { deleteWorkspace } from "./workspace-api.ts";

/** Deleting a workspace: the owner types its name to confirm. */
export function DeleteWorkspaceDialog({ workspace }: { workspace: Workspace }) {
  return (
    <FormDialog trigger={<Button variant="destructive">Delete workspace</Button>}>
      <DeleteFlow workspace={workspace} />
    </FormDialog>
  );
}

function DeleteFlow({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ typed: "" }, errors);
  const { typed } = draft;
  const matches = typed === workspace.name;

  async function submit() {
    if (!matches) return;
    // Pending until the page has left the deleted workspace.
    await run(async () => {
      await deleteWorkspace(workspace.id, typed);
      queryClient.removeQueries({ queryKey: keys.workspace(workspace.id) });
      await queryClient.invalidateQueries({ queryKey: keys.me });
      toast.success(`${workspace.name} was deleted`);
      await navigate({ to: "/" });
    });
  }

  return (
    <DialogForm
      title={`Delete ${workspace.name}?`}
      description="This deletes the workspace and everything in it: brands, analyses, reports, monitoring, API keys, webhooks and members' access. It cannot be undone."
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Delete workspace"
      variant="destructive"
      disabled={!matches}
    >
      <Field
        label={`Type “${workspace.name}” to confirm`}
        name="confirm-name"
        autoComplete="off"
        spellCheck={false}
        {...text("typed")}
      />
    </DialogForm>
  );
}
