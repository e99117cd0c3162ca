import type { CompetitorSuggestions as Suggestions } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { PlusIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Spinner } from "../../components/page-states.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { errorMessage } from "../../lib/api.ts";
import { interval, percent, position } from "../../lib/figures.ts";
import { engineName, formatNumber } from "../../lib/format.ts";
import { keys } from "../../lib/queries.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { trackCompetitor } from "./analytics-api.ts";

const WIDE = "hidden md:table-cell";
const FOUND_IN: Record<string, string> = { list: "lists", table: "tables", bold: "bold", comparison: "“vs”" };

/** Brands the answers name that the brand does not track yet, with one click to track each. */
export function CompetitorSuggestionsCard({ suggestions }: { suggestions: Suggestions }) {
  const { workspaceId, project, canEdit } = useBrand();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string>();

  async function track(name: string) {
    setBusy(name);
    try {
      const saved = await trackCompetitor(workspaceId, project.id, name);
      queryClient.setQueryData(keys.workspacePart(workspaceId, "projects", project.id), saved);
      await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "projects") });
      await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "analytics", project.id) });
      toast.success(`${name} is tracked as a competitor; add its domains in Edit brand.`);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <Card aria-labelledby="suggestions-title">
      <CardHeader>
        <div>
          <CardTitle id="suggestions-title">Brands the engines also name</CardTitle>
          <CardDescription>
            {suggestions.data.length === 0
              ? `No untracked brand is named in two answers or more of the ${formatNumber(suggestions.scanned)} read.`
              : `Named in lists, tables, bold or comparisons in these answers but not tracked${
                  suggestions.capped ? ` (the ${formatNumber(suggestions.scanned)} most recent answers read)` : ""
                }. Tracking one adds it to the competitors; answers from now on count it.`}
          </CardDescription>
        </div>
      </CardHeader>
      {suggestions.data.length > 0 && (
        <CardContent>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Brand</TableHead>
                <TableHead className="text-right">Visibility</TableHead>
                <TableHead className={WIDE}>Engines</TableHead>
                {canEdit && (
                  <TableHead>
                    <span className="sr-only">Track</span>
                  </TableHead>
                )}
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
                  <TableCell className={`${WIDE} text-muted-foreground`}>
                    {Object.keys(row.engines).map(engineName).join(", ")}
                  </TableCell>
                  {canEdit && (
                    <TableCell className="text-right">
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={busy !== undefined}
                        aria-label={`Track ${row.name} as a competitor`}
                        onClick={() => track(row.name)}
                      >
                        {busy === row.name ? <Spinner /> : <PlusIcon aria-hidden="true" />}
                        Track
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      )}
    </Card>
  );
}
