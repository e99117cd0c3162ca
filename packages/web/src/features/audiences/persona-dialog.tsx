import type { Persona } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { toast } from "sonner";
import { CheckboxField } from "../../components/checkbox-field.tsx";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { TextareaField } from "../../components/textarea-field.tsx";
import { useBrand } from "../brand-page/brand-context.tsx";
import { allPersonasKey, createPersona, updatePersona } from "./audiences-api.ts";
import {
  checkPersona,
  emptyPersona,
  MAX_LENGTH,
  PERSONA_FIELDS,
  PERSONA_LABELS,
  type PersonaDraft,
  personaBodyOf,
  personaDraftOf,
} from "./persona-draft.ts";

/** The short fields, each with its example: who they are, how big their company is, where they are. */
const SHORT_FIELDS = [
  { key: "role", placeholder: "e.g. Head of marketing" },
  { key: "company_size", placeholder: "e.g. 50–200 employees" },
  { key: "industry", placeholder: "e.g. Healthcare" },
  { key: "location", placeholder: "e.g. Berlin, Germany" },
  { key: "language", placeholder: "e.g. German" },
] as const;

/** "Add a persona", or "Edit" on one: the same form in a dialog. */
export function PersonaDialog({ trigger, persona }: { trigger: ReactNode; persona?: Persona }) {
  return (
    <FormDialog trigger={trigger} className="max-h-[92vh] overflow-y-auto sm:max-w-xl">
      {(close) => <PersonaForm persona={persona} onDone={close} />}
    </FormDialog>
  );
}

function PersonaForm({ persona, onDone }: { persona: Persona | undefined; onDone: () => void }) {
  const { workspaceId, project } = useBrand();
  const queryClient = useQueryClient();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, set, text } = useDraft<PersonaDraft>(persona ? personaDraftOf(persona) : emptyPersona(), errors);
  const cached = queryClient.getQueryData<{ data: Persona[] }>(allPersonasKey(workspaceId, project.id));
  const others = (cached?.data ?? []).filter((p) => p.id !== persona?.id).map((p) => p.name);

  const submit = () =>
    run(
      async () => {
        const body = personaBodyOf(draft);
        const saved = persona
          ? await updatePersona(workspaceId, project.id, persona.id, body)
          : await createPersona(workspaceId, project.id, body);
        await queryClient.invalidateQueries({ queryKey: allPersonasKey(workspaceId, project.id) });
        toast.success(
          persona
            ? `“${saved.name}” is saved (version ${saved.version}).`
            : `“${saved.name}” is added: ${saved.active ? "the next analysis asks every prompt as this person." : "switch it on to ask as this person."}`,
        );
        onDone();
      },
      { check: () => checkPersona(draft, others), fields: ["name", ...PERSONA_FIELDS] },
    );

  return (
    <DialogForm
      title={persona ? `Edit “${persona.name}”` : "Add a persona"}
      description="Who asks the engines: the fields you fill in become one short text that the engines receive with every prompt, as if this person were asking. Leave out what does not matter."
      onSubmit={submit}
      error={formError}
      pending={pending}
      label={persona ? "Save persona" : "Add persona"}
    >
      <Field
        label="Name"
        autoComplete="off"
        maxLength={MAX_LENGTH.name}
        placeholder="e.g. Cautious CFO"
        hint="How you refer to this person in the tables; the engines do not see it."
        {...text("name")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {SHORT_FIELDS.map(({ key, placeholder }) => (
          <Field
            key={key}
            label={PERSONA_LABELS[key]}
            autoComplete="off"
            maxLength={MAX_LENGTH[key]}
            placeholder={placeholder}
            {...text(key)}
          />
        ))}
      </div>
      <TextareaField
        label="Constraints"
        rows={3}
        maxLength={MAX_LENGTH.constraints}
        placeholder="e.g. We can't use Salesforce; under $50 a seat"
        hint="What they require or rule out. Engines often change their recommendation for it."
        {...text("constraints")}
      />
      <CheckboxField
        label="Ask the brand's prompts as this person"
        description="Each analysis asks every prompt under each persona switched on: two personas double the answers (and credits)."
        checked={draft.active}
        onCheckedChange={(on) => set("active", on)}
      />
    </DialogForm>
  );
}
