import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Trash2Icon } from "lucide-react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Button } from "../../components/ui/button.tsx";
import { engineName, formatDate, formatDateTime } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { allChangesKey, type Change, changeQuery, deleteChange } from "./experiments-api.ts";

function PromptList({ title, prompts }: { title: string; prompts: readonly string[] }) {
  return (
    <div className="grid gap-1">
      <h3 className="text-sm font-semibold">
        {title} ({prompts.length})
      </h3>
      <ul className="list-disc pl-5 text-sm wrap-anywhere">
        {prompts.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </div>
  );
}

function ExternalLink({ url }: { url: string }) {
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className="text-primary underline-offset-4 wrap-anywhere hover:underline"
    >
      {url}
    </a>
  );
}

/** What the experiment compares: the change, its pages, its engines, its treated and control prompts. */
export function ChangeSetup({ change }: { change: Change }) {
  const { canEdit } = useBrand();
  return (
    <SectionCard
      titleId="setup-title"
      title="What is compared"
      description={`Answers from ${formatDate(change.window.before_from)} to ${formatDate(change.window.after_to)}: up to 28 days each side of the change.`}
      actions={canEdit ? <DeleteChange change={change} /> : undefined}
      contentClassName="grid gap-4"
    >
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <div className="grid gap-0.5">
          <dt className="text-xs text-muted-foreground">Changed on</dt>
          <dd className="font-medium">{formatDateTime(change.changed_at)}</dd>
        </div>
        <div className="grid gap-0.5">
          <dt className="text-xs text-muted-foreground">Engines</dt>
          <dd className="font-medium">{change.engines.map(engineName).join(", ")}</dd>
        </div>
        {change.pages.length > 0 && (
          <div className="grid gap-0.5 sm:col-span-2">
            <dt className="text-xs text-muted-foreground">Changed pages</dt>
            {change.pages.map((page) => (
              <dd key={page}>
                <ExternalLink url={page} />
              </dd>
            ))}
          </div>
        )}
        {change.placement_url && (
          <div className="grid gap-0.5 sm:col-span-2">
            <dt className="text-xs text-muted-foreground">Placement</dt>
            <dd>
              <ExternalLink url={change.placement_url} />
            </dd>
          </div>
        )}
      </dl>
      <div className="grid gap-4 sm:grid-cols-2">
        <PromptList title="Treated prompts: should move" prompts={change.prompts} />
        <PromptList title="Control prompts: should not" prompts={change.control_prompts} />
      </div>
      {change.prompts_proposed && (
        <p className="text-xs text-muted-foreground">
          {change.opportunity_id
            ? "The treated prompts are those of the opportunity acted on."
            : "The treated prompts were proposed by Sightline: those whose answers cite the changed pages, then those sharing their words."}
        </p>
      )}
    </SectionCard>
  );
}

function DeleteChange({ change }: { change: Change }) {
  const { workspaceId, project } = useBrand();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm">
          <Trash2Icon aria-hidden="true" />
          Delete
        </Button>
      }
      title={`Delete “${change.title}”?`}
      description={
        change.plan.schedule_id
          ? "The change and the schedule collecting its samples are deleted. The answers already asked stay the brand's."
          : "The change is deleted. The answers stay the brand's."
      }
      confirmLabel="Delete the change"
      onConfirm={async () => {
        await deleteChange(workspaceId, project.id, change.id);
        toast.success(`“${change.title}” is deleted.`);
        await navigate({
          to: "/w/$workspaceId/brands/$brandId/experiments",
          params: { workspaceId, brandId: project.id },
        });
        queryClient.removeQueries({ queryKey: changeQuery(workspaceId, project.id, change.id).queryKey });
        void queryClient.invalidateQueries({ queryKey: allChangesKey(workspaceId, project.id) });
      }}
    />
  );
}
