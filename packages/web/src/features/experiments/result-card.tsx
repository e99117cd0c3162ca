import type { ReactNode } from "react";
import { FigureName } from "../../components/figure-hint.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { engineName } from "../../lib/format.ts";
import { basis, beforeAfter, effectWithInterval, preTrendLine, pValue } from "./effect-text.ts";
import { type Change, type ExperimentEffect, STATUS_MEANING } from "./experiments-api.ts";
import { StatusBadge } from "./status-badge.tsx";

function Fact({ term, children }: { term: ReactNode; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="text-sm font-medium wrap-anywhere">{children}</dd>
    </div>
  );
}

/** One effect's figures: the effect with its interval and p-value, each side before → after, and its n. */
function EffectFacts({ effect, what }: { effect: ExperimentEffect; what: string }) {
  if (effect.status === "not_enough_data") return <p className="text-sm">{effect.message}</p>;
  return (
    <dl className="grid gap-3 sm:grid-cols-2">
      <Fact term={<FigureName id="experiment_effect" />}>
        <span className="text-lg">{effectWithInterval(effect)}</span>
        <span className="block text-xs font-normal text-muted-foreground">
          {pValue(effect.p_value)} · {basis(effect)}
        </span>
      </Fact>
      <Fact term={`${what}, each side of the change`}>
        <span className="block">Treated prompts: {beforeAfter(effect.treated)}</span>
        <span className="block">Control prompts: {beforeAfter(effect.control)}</span>
      </Fact>
    </dl>
  );
}

/**
 * The result card, in plain words: the server's sentence, what the status means, the effect on
 * visibility with its 95% interval and p-value, each side before and after, the pre-trend check and,
 * when pages were named, the effect on their citations.
 */
export function ResultCard({ change }: { change: Change }) {
  const overall = change.visibility.overall;
  return (
    <SectionCard
      titleId="result-title"
      title={
        <span className="flex flex-wrap items-center gap-2">
          Did it work? <StatusBadge status={change.status} />
        </span>
      }
      description={STATUS_MEANING[change.status]}
      contentClassName="grid gap-4"
    >
      <p className="text-base leading-relaxed font-medium wrap-anywhere">{change.summary}</p>
      <EffectFacts effect={overall} what="Visibility" />
      <p className="text-sm text-muted-foreground">{preTrendLine(change.pre_trend)}</p>
      {change.citations && (
        <div className="grid gap-2 border-t pt-4">
          <h3 className="text-sm font-semibold">Citations of the changed pages</h3>
          <p className="text-sm text-muted-foreground">
            The share of answers citing the changed pages{change.placement_url ? " or the placement" : ""}, compared the
            same way.
          </p>
          <EffectFacts effect={change.citations} what="Answers citing them" />
        </div>
      )}
    </SectionCard>
  );
}

/** The effect on visibility engine by engine (each measured alone, so each with fewer answers). */
export function EnginesTable({ change }: { change: Change }) {
  const rows = change.engines.map((engine) => ({ engine, effect: change.visibility.by_engine[engine] }));
  return (
    <SectionCard
      titleId="engines-title"
      title="Effect by engine"
      description="The same comparison on each engine's answers alone."
    >
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Engine</TableHead>
            <TableHead>Effect (95% interval)</TableHead>
            <TableHead wide>p-value</TableHead>
            <TableHead wide>Treated prompts</TableHead>
            <TableHead wide>Control prompts</TableHead>
            <TableHead wide className="text-right">
              Answers
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map(({ engine, effect }) => (
            <TableRow key={engine}>
              <TableCell className="font-medium">{engineName(engine)}</TableCell>
              {effect === undefined || effect.status === "not_enough_data" ? (
                <TableCell colSpan={5} className="text-muted-foreground">
                  {effect?.message ?? "No answers yet."}
                </TableCell>
              ) : (
                <>
                  <TableCell>
                    <span className="font-medium tabular-nums">{effectWithInterval(effect)}</span>
                    <span className="block text-xs text-muted-foreground md:hidden">
                      {pValue(effect.p_value)} · treated {beforeAfter(effect.treated)} · control{" "}
                      {beforeAfter(effect.control)} · {effect.answers.toLocaleString()} answers
                    </span>
                  </TableCell>
                  <TableCell wide className="tabular-nums">
                    {pValue(effect.p_value)}
                  </TableCell>
                  <TableCell wide className="tabular-nums">
                    {beforeAfter(effect.treated)}
                  </TableCell>
                  <TableCell wide className="tabular-nums">
                    {beforeAfter(effect.control)}
                  </TableCell>
                  <TableCell wide className="text-right tabular-nums">
                    {effect.answers.toLocaleString()}
                  </TableCell>
                </>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </SectionCard>
  );
}
