import { BadgeCheckIcon } from "lucide-react";
import { Tooltip, TooltipContent, TooltipTrigger } from "../../components/ui/tooltip.tsx";

const SIGNIFICANT_EXPLANATION = "Statistically real: the 95% intervals of the two periods do not overlap.";

/**
 * The mark of a change that is statistically real. A button, so that keyboard users reach the tooltip;
 * its accessible name says what it means in full.
 */
export function SignificantMark({ significant }: { significant: boolean | null | undefined }) {
  if (significant === null || significant === undefined) return null;
  if (!significant) {
    return (
      <span className="text-xs text-muted-foreground" title="The 95% intervals overlap: this change may be noise.">
        not significant
      </span>
    );
  }
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          aria-label={`Significant. ${SIGNIFICANT_EXPLANATION}`}
          className="inline-flex items-center gap-1 rounded-md border border-success/30 bg-success/10 px-1.5 py-0.5 text-xs font-medium text-success focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <BadgeCheckIcon className="size-3.5" aria-hidden="true" />
          Significant
        </button>
      </TooltipTrigger>
      <TooltipContent>{SIGNIFICANT_EXPLANATION}</TooltipContent>
    </Tooltip>
  );
}

/** The footnote under figures that carry the mark. */
export function SignificanceNote() {
  return (
    <p className="flex items-start gap-1.5 text-xs text-muted-foreground">
      <BadgeCheckIcon className="mt-px size-3.5 shrink-0 text-success" aria-hidden="true" />
      <span>
        <strong className="font-medium text-foreground">Significant</strong> marks a change that is{" "}
        {SIGNIFICANT_EXPLANATION.charAt(0).toLowerCase()}
        {SIGNIFICANT_EXPLANATION.slice(1)} Intervals are Wilson 95% intervals; n is the number of answers counted.
      </span>
    </p>
  );
}
