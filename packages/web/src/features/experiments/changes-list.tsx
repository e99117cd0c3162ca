import { Link } from "@tanstack/react-router";
import { FlaskConicalIcon } from "lucide-react";
import { EmptyState } from "../../components/page-states.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import type { Change } from "./experiments-api.ts";
import { StatusBadge } from "./status-badge.tsx";

/** The brand's changes, each with its status, date, title and the result card's sentence. */
export function ChangesList({ changes, more }: { changes: readonly Change[]; more: boolean }) {
  const { workspaceId, project, canEdit } = useBrand();
  if (changes.length === 0) {
    return (
      <EmptyState icon={<FlaskConicalIcon />} title="No changes recorded yet">
        {canEdit
          ? "Record what you changed (a page rewritten, a listing in a review) and when: Sightline compares the prompts it should move with the others, before against after."
          : "Members record changes here; their results appear as the answers come in."}
      </EmptyState>
    );
  }
  return (
    <>
      <ul className="grid gap-3" aria-label="Changes">
        {changes.map((change) => (
          <li key={change.id}>
            <Card className="gap-2 py-4">
              <CardContent className="grid gap-1.5 px-4 sm:px-6">
                <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                  <StatusBadge status={change.status} />
                  <span>
                    Changed <time dateTime={change.changed_at}>{formatDateTime(change.changed_at)}</time>
                  </span>
                </div>
                <h3 className="text-base leading-tight font-semibold wrap-anywhere">
                  <Link
                    to="/w/$workspaceId/brands/$brandId/experiments/$changeId"
                    params={{ workspaceId, brandId: project.id, changeId: change.id }}
                    className="text-foreground underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    {change.title}
                  </Link>
                </h3>
                <p className="text-sm text-muted-foreground wrap-anywhere">{change.summary}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
      {more && (
        <p className="text-sm text-muted-foreground">
          The {changes.length} most recently recorded changes are shown; delete old ones to see the others.
        </p>
      )}
    </>
  );
}
