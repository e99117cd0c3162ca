import type { ConversationScript, Persona } from "@sightline/sdk";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { MessagesSquareIcon, PencilIcon, Trash2Icon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { EmptyState } from "../../components/page-states.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Switch } from "../../components/ui/switch.tsx";
import { errorMessage } from "../../lib/api.ts";
import { countryLabel } from "../../lib/countries.ts";
import { plural } from "../../lib/format.ts";
import { personasQuery } from "../audiences/audiences-api.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { allScriptsKey, deleteScript, updateScript } from "./conversations-api.ts";
import { ScriptDialog } from "./script-dialog.tsx";
import { ScriptStats, turnName } from "./script-stats.tsx";

/** The persona a script or a conversation is asked as, by name ("Nobody in particular" without one). */
export function personaName(personas: readonly Persona[] | undefined, id: string | null): string {
  if (id === null) return "Nobody in particular";
  return personas?.find((p) => p.id === id)?.name ?? "A deleted persona";
}

/** The brand's scripts, each with its questions, its actions and its figures per engine. */
export function ScriptsList({ scripts }: { scripts: readonly ConversationScript[] }) {
  const { canEdit } = useBrand();
  if (scripts.length === 0) {
    return (
      <EmptyState icon={<MessagesSquareIcon />} title="No conversation scripts yet">
        {canEdit
          ? "Buyers rarely stop at one question. Write the opening question and the follow-ups they ask (“which is cheapest?”, “we can't use that one; what else?”): each analysis holds the conversation and shows whether the brand enters it, stays in it, or drops out."
          : "Members write conversation scripts here; their figures appear once an analysis has run them."}
      </EmptyState>
    );
  }
  return (
    <ul className="grid gap-4" aria-label="Conversation scripts">
      {scripts.map((script) => (
        <ScriptItem key={script.id} script={script} />
      ))}
    </ul>
  );
}

function ScriptItem({ script }: { script: ConversationScript }) {
  const { workspaceId, project, canEdit } = useBrand();
  const queryClient = useQueryClient();
  const personas = useQuery(personasQuery(workspaceId, project.id));
  const id = useId();
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: allScriptsKey(workspaceId, project.id) });
  const variables = Object.entries(script.variables);

  async function setActive(active: boolean) {
    setBusy(true);
    try {
      await updateScript(workspaceId, project.id, script.id, { active });
      await refresh();
      toast.success(
        active
          ? `“${script.name}” is switched on: the next analysis holds it.`
          : `“${script.name}” is switched off: analyses no longer hold it.`,
      );
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li>
      <Card className="gap-4 py-4" aria-labelledby={`${id}-name`}>
        <CardContent className="grid gap-4 px-4 sm:px-6">
          <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
            <div className="grid min-w-0 gap-1">
              <div className="flex flex-wrap items-center gap-2">
                <h3 id={`${id}-name`} className="text-base font-semibold wrap-anywhere">
                  {script.name}
                </h3>
                <Badge variant={script.active ? "success" : "muted"}>
                  {script.active ? "Switched on" : "Switched off"}
                </Badge>
              </div>
              <p className="text-sm text-muted-foreground">
                Asked as {personaName(personas.data?.data, script.persona_id)} ·{" "}
                {script.country ? `from ${countryLabel(script.country)}` : "from no particular country"} ·{" "}
                {plural(script.turns.length, "turn")}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <div className="flex items-center gap-2">
                <Switch
                  checked={script.active}
                  disabled={!canEdit || busy}
                  onCheckedChange={(on) => void setActive(on)}
                  aria-label={`Run “${script.name}” in analyses`}
                />
                <span className="text-xs text-muted-foreground" aria-hidden="true">
                  {script.active ? "On" : "Off"}
                </span>
              </div>
              {canEdit && (
                <>
                  <ScriptDialog
                    script={script}
                    trigger={
                      <Button variant="outline" size="sm" aria-label={`Edit script: ${script.name}`}>
                        <PencilIcon aria-hidden="true" />
                        Edit
                      </Button>
                    }
                  />
                  <ConfirmDialog
                    trigger={
                      <Button variant="outline" size="sm" aria-label={`Delete script: ${script.name}`}>
                        <Trash2Icon aria-hidden="true" />
                        Delete
                      </Button>
                    }
                    title={`Delete “${script.name}”?`}
                    description="Analyses stop holding this conversation. The conversations it ran are kept, with its questions as they were."
                    confirmLabel="Delete script"
                    onConfirm={async () => {
                      await deleteScript(workspaceId, project.id, script.id);
                      await refresh();
                      toast.success(`“${script.name}” was deleted.`);
                    }}
                  />
                </>
              )}
            </div>
          </div>
          <ol className="grid gap-1.5 text-sm" aria-label={`The questions of “${script.name}”`}>
            {script.turns.map((turn, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the turns' order is the script's; two may read alike
              <li key={index} className="grid gap-0.5 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-3">
                <span className="text-xs text-muted-foreground sm:pt-0.5">{turnName(index + 1)}</span>
                <span className="wrap-anywhere">{turn}</span>
              </li>
            ))}
          </ol>
          {variables.length > 0 && (
            <p className="text-xs text-muted-foreground">
              Variables:{" "}
              {variables.map(([name, value], index) => (
                <span key={name}>
                  {index > 0 && ", "}
                  <code>{`{${name}}`}</code> = {value}
                </span>
              ))}
            </p>
          )}
          <ScriptStats script={script} />
        </CardContent>
      </Card>
    </li>
  );
}
