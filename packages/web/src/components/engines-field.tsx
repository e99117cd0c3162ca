import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId } from "react";
import { enginesQuery } from "../features/engines/engines-api.ts";
import { useWorkspace } from "../features/workspace/workspace-context.tsx";
import { engineName } from "../lib/format.ts";
import type { EngineStatus } from "../lib/types.ts";
import { FieldError } from "./form.tsx";
import { Checkbox } from "./ui/checkbox.tsx";
import { Label } from "./ui/label.tsx";

/** Engines that can run first (ready, then failing), then those that cannot; otherwise in the order given. */
function rank(status: EngineStatus | undefined): number {
  if (status === undefined) return 1;
  if (!status.can_run) return 2;
  return status.status === "failing" ? 1 : 0;
}

/**
 * Engines as checkboxes (the workspace's plan's, in the order given), ready ones first. For a run
 * (`purpose: "run"`), an engine that cannot answer is disabled with the reason and a link to
 * Settings → Engines; one already chosen stays free to untick. A filter (`"filter"`) offers them all.
 */
export function EnginesField({
  legend = "Engines",
  description,
  engines,
  value,
  onChange,
  error,
  purpose = "run",
}: {
  legend?: string;
  description?: string;
  engines: readonly string[];
  value: readonly string[];
  onChange: (engines: string[]) => void;
  error?: string | undefined;
  purpose?: "run" | "filter";
}) {
  const id = useId();
  const workspace = useWorkspace();
  const statuses = useQuery(enginesQuery(workspace.id));
  const byName = new Map((statuses.data?.data ?? []).map((status) => [status.name, status]));
  const ordered = engines
    .map((engine, index) => ({ engine, index, status: byName.get(engine) }))
    .sort((a, b) => rank(a.status) - rank(b.status) || a.index - b.index);
  const blocked = ordered.some(({ status }) => status !== undefined && !status.can_run);
  const describedBy = [description ? `${id}-description` : undefined, error ? `${id}-error` : undefined]
    .filter(Boolean)
    .join(" ");

  function toggle(engine: string, on: boolean) {
    const next = new Set(value);
    if (on) next.add(engine);
    else next.delete(engine);
    onChange(engines.filter((name) => next.has(name)));
  }

  return (
    <fieldset className="grid gap-2" aria-describedby={describedBy || undefined}>
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {description && (
        <p id={`${id}-description`} className="-mt-1 mb-1 text-xs text-muted-foreground">
          {description}
        </p>
      )}
      <div className="grid gap-2.5 sm:grid-cols-2">
        {ordered.map(({ engine, status }) => {
          const checked = value.includes(engine);
          const cannot = purpose === "run" && status !== undefined && !status.can_run;
          // No key: said briefly, the link under the list says where to add one; any other reason in full.
          const note = cannot
            ? status.status === "no_key" && status.in_plan
              ? "No key yet"
              : (status.reason ?? "It cannot answer now.")
            : status?.status === "failing"
              ? `Its last test failed${status.last_error ? `: ${status.last_error}` : "."}`
              : undefined;
          const boxId = `${id}-${engine}`;
          return (
            <div key={engine} className="flex items-start gap-3">
              <Checkbox
                id={boxId}
                name="engines"
                checked={checked}
                // One already chosen stays free to untick, so that a run never has to include it.
                disabled={cannot && !checked}
                onCheckedChange={(on) => toggle(engine, on === true)}
                aria-describedby={note ? `${boxId}-note` : undefined}
                className="mt-0.5"
              />
              <div className="grid min-w-0 gap-0.5">
                <Label htmlFor={boxId} className={cannot ? "text-muted-foreground" : undefined}>
                  {status?.custom ? status.title : engineName(engine)}
                </Label>
                {note && (
                  <p
                    id={`${boxId}-note`}
                    className={`text-xs [overflow-wrap:anywhere] ${cannot ? "text-muted-foreground" : "text-warning"}`}
                  >
                    {note}
                  </p>
                )}
              </div>
            </div>
          );
        })}
      </div>
      {purpose === "run" && blocked && (
        <p className="text-xs text-muted-foreground">
          Engines without a key cannot answer.{" "}
          <Link
            to="/w/$workspaceId/settings"
            params={{ workspaceId: workspace.id }}
            hash="engines"
            className="font-medium text-foreground underline underline-offset-4"
          >
            Connect them in Settings → Engines
          </Link>
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}
