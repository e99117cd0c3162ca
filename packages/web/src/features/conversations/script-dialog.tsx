import type { ConversationScript } from "@sightline/sdk";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { toast } from "sonner";
import { CheckboxField } from "../../components/checkbox-field.tsx";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { SelectField } from "../../components/select-field.tsx";
import { TextareaField } from "../../components/textarea-field.tsx";
import { countryOptions } from "../../lib/countries.ts";
import { personasQuery } from "../audiences/audiences-api.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { allScriptsKey, createScript, updateScript } from "./conversations-api.ts";
import {
  checkScript,
  emptyScript,
  MAX_TURN_LENGTH,
  type ScriptDraft,
  scriptBodyOf,
  scriptDraftOf,
  scriptServerErrors,
} from "./script-draft.ts";
import { FollowUpsField, VariablesField } from "./script-fields.tsx";

/** Select values standing for "none" (Radix's select takes no empty value). */
const NOBODY = "nobody";
const NOWHERE = "nowhere";

/** "New script", or "Edit" on one: the same form in a dialog. */
export function ScriptDialog({ trigger, script }: { trigger: ReactNode; script?: ConversationScript }) {
  return (
    <FormDialog trigger={trigger} className="max-h-[92vh] overflow-y-auto sm:max-w-2xl">
      {(close) => <ScriptForm script={script} onDone={close} />}
    </FormDialog>
  );
}

function ScriptForm({ script, onDone }: { script: ConversationScript | undefined; onDone: () => void }) {
  const { workspaceId, project } = useBrand();
  const queryClient = useQueryClient();
  const personas = useQuery(personasQuery(workspaceId, project.id));
  const { run, pending, errors, formError } = useSubmit();
  const { draft, set, text } = useDraft<ScriptDraft>(script ? scriptDraftOf(script) : emptyScript(), errors);

  const submit = () =>
    run(
      async () => {
        const body = scriptBodyOf(draft);
        const saved = script
          ? await updateScript(workspaceId, project.id, script.id, body)
          : await createScript(workspaceId, project.id, body);
        await queryClient.invalidateQueries({ queryKey: allScriptsKey(workspaceId, project.id) });
        toast.success(
          script
            ? `“${saved.name}” is saved.`
            : `“${saved.name}” is ready: ${saved.active ? "the next analysis of the brand holds it as a conversation." : "switch it on to run it."}`,
        );
        onDone();
      },
      {
        check: () => checkScript(draft),
        place: (error) => scriptServerErrors(error, draft),
        summary: "Some fields need attention.",
      },
    );

  const personaOptions = [
    { value: NOBODY, label: "Nobody in particular" },
    ...(personas.data?.data ?? []).map((p) => ({ value: p.id, label: p.active ? p.name : `${p.name} (switched off)` })),
  ];

  return (
    <DialogForm
      title={script ? `Edit “${script.name}”` : "New conversation script"}
      description="The questions a buyer asks one after the other. Each analysis asks them in order on every engine that holds conversations, and measures whether the brand enters the conversation, stays in it, or drops out. One credit per turn."
      onSubmit={submit}
      error={formError}
      pending={pending}
      label={script ? "Save script" : "Create script"}
    >
      <Field
        label="Name"
        autoComplete="off"
        maxLength={120}
        placeholder="e.g. Shortlist, then a constraint"
        {...text("name")}
      />
      <TextareaField
        label="Opening question"
        rows={2}
        maxLength={MAX_TURN_LENGTH}
        placeholder="e.g. Which CRM suits a small agency?"
        hint="As a buyer would ask it, without your brand's name."
        {...text("opening", "turns.0")}
      />
      <FollowUpsField rows={draft.followUps} onChange={(rows) => set("followUps", rows)} errors={errors} />
      <VariablesField rows={draft.variables} onChange={(rows) => set("variables", rows)} errors={errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <SelectField
            label="Asked as"
            value={draft.personaId === "" ? NOBODY : draft.personaId}
            onChange={(value) => set("personaId", value === NOBODY ? "" : value)}
            options={personaOptions}
            error={errors.persona_id}
          />
          <p className="text-xs text-muted-foreground">
            {personaOptions.length > 1
              ? "The persona whose description the engines receive."
              : "No personas yet: add them on the Audiences tab."}
          </p>
        </div>
        <div className="grid gap-1.5">
          <SelectField
            label="Asked from"
            value={draft.country === "" ? NOWHERE : draft.country}
            onChange={(value) => set("country", value === NOWHERE ? "" : value)}
            options={[{ value: NOWHERE, label: "No particular country" }, ...countryOptions()]}
            contentClassName="max-h-72"
            error={errors.country}
          />
          <p className="text-xs text-muted-foreground">
            Engines that cannot be placed in this country are not asked this conversation.
          </p>
        </div>
      </div>
      <CheckboxField
        label="Run it in every analysis of the brand"
        description="Switched off, it is kept with its figures but not asked."
        checked={draft.active}
        onCheckedChange={(on) => set("active", on)}
      />
    </DialogForm>
  );
}
