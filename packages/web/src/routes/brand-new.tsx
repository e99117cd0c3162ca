import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { RoleNote } from "../components/page-states.tsx";
import { bodyOf, emptyDraft } from "../features/brands/brand-draft.ts";
import { BrandForm } from "../features/brands/brand-form.tsx";
import { createProject } from "../features/brands/brands-api.ts";
import { useWorkspace } from "../features/workspace/workspace-context.tsx";
import { keys } from "../lib/queries.ts";
import { atLeast } from "../lib/roles.ts";
import { useTitle } from "../lib/use-title.ts";

export function BrandNewPage() {
  const workspace = useWorkspace();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useTitle(`Add a brand · ${workspace.name}`);
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Add a brand</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Sightline asks the engines your prompts and measures how this brand, and its competitors, appear in the
          answers.
        </p>
      </div>
      {atLeast(workspace.role, "member") ? (
        <BrandForm
          initial={emptyDraft(workspace.engines)}
          engines={workspace.engines}
          submitLabel="Add brand"
          cancel={
            <Link to="/w/$workspaceId" params={{ workspaceId: workspace.id }}>
              Cancel
            </Link>
          }
          onSubmit={async (draft) => {
            const project = await createProject(workspace.id, bodyOf(draft));
            await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspace.id, "projects") });
            toast.success(`${project.name} was added`);
            void navigate({
              to: "/w/$workspaceId/brands/$brandId",
              params: { workspaceId: workspace.id, brandId: project.id },
            });
          }}
        />
      ) : (
        <RoleNote>Viewers see every brand but cannot add one. Ask a member or an admin of {workspace.name}.</RoleNote>
      )}
    </div>
  );
}
