import type { CompetitorSuggestions as Suggestions } from "@sightline/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PlusIcon } from "lucide-react";
import { toast } from "sonner";
import { Spinner } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { errorMessage } from "../../lib/api.ts";
import { interval, percent, position } from "../../lib/figures.ts";
import { engineName, formatNumber } from "../../lib/format.ts";
import { keys } from "../../lib/queries.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { trackCompetitor } from "./analytics-api.ts";

const FOUND_IN: Record<string, string> = { list: "lists", table: "tables", bold: "bold", comparison: "“vs”" };

/** Brands the answers name that the brand does not track yet, with one click to track each. */
export function CompetitorSuggestionsCard({ suggestions }: { suggestions: Suggestions }) {
  const { workspaceId, project, canEdit } = useBrand();
  const queryClient = useQueryClient();
  const track = useMutation({
    mutationFn: async (name: string) => {
      const saved = await trackCompetitor(workspaceId, project.id, name);
      queryClient.setQueryData(keys.workspacePart(workspaceId, "projects", project.id), saved);
      await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "projects") });
      await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "analytics", project.id) });
    },
    onSuccess: (_, name) => toast.success(`${name} is tracked as a competitor; add its domains in Edit brand.`),
    onError: (error) => toast.error(errorMessage(error)),
  });

  return (
    <SectionCard
      titleId="suggestions-title"
      title="Brands the engines also name"
      description={
        suggestions.data.length === 0
          ? `No untracked brand is named in two answers or more of the ${formatNumber(suggestions.scanned)} read.`
          : `Named in lists, tables, bold or comparisons in these answers but not tracked${
              suggestions.capped ? ` (the ${formatNumber(suggestions.scanned)} most recent answers read)` : ""
            }. Tracking one adds it to the competitors; answers from now on count it.`
      }
    >
      {suggestions.data.length > 0 && (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Brand</TableHead>
              <TableHead className="text-right">Visibility</TableHead>
              <TableHead wide>Engines</TableHead>
              {canEdit && <TableHead srOnly>Track</TableHead>}
            </TableRow>
          </TableHeader>
          <TableBody>
            {suggestions.data.map((row) => (
              <TableRow key={row.name}>
                <TableCell>
                  <span className="block font-medium wrap-anywhere">{row.name}</span>
                  <span className="block text-xs text-muted-foreground">
                    in {formatNumber(row.answers)} answers · {row.found_in.map((f) => FOUND_IN[f] ?? f).join(", ")}
                    {row.average_position !== null && ` · listed ${position(row.average_position)} on average`}
                  </span>
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {percent(row.visibility.value)}
                  <span className="block text-xs text-muted-foreground">{interval(row.visibility)}</span>
                </TableCell>
                <TableCell wide className="text-muted-foreground">
                  {Object.keys(row.engines).map(engineName).join(", ")}
                </TableCell>
                {canEdit && (
                  <TableCell className="text-right">
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={track.isPending}
                      aria-label={`Track ${row.name} as a competitor`}
                      onClick={() => track.mutate(row.name)}
                    >
                      {track.isPending && track.variables === row.name ? <Spinner /> : <PlusIcon aria-hidden="true" />}
                      Track
                    </Button>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </SectionCard>
  );
}
