import { queryOptions, useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { CalendarIcon } from "lucide-react";
import { useId, useState } from "react";
import { FieldError } from "../../components/form.tsx";
import { SelectField } from "../../components/select-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";
import { v1Call } from "../../lib/api.ts";
import { engineName, plural } from "../../lib/format.ts";
import {
  type BrandSearch,
  formatDayRange,
  MAX_DAYS,
  type Period,
  PRESET_DAYS,
  type PresetDays,
  periodQuery,
} from "../../lib/period.ts";
import { keys } from "../../lib/queries.ts";
import { useBrand } from "./brand-context.tsx";

const ALL = "all";

/** The engines with answers for the brand in the period, all engines together (the brand's figures, per engine). */
function enginesWithDataQuery(workspaceId: string, projectId: string, period: Period) {
  return queryOptions({
    // Under the brand's analytics: read again when an analysis finishes, as its figures are.
    queryKey: keys.workspacePart(
      workspaceId,
      "analytics",
      projectId,
      "engines-with-data",
      period.from,
      period.to,
      period.tag ?? "",
    ),
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "getProjectMetrics",
        { params: { id: projectId }, query: periodQuery(period, undefined) },
        { signal },
      ),
    select: (metrics) =>
      Object.entries(metrics.total.by_engine)
        .filter(([, slice]) => slice.counts.answers > 0)
        .map(([engine]) => engine),
  });
}
const CUSTOM = "custom";

/**
 * The period (7, 30, 90 days or a custom range), the engine and the prompt tag, shared by every brand view
 * through the URL. The tag select appears once the brand's prompts have tags. `periodOnly`: the period alone,
 * for a page whose figures are not the answers' (Traffic counts every engine and has no prompts). `tags`:
 * false where the figures are not counted per prompt (the Audiences' comparisons).
 */
export function FiltersBar({ periodOnly = false, tags: byTag = true }: { periodOnly?: boolean; tags?: boolean } = {}) {
  const { search, period, engines, project, workspaceId } = useBrand();
  const navigate = useNavigate();
  const id = useId();
  const [customOpen, setCustomOpen] = useState(period.custom);
  const [from, setFrom] = useState(period.firstDay);
  const [to, setTo] = useState(period.lastDay);
  const [rangeError, setRangeError] = useState<string>();
  const today = new Date().toISOString().slice(0, 10);

  function go(next: BrandSearch) {
    void navigate({
      to: ".",
      search: (prev: Record<string, unknown>) => ({ ...prev, ...next }) as never,
      replace: true,
    });
  }

  function choosePeriod(value: string) {
    if (value === CUSTOM) {
      setCustomOpen(true);
      return;
    }
    setCustomOpen(false);
    go({ days: Number(value) as PresetDays, from: undefined, to: undefined } as BrandSearch);
  }

  function applyRange() {
    if (!from || !to) return setRangeError("Choose the first and the last day.");
    if (from > to) return setRangeError("The first day comes after the last one.");
    const span = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
    if (span > MAX_DAYS) return setRangeError(`A range covers at most ${MAX_DAYS} days.`);
    setRangeError(undefined);
    go({ from, to, days: undefined } as BrandSearch);
  }

  const periodValue = customOpen || period.custom ? CUSTOM : String(search.days ?? 30);
  // Only the engines that answered for the brand in the period (and the one chosen, whatever it is).
  const answered =
    useQuery({ ...enginesWithDataQuery(workspaceId, project.id, period), enabled: !periodOnly }).data ?? [];
  const withData = [...engines.filter((e) => answered.includes(e)), ...answered.filter((e) => !engines.includes(e))];
  const engineOptions = search.engine && !withData.includes(search.engine) ? [...withData, search.engine] : withData;
  const tags = tagCounts(project.prompt_tags ?? {});
  if (search.tag && !tags.has(search.tag)) tags.set(search.tag, 0);

  return (
    <section
      aria-label="Filters"
      className="flex flex-col gap-3 rounded-lg border bg-card p-3 sm:flex-row sm:flex-wrap sm:items-end"
    >
      <SelectField
        label="Period"
        className="sm:w-44"
        value={periodValue}
        onChange={choosePeriod}
        options={[
          ...PRESET_DAYS.map((days) => ({ value: String(days), label: `Last ${days} days` })),
          { value: CUSTOM, label: "Custom range" },
        ]}
      />
      {(customOpen || period.custom) && (
        <div className="grid gap-1.5">
          <div className="flex flex-wrap items-end gap-2">
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-from`}>From</Label>
              <Input
                id={`${id}-from`}
                type="date"
                className="w-40"
                max={today}
                value={from}
                onChange={(event) => setFrom(event.target.value)}
                aria-invalid={rangeError ? true : undefined}
                aria-describedby={rangeError ? `${id}-range-error` : undefined}
              />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-to`}>To</Label>
              <Input
                id={`${id}-to`}
                type="date"
                className="w-40"
                max={today}
                value={to}
                onChange={(event) => setTo(event.target.value)}
                aria-invalid={rangeError ? true : undefined}
                aria-describedby={rangeError ? `${id}-range-error` : undefined}
              />
            </div>
            <Button variant="outline" onClick={applyRange}>
              Apply range
            </Button>
          </div>
          <FieldError id={`${id}-range-error`} message={rangeError} />
        </div>
      )}
      {!periodOnly && (
        <SelectField
          label="Engine"
          className="sm:w-52"
          value={search.engine ?? ALL}
          onChange={(value) => go({ engine: value === ALL ? undefined : value })}
          options={[
            { value: ALL, label: "All engines" },
            ...engineOptions.map((engine) => ({ value: engine, label: engineName(engine) })),
          ]}
        />
      )}
      {!periodOnly && byTag && tags.size > 0 && (
        <SelectField
          label="Prompt tag"
          className="sm:w-60"
          value={search.tag ?? ALL}
          onChange={(value) => go({ tag: value === ALL ? undefined : value })}
          options={[
            { value: ALL, label: "All prompts" },
            ...[...tags].map(([tag, count]) => ({ value: tag, label: `${tag} (${plural(count, "prompt")})` })),
          ]}
        />
      )}
      <p className="flex items-center gap-1.5 text-sm text-muted-foreground sm:ml-auto sm:pb-2">
        <CalendarIcon className="size-4 shrink-0" aria-hidden="true" />
        <span>
          {formatDayRange(period.firstDay, period.lastDay)} <span className="whitespace-nowrap">(UTC days)</span>
        </span>
      </p>
    </section>
  );
}

/** Every tag of the brand's prompts, sorted, with how many prompts carry it. */
function tagCounts(promptTags: Record<string, string[]>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tags of Object.values(promptTags)) for (const tag of tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return new Map([...counts].sort(([a], [b]) => a.localeCompare(b)));
}
