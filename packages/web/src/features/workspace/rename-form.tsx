import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { Field, Form } from "../../components/form.tsx";
import { Spinner } from "../../components/page-states.tsx";
import { Button } from "../../components/ui/button.tsx";
import { errorMessage, fieldErrors } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import type { Workspace } from "../../lib/types.ts";
import { renameWorkspace } from "./workspace-api.ts";

export function RenameForm({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(workspace.name);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const unchanged = name.trim() === workspace.name;

  async function submit() {
    if (name.trim() === "") {
      setError("The workspace needs a name.");
      return;
    }
    setError(undefined);
    setPending(true);
    try {
      await renameWorkspace(workspace.id, name.trim());
      await queryClient.invalidateQueries({ queryKey: keys.workspace(workspace.id), exact: true });
      await queryClient.invalidateQueries({ queryKey: keys.me });
      toast.success("Workspace renamed");
    } catch (caught) {
      setError(fieldErrors(caught).name ?? errorMessage(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <Field
        label="Workspace name"
        name="workspace-name"
        autoComplete="off"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={error}
        className="flex-1"
      />
      <Button type="submit" variant="outline" disabled={pending || unchanged} className="sm:mt-[1.375rem]">
        {pending && <Spinner />}
        Save name
      </Button>
    </Form>
  );
}
