import type { Persona } from "@sightline/sdk";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { PencilIcon, PlusIcon, Trash2Icon, UsersIcon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { EmptyState, QueryState } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Switch } from "../../components/ui/switch.tsx";
import { errorMessage } from "../../lib/api.ts";
import { plural } from "../../lib/format.ts";
import { keys } from "../../lib/queries.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { allPersonasKey, deletePersona, MAX_PERSONAS, personasQuery, updatePersona } from "./audiences-api.ts";
import { PersonaDialog } from "./persona-dialog.tsx";
import { PERSONA_FIELDS, PERSONA_LABELS } from "./persona-draft.ts";

/** The brand's personas: who the engines are asked as, each with the text they receive. */
export function PersonasCard() {
  const { workspaceId, project, canEdit } = useBrand();
  const personas = useQuery(personasQuery(workspaceId, project.id));
  const list = personas.data?.data ?? [];
  const active = list.filter((p) => p.active).length;
  return (
    <SectionCard
      titleId="personas-title"
      title="Personas"
      description={
        list.length === 0
          ? "The people who ask: each analysis asks every prompt as each persona switched on, so you see whether engines recommend the brand to the buyers you want."
          : active === 0
            ? `${plural(list.length, "persona")}, none switched on: analyses ask as nobody in particular.`
            : active === 1
              ? `${plural(list.length, "persona")}, 1 switched on: each analysis asks every prompt as ${list.find((p) => p.active)?.name}.`
              : `${plural(list.length, "persona")}, ${active} switched on: each analysis asks every prompt as each of them, ${active} times the answers (and credits).`
      }
      actions={
        canEdit &&
        list.length < MAX_PERSONAS && (
          <PersonaDialog
            trigger={
              <Button>
                <PlusIcon aria-hidden="true" />
                Add a persona
              </Button>
            }
          />
        )
      }
      contentClassName="grid gap-4"
    >
      <QueryState query={personas} loading="Loading the personas…" error="The personas could not be loaded" />
      {personas.data && list.length === 0 && (
        <EmptyState icon={<UsersIcon />} title="No personas yet">
          {canEdit
            ? "Add the buyers you sell to (a cautious CFO, a head of marketing at a 50-person agency). Until then, the engines are asked as nobody in particular."
            : "A member of this workspace adds them. Until then, the engines are asked as nobody in particular."}
        </EmptyState>
      )}
      {list.length > 0 && (
        <ul className="divide-y" aria-label="Personas">
          {list.map((persona) => (
            <PersonaItem key={persona.id} persona={persona} />
          ))}
        </ul>
      )}
      {canEdit && list.length >= MAX_PERSONAS && (
        <p className="text-sm text-muted-foreground">
          A brand has at most {MAX_PERSONAS} personas: delete one to add another.
        </p>
      )}
    </SectionCard>
  );
}

function PersonaItem({ persona }: { persona: Persona }) {
  const { workspaceId, project, canEdit } = useBrand();
  const queryClient = useQueryClient();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: allPersonasKey(workspaceId, project.id) });
  const filled = PERSONA_FIELDS.filter((field) => persona[field] !== null);

  async function setActive(active: boolean) {
    setBusy(true);
    try {
      await updatePersona(workspaceId, project.id, persona.id, { active });
      await refresh();
      toast.success(
        active
          ? `“${persona.name}” is switched on: the next analysis asks as this person.`
          : `“${persona.name}” is switched off: analyses no longer ask as this person.`,
      );
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="grid gap-3 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h3 className="font-medium wrap-anywhere">{persona.name}</h3>
          <Badge variant={persona.active ? "success" : "muted"}>
            {persona.active ? "Switched on" : "Switched off"}
          </Badge>
          <span
            className="text-xs text-muted-foreground"
            title="Each edit makes a new version; every answer keeps the version it was asked under."
          >
            Version {persona.version}
          </span>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <div className="flex items-center gap-2">
            <Switch
              id={`${id}-active`}
              checked={persona.active}
              disabled={!canEdit || busy}
              onCheckedChange={(on) => void setActive(on)}
              aria-label={`Ask as “${persona.name}” in analyses`}
            />
            <span className="text-xs text-muted-foreground" aria-hidden="true">
              {persona.active ? "On" : "Off"}
            </span>
          </div>
          {canEdit && (
            <>
              <PersonaDialog
                persona={persona}
                trigger={
                  <Button variant="outline" size="sm" aria-label={`Edit persona: ${persona.name}`}>
                    <PencilIcon aria-hidden="true" />
                    Edit
                  </Button>
                }
              />
              <ConfirmDialog
                trigger={
                  <Button variant="outline" size="sm" aria-label={`Delete persona: ${persona.name}`}>
                    <Trash2Icon aria-hidden="true" />
                    Delete
                  </Button>
                }
                title={`Delete “${persona.name}”?`}
                description="Analyses stop asking as this person. The answers asked as them so far keep counting under their name in the comparisons; conversation scripts asked as them are asked as nobody in particular."
                confirmLabel="Delete persona"
                onConfirm={async () => {
                  await deletePersona(workspaceId, project.id, persona.id);
                  await refresh();
                  // Scripts asked as this persona are now asked as nobody in particular: read them again.
                  await queryClient.invalidateQueries({
                    queryKey: keys.workspacePart(workspaceId, "conversations", project.id),
                  });
                  toast.success(`“${persona.name}” was deleted.`);
                }}
              />
            </>
          )}
        </div>
      </div>
      {filled.length > 0 && (
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
          {filled.map((field) => (
            <div key={field} className="min-w-0">
              <dt className="text-xs text-muted-foreground">{PERSONA_LABELS[field]}</dt>
              <dd className="wrap-anywhere">{persona[field]}</dd>
            </div>
          ))}
        </dl>
      )}
      <div className="grid gap-1">
        <p className="text-xs font-medium text-muted-foreground">What the engines receive with every prompt</p>
        {persona.context === "" ? (
          <p className="text-sm text-muted-foreground">
            Nothing: with only a name, the engines are asked as nobody in particular. Edit it to describe the person.
          </p>
        ) : (
          <blockquote className="rounded-md border-l-4 border-primary/40 bg-muted/60 px-3 py-2 text-sm wrap-anywhere">
            {persona.context}
          </blockquote>
        )}
      </div>
    </li>
  );
}
