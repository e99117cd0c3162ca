import type { Project } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Trash2Icon } from "lucide-react";
import { toast } from "sonner";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Button } from "../../components/ui/button.tsx";
import { formatDate } from "../../lib/format.ts";
import { atLeast } from "../../lib/roles.ts";
import { useWorkspace } from "../workspace/workspace-context.tsx";
import { deleteBrand } from "./brand-deletion-api.ts";

/**
 * "Delete brand", for owners and admins (nothing for other roles): the brand's name typed to
 * confirm. `icon`: a small button for a list's row; `zone`: a "Danger zone" card for the brand's
 * settings page. The brand can be restored from the Brands page for 30 days.
 */
export function DeleteBrand({ project, look }: { project: Project; look: "icon" | "zone" }) {
  const workspace = useWorkspace();
  if (!atLeast(workspace.role, "admin")) return null;
  const dialog = (
    <FormDialog
      trigger={
        look === "icon" ? (
          <Button variant="ghost" size="icon" aria-label={`Delete ${project.name}`} title="Delete brand">
            <Trash2Icon aria-hidden="true" />
          </Button>
        ) : (
          <Button variant="destructive">
            <Trash2Icon aria-hidden="true" />
            Delete brand
          </Button>
        )
      }
    >
      <DeleteFlow workspaceId={workspace.id} project={project} />
    </FormDialog>
  );
  if (look === "icon") return dialog;
  return (
    <SectionCard
      titleId="danger-zone-title"
      title="Danger zone"
      description="Deleting the brand hides it, its answers, figures, schedules, alerts and reports at once and stops its monitoring. An owner or admin can restore it with everything it had from the Brands page for 30 days; then it is purged for good."
      actions={dialog}
    />
  );
}

function DeleteFlow({ workspaceId, project }: { workspaceId: string; project: Project }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ typed: "" }, errors);
  const matches = draft.typed.trim() === project.name;

  async function submit() {
    if (!matches) return;
    await run(async () => {
      const deleted = await deleteBrand(queryClient, workspaceId, project.id, () =>
        navigate({ to: "/w/$workspaceId", params: { workspaceId } }),
      );
      toast.success(`${project.name} was deleted`, {
        description: `Its monitoring has stopped. Restore it under “Deleted brands” until ${formatDate(deleted.purge_at)}.`,
      });
    });
  }

  return (
    <DialogForm
      title={`Delete ${project.name}?`}
      description={`${project.name} disappears at once with its answers, figures, schedules, alerts and reports, and its monitoring stops. You can restore it with everything it had for 30 days (Brands → Deleted brands); after that it is purged for good.`}
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Delete brand"
      variant="destructive"
      disabled={!matches}
    >
      <Field
        label={`Type “${project.name}” to confirm`}
        name="confirm-brand-name"
        autoComplete="off"
        spellCheck={false}
        {...text("typed")}
      />
    </DialogForm>
  );
}
