import { Link } from "@tanstack/react-router";
import { InfoIcon } from "lucide-react";
import { useId } from "react";
import { GLOSSARY, type METRIC_IDS } from "../generated/glossary.ts";
import { cn } from "../lib/utils.ts";
import { Popover, PopoverContent, PopoverTrigger } from "./ui/popover.tsx";

/** A figure the glossary defines (the server's services/glossary/metrics.ts). */
export type MetricId = (typeof METRIC_IDS)[number];

/**
 * The glossary's one-sentence hint beside a figure, with a link to its full definition. A button
 * (keyboard users reach it) that opens a popover on click or tap, where a hover tooltip would leave
 * phones and keyboards out; screen readers hear the hint as its description without opening it.
 */
export function FigureHint({ id, className }: { id: MetricId; className?: string }) {
  const hintId = useId();
  const { name, hint } = GLOSSARY[id];
  return (
    <Popover>
      <PopoverTrigger asChild>
        <button
          type="button"
          aria-label={`About ${name}`}
          aria-describedby={hintId}
          data-figure-hint={id}
          // 24 px to tap, without making the line it sits on any taller.
          className={cn(
            "-my-1 inline-flex size-6 shrink-0 items-center justify-center rounded-full text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none data-[state=open]:text-foreground",
            className,
          )}
        >
          <InfoIcon className="size-3.5" aria-hidden="true" />
        </button>
      </PopoverTrigger>
      <span id={hintId} hidden>
        {hint}
      </span>
      <PopoverContent aria-label={name} className="grid gap-1.5">
        <p className="font-medium">{name}</p>
        <p className="text-muted-foreground">{hint}</p>
        <Link
          to="/glossary"
          hash={id}
          className="w-fit text-primary underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          Full definition in the Glossary
        </Link>
      </PopoverContent>
    </Popover>
  );
}

/** A figure's glossary name with its hint: the label of a tile, a fact or a column. */
export function FigureName({ id, className }: { id: MetricId; className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-0.5", className)}>
      <span>{GLOSSARY[id].name}</span>
      <FigureHint id={id} />
    </span>
  );
}
