import { CopyField } from "../../components/copy-field.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { DateText } from "../../components/when.tsx";
import { planName } from "../../lib/format.ts";
import { atLeast } from "../../lib/roles.ts";
import { DeleteWorkspaceDialog } from "./delete-workspace-dialog.tsx";
import { RenameForm } from "./rename-form.tsx";
import { useWorkspace } from "./workspace-context.tsx";

export function WorkspaceCard() {
  const workspace = useWorkspace();
  const isOwner = workspace.role === "owner";
  return (
    <SectionCard
      id="workspace"
      titleId="workspace-title"
      title="Workspace"
      description={
        <>
          {planName(workspace.plan)} plan · created <DateText value={workspace.created_at} />
        </>
      }
      contentClassName="grid gap-6"
    >
      {atLeast(workspace.role, "admin") ? (
        <RenameForm key={workspace.name} workspace={workspace} />
      ) : (
        <div>
          <p className="text-sm font-medium">Workspace name</p>
          <p className="mt-1 text-sm">{workspace.name}</p>
          <p className="mt-1 text-xs text-muted-foreground">Only admins and owners can rename the workspace.</p>
        </div>
      )}
      <div className="grid gap-1">
        <CopyField label="Workspace ID" value={workspace.id} />
        <p className="text-xs text-muted-foreground">Used by the command-line tool and in support requests.</p>
      </div>
      {isOwner && (
        <section
          aria-labelledby="danger-title"
          className="grid gap-3 rounded-lg border border-destructive/40 p-4 sm:flex sm:items-center sm:justify-between"
        >
          <div>
            <h3 id="danger-title" className="text-sm font-semibold text-destructive">
              Danger zone
            </h3>
            <p className="mt-1 text-sm text-muted-foreground">
              Delete this workspace and everything it holds, for every member.
            </p>
          </div>
          <DeleteWorkspaceDialog workspace={workspace} />
        </section>
      )}
    </SectionCard>
  );
}
