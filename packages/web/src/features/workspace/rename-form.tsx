import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Field, Form, PendingButton, useDraft, useSubmit } from "../../components/form.tsx";
import { errorMessage, fieldErrors } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import type { Workspace } from "../../lib/types.ts";
import { renameWorkspace } from "./workspace-api.ts";

export function RenameForm({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const { run, pending, errors } = useSubmit();
  const { draft, text } = useDraft({ name: workspace.name }, errors);
  const { name } = draft;
  const unchanged = name.trim() === workspace.name;

  const submit = () =>
    run(
      async () => {
        await renameWorkspace(workspace.id, name.trim());
        await queryClient.invalidateQueries({ queryKey: keys.workspace(workspace.id), exact: true });
        await queryClient.invalidateQueries({ queryKey: keys.me });
        toast.success("Workspace renamed");
      },
      {
        check: () => (name.trim() === "" ? { name: "The workspace needs a name." } : {}),
        // The form has no room for an error of its own: any error goes under the name.
        place: (error) => ({ fields: { name: fieldErrors(error).name ?? errorMessage(error) } }),
      },
    );

  return (
    <Form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <Field label="Workspace name" name="workspace-name" autoComplete="off" {...text("name")} className="flex-1" />
      <PendingButton
        type="submit"
        variant="outline"
        pending={pending}
        disabled={unchanged}
        className="sm:mt-[1.375rem]"
      >
        Save name
      </PendingButton>
    </Form>
  );
}
