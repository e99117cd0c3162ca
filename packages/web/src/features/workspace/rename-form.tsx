import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { NameForm } from "../../components/name-form.tsx";
import { keys } from "../../lib/queries.ts";
import type { Workspace } from "../../lib/types.ts";
import { renameWorkspace } from "./workspace-api.ts";

export function RenameForm({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  return (
    <NameForm
      label="Workspace name"
      name="workspace-name"
      current={workspace.name}
      missing="The workspace needs a name."
      save={async (name) => {
        await renameWorkspace(workspace.id, name);
        await queryClient.invalidateQueries({ queryKey: keys.workspace(workspace.id), exact: true });
        await queryClient.invalidateQueries({ queryKey: keys.me });
        toast.success("Workspace renamed");
      }}
    />
  );
}
