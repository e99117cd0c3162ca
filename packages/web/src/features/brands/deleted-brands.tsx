import { useQuery, useQueryClient } from "@tanstack/react-query";
import { RotateCcwIcon } from "lucide-react";
import { toast } from "sonner";
import { PendingButton, useSubmit } from "../../components/form.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { errorMessage } from "../../lib/api.ts";
import { formatDate } from "../../lib/format.ts";
import { deletedProjectsQuery, restoreBrand } from "./brand-deletion-api.ts";

/**
 * The brands deleted in the last 30 days, each with the date it is purged and, for owners and
 * admins, "Restore". Shown only when there is one.
 */
export function DeletedBrands({ workspaceId, canRestore }: { workspaceId: string; canRestore: boolean }) {
  const deleted = useQuery(deletedProjectsQuery(workspaceId));
  const list = deleted.data?.data ?? [];
  if (list.length === 0) return null;
  return (
    <SectionCard
      titleId="deleted-brands-title"
      title="Deleted brands"
      description={
        canRestore
          ? "Restoring a brand brings back everything it had: answers, figures, schedules, alerts and reports. Its monitoring resumes at the next scheduled time. On the date shown it is purged for good."
          : "An owner or admin can restore these with everything they had until the date shown; then they are purged for good."
      }
    >
      <ul className="divide-y">
        {list.map((project) => (
          <li
            key={project.id}
            className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="min-w-0">
              <p className="truncate font-medium">{project.name}</p>
              <p className="text-sm text-muted-foreground">
                {project.primary_domain} · deleted {project.deleted_at ? formatDate(project.deleted_at) : ""} · purged
                on {project.purge_at ? formatDate(project.purge_at) : ""}
              </p>
            </div>
            {canRestore && <RestoreButton workspaceId={workspaceId} projectId={project.id} name={project.name} />}
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}

function RestoreButton({ workspaceId, projectId, name }: { workspaceId: string; projectId: string; name: string }) {
  const queryClient = useQueryClient();
  const { run, pending } = useSubmit();
  const restore = () =>
    run(async () => {
      try {
        await restoreBrand(queryClient, workspaceId, projectId);
        toast.success(`${name} was restored with everything it had`);
      } catch (error) {
        toast.error(errorMessage(error));
      }
    });
  return (
    <PendingButton variant="outline" onClick={restore} pending={pending} aria-label={`Restore ${name}`}>
      <RotateCcwIcon aria-hidden="true" />
      Restore
    </PendingButton>
  );
}
