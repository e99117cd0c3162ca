import { useQuery } from "@tanstack/react-query";
import { PlusIcon } from "lucide-react";
import { QueryState, RoleNote } from "../components/page-states.tsx";
import { Button } from "../components/ui/button.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { ChangesList } from "../features/experiments/changes-list.tsx";
import { changesQuery } from "../features/experiments/experiments-api.ts";
import { RecordChangeDialog } from "../features/experiments/record-change-dialog.tsx";
import { useTitle } from "../lib/use-title.ts";

/**
 * A brand's experiments (issue 27): the changes it made (a page rewritten, a listing in a review),
 * each measured as the difference its treated prompts show over its control prompts, before
 * against after. Recording one is the page's action.
 */
export function BrandExperimentsPage() {
  const { workspaceId, project, canEdit } = useBrand();
  useTitle(`Experiments · ${project.name}`);
  const changes = useQuery(changesQuery(workspaceId, project.id));
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid max-w-3xl gap-1">
          <h2 className="text-lg font-semibold">Experiments</h2>
          <p className="text-sm text-muted-foreground">
            Did a change work? Record what you changed and when; Sightline compares the prompts it should move (treated)
            with those it should not (control), 28 days before against after, and says whether the difference is real.
          </p>
        </div>
        {canEdit && (
          <RecordChangeDialog
            trigger={
              <Button>
                <PlusIcon aria-hidden="true" />
                Record a change
              </Button>
            }
          />
        )}
      </div>
      {!canEdit && <RoleNote>Viewers read the experiments; members record and delete changes.</RoleNote>}
      <QueryState query={changes} loading="Loading the changes…" error="The changes could not be loaded" />
      {changes.data && <ChangesList changes={changes.data.data} more={changes.data.has_more} />}
    </div>
  );
}
