import type { PromptMetrics } from "@sightline/sdk";
import { Link } from "@tanstack/react-router";
import { CsvButton } from "../../components/csv-button.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { fileSlug } from "../../lib/csv.ts";
import { interval, percent, proportion, sampleSize } from "../../lib/figures.ts";
import { engineName } from "../../lib/format.ts";
import { sharedFilters } from "../../lib/period.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { pct } from "../charts/chart-parts.tsx";

/** Five steps of visibility, each with a text colour that reads on it (WCAG AA). */
const SCALE = [
  { from: 0, label: "0–20%", background: "#eff6ff", text: "#1e3a8a" },
  { from: 0.2, label: "20–40%", background: "#bfdbfe", text: "#172554" },
  { from: 0.4, label: "40–60%", background: "#60a5fa", text: "#172554" },
  { from: 0.6, label: "60–80%", background: "#2563eb", text: "#ffffff" },
  { from: 0.8, label: "80–100%", background: "#1e3a8a", text: "#ffffff" },
] as const;

function step(value: number) {
  return [...SCALE].reverse().find((s) => value >= s.from) ?? SCALE[0];
}

type Row = PromptMetrics["data"][number];

/** Prompts × engines, each cell the share of answers naming the brand; a cell opens its answers. */
export function PromptHeatmap({ metrics }: { metrics: PromptMetrics }) {
  const { workspaceId, project, search } = useBrand();
  const engines = [...new Set(metrics.data.map((row) => row.engine))].sort();
  // The brand's prompts first, in its order, then any other prompt that has answers in the period.
  const asked = new Set(metrics.data.map((row) => row.prompt));
  const prompts = [
    ...project.prompts.filter((p) => asked.has(p)),
    ...[...asked].filter((p) => !project.prompts.includes(p)),
  ];
  const cell = new Map(metrics.data.map((row) => [`${row.prompt}\u0000${row.engine}`, row]));
  const find = (prompt: string, engine: string): Row | undefined => cell.get(`${prompt}\u0000${engine}`);

  const csvRows = () => [
    ["Prompt", "Engine", "Visibility (%)", "95% low (%)", "95% high (%)", "Answers (n)", "Naming the brand"],
    ...metrics.data.map((row) => {
      const v = row.figures.visibility;
      return [row.prompt, engineName(row.engine), pct(v.value), pct(v.ci_low), pct(v.ci_high), v.n, v.count];
    }),
  ];

  return (
    <SectionCard
      titleId="heatmap-title"
      title="Visibility by prompt and engine"
      description={
        <>
          Each cell: the share of answers naming {project.name}, its 95% interval and the number of answers n. Open a
          cell to read its answers.
        </>
      }
      actions={
        <CsvButton
          label="Download the prompt figures as CSV"
          file={`${fileSlug(project.name, "prompts", metrics.from.slice(0, 10), metrics.to.slice(0, 10))}.csv`}
          rows={csvRows}
        />
      }
      contentClassName="grid gap-4"
    >
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="text-muted-foreground">Colour scale of visibility:</span>
        {SCALE.map((s) => (
          <span
            key={s.label}
            className="rounded px-2 py-0.5 font-medium"
            style={{ backgroundColor: s.background, color: s.text }}
          >
            {s.label}
          </span>
        ))}
        <span className="rounded border border-dashed px-2 py-0.5 text-muted-foreground">no answers</span>
      </div>
      <div className="relative w-full overflow-x-auto">
        <table className="w-full border-separate border-spacing-1 text-sm">
          <caption className="sr-only">
            Visibility of {project.name} by prompt (rows) and engine (columns), with 95% intervals and answers n
          </caption>
          <thead>
            <tr>
              <th scope="col" className="min-w-44 px-2 py-1 text-left text-xs font-medium text-muted-foreground">
                Prompt
              </th>
              {engines.map((engine) => (
                <th
                  key={engine}
                  scope="col"
                  className="px-2 py-1 text-center text-xs font-medium whitespace-nowrap text-muted-foreground"
                >
                  {engineName(engine)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {prompts.map((prompt) => (
              <tr key={prompt}>
                <th scope="row" className="max-w-72 px-2 py-1 text-left align-middle text-sm font-normal">
                  {prompt}
                </th>
                {engines.map((engine) => {
                  const row = find(prompt, engine);
                  const v = row?.figures.visibility;
                  if (!v || v.n === 0 || v.value === null) {
                    return (
                      <td
                        key={engine}
                        className="rounded-md border border-dashed px-2 py-2 text-center text-xs text-muted-foreground"
                      >
                        <span aria-hidden="true">–</span>
                        <span className="sr-only">No answers (n = 0)</span>
                      </td>
                    );
                  }
                  const color = step(v.value);
                  return (
                    <td key={engine} className="p-0">
                      <Link
                        to="/w/$workspaceId/brands/$brandId/answers"
                        params={{ workspaceId, brandId: project.id }}
                        search={{ ...sharedFilters(search), engine, prompt }}
                        title={`${proportion(v)}. Read the answers`}
                        className="flex min-w-24 flex-col items-center rounded-md px-2 py-1.5 text-center leading-tight outline-none hover:ring-2 hover:ring-ring/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
                        style={{ backgroundColor: color.background, color: color.text }}
                      >
                        <span className="sr-only">
                          {prompt}, {engineName(engine)}: visibility{" "}
                        </span>
                        <span className="text-base font-semibold tabular-nums">{percent(v.value)}</span>
                        <span className="text-[11px] tabular-nums">
                          <span className="sr-only"> (95% interval </span>
                          {interval(v)}
                          <span className="sr-only">,</span>
                        </span>
                        <span className="text-[11px] tabular-nums">
                          {sampleSize(v.n)}
                          <span className="sr-only"> answers). Read the answers</span>
                        </span>
                      </Link>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </SectionCard>
  );
}
