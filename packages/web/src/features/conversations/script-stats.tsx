import type { ConversationScript } from "@sightline/sdk";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { QueryState } from "../../components/page-states.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { interval, percent, proportion, sampleSize } from "../../lib/figures.ts";
import { engineName, plural } from "../../lib/format.ts";
import { periodPhrase } from "../../lib/period.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { type EngineStats, scriptStatsQuery } from "./conversations-api.ts";

function Fact({ term, children }: { term: ReactNode; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="text-sm font-medium tabular-nums">{children}</dd>
    </div>
  );
}

/** "Turn 1 · Opening question", "Turn 3 · Follow-up 2". */
export function turnName(turn: number): string {
  return turn === 1 ? "Turn 1 · Opening question" : `Turn ${turn} · Follow-up ${turn - 1}`;
}

/** A script's figures per engine over the period: entered, survived, dropped out, and each turn. */
export function ScriptStats({ script }: { script: ConversationScript }) {
  const { workspaceId, project, period } = useBrand();
  const stats = useQuery(scriptStatsQuery(workspaceId, project.id, script.id, period));
  return (
    <div className="grid gap-3">
      <QueryState
        query={stats}
        loading="Loading the script's figures…"
        error="The script's figures could not be loaded"
        className="py-2"
      />
      {stats.data && stats.data.engines.length === 0 && (
        <p className="rounded-md bg-muted px-3 py-2 text-sm text-muted-foreground">
          No finished conversation of this script in {periodPhrase(period)}.{" "}
          {script.active
            ? "It runs with the brand's next analysis (Run analysis now, above), on every engine that holds conversations."
            : "Switch it on: the brand's next analysis then runs it."}
        </p>
      )}
      {stats.data && stats.data.engines.length > 0 && (
        <p className="text-xs text-muted-foreground">
          Over {periodPhrase(period)}, per engine: the conversations that ran every turn (those that stopped early are
          not counted); n counts conversations, with 95% intervals.
        </p>
      )}
      {stats.data?.engines.map((engine) => (
        <EngineFigures key={engine.engine} engine={engine} turns={stats.data.turns} />
      ))}
    </div>
  );
}

function EngineFigures({ engine, turns }: { engine: EngineStats; turns: readonly string[] }) {
  const name = engineName(engine.engine);
  return (
    <section aria-label={`${name}: figures of the script`} className="grid gap-3 rounded-lg border p-3 sm:p-4">
      <h4 className="text-sm font-semibold">
        {name}{" "}
        <span className="font-normal text-muted-foreground">· {plural(engine.conversations, "conversation")}</span>
      </h4>
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Fact term="Entered (named at some turn)">{proportion(engine.entered)}</Fact>
        <Fact term="Survived to the final answer">{proportion(engine.survived)}</Fact>
        <Fact term="Dropped out (named, then gone)">{proportion(engine.dropped)}</Fact>
        <Fact term="Entered at turn (median)">
          {engine.entry_turn_median === null ? "–" : `Turn ${engine.entry_turn_median}`}
        </Fact>
      </dl>
      <Table>
        <caption className="sr-only">{name}: the brand at each turn</caption>
        <TableHeader>
          <TableRow>
            <TableHead>Turn</TableHead>
            <TableHead>Brand named</TableHead>
            <TableHead wide className="text-right">
              Entered here
            </TableHead>
            <TableHead wide className="text-right">
              Dropped out here
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {engine.by_turn.map((row) => (
            <TableRow key={row.turn}>
              <TableHead
                scope="row"
                className="h-auto py-2 align-top text-sm font-medium whitespace-normal text-foreground"
              >
                <span>{turnName(row.turn)}</span>
                {turns[row.turn - 1] && (
                  <span className="mt-0.5 hidden max-w-md truncate text-xs font-normal text-muted-foreground md:block">
                    {turns[row.turn - 1]}
                  </span>
                )}
                <span className="mt-0.5 block text-xs font-normal text-muted-foreground md:hidden">
                  Entered here: {row.entered_here} · Dropped out here: {row.dropped_here}
                </span>
              </TableHead>
              <TableCell className="align-top tabular-nums">
                <span className="font-medium">{percent(row.mentioned.value)}</span>{" "}
                <span className="text-xs text-muted-foreground">
                  {row.mentioned.n > 0 ? `(${interval(row.mentioned)}, ${sampleSize(row.mentioned.n)})` : "(n = 0)"}
                </span>
              </TableCell>
              <TableCell wide className="text-right align-top tabular-nums">
                {row.entered_here}
              </TableCell>
              <TableCell wide className="text-right align-top tabular-nums">
                {row.dropped_here}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}
