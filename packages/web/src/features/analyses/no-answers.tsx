import { MessageSquareDashedIcon } from "lucide-react";
import { EmptyState } from "../../components/page-states.tsx";
import { periodPhrase } from "../../lib/period.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { RunAnalysisDialog } from "./run-analysis-dialog.tsx";

/** No answers for the filters: say so, and offer the way to get some. */
export function NoAnswers({ what = "figures" }: { what?: string }) {
  const { project, period, search, canEdit } = useBrand();
  return (
    <EmptyState icon={<MessageSquareDashedIcon />} title={`No answers for ${project.name} in this period`}>
      <p>
        There are no {what} for {periodPhrase(period)}
        {search.engine ? " on this engine" : ""}
        {period.tag ? ` for the prompts tagged “${period.tag}”` : ""} yet.{" "}
        {canEdit
          ? "Run an analysis to ask the engines now, or choose a longer period."
          : "Choose a longer period, or ask a member to run an analysis."}
      </p>
      {canEdit && (
        <div className="mt-4 flex justify-center">
          <RunAnalysisDialog />
        </div>
      )}
    </EmptyState>
  );
}
