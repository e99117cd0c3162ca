import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { RoleNote } from "../components/page-states.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { changesOf, draftOf } from "../features/brands/brand-draft.ts";
import { BrandForm } from "../features/brands/brand-form.tsx";
import { updateProject } from "../features/brands/brands-api.ts";
import { DeleteBrand } from "../features/brands/delete-brand.tsx";
import { keys } from "../lib/queries.ts";
import { useTitle } from "../lib/use-title.ts";

export function BrandEditPage() {
  const { workspaceId, project, engines, canEdit } = useBrand();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useTitle(`Edit · ${project.name}`);
  const back = { workspaceId, brandId: project.id };
  if (!canEdit) return <RoleNote>Viewers see the brand's settings but cannot change them.</RoleNote>;
  return (
    <section aria-labelledby="edit-title" className="grid gap-4">
      <h2 id="edit-title" className="text-lg font-semibold">
        Edit brand
      </h2>
      <BrandForm
        // A fresh form for each saved version of the brand.
        key={project.updated_at}
        initial={draftOf(project)}
        engines={engines}
        submitLabel="Save changes"
        cancel={
          <Link to="/w/$workspaceId/brands/$brandId" params={back}>
            Cancel
          </Link>
        }
        onSubmit={async (draft) => {
          const changes = changesOf(project, draft);
          if (Object.keys(changes).length === 0) {
            toast.message("Nothing changed");
            return;
          }
          const saved = await updateProject(workspaceId, project.id, changes);
          queryClient.setQueryData(keys.workspacePart(workspaceId, "projects", project.id), saved);
          await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "projects") });
          await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "analytics", project.id) });
          toast.success("The brand was saved");
          void navigate({ to: "/w/$workspaceId/brands/$brandId", params: back });
        }}
      />
      <DeleteBrand project={project} look="zone" />
    </section>
  );
}
