import type { PromptSuggestions } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { SparklesIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { CheckboxGroup } from "../../components/checkbox-group.tsx";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { SelectField } from "../../components/select-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import { engineName, plural } from "../../lib/format.ts";
import { withKey } from "../../lib/own-keys.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { saveProject, suggestPrompts } from "./prompts-api.ts";

const MAX_COUNT = 20;
const MAX_PROMPTS = 200;

/** "Suggest prompts": an engine proposes questions buyers ask; the ones ticked are added to the prompts. */
export function SuggestPromptsDialog() {
  return (
    <FormDialog
      className="max-w-xl"
      trigger={
        <Button variant="outline">
          <SparklesIcon aria-hidden="true" />
          Suggest prompts
        </Button>
      }
    >
      {(close) => <SuggestPromptsForm onDone={close} />}
    </FormDialog>
  );
}

function SuggestPromptsForm({ onDone }: { onDone: () => void }) {
  const { workspaceId, project, engines } = useBrand();
  const queryClient = useQueryClient();
  const [engine, setEngine] = useState(engines.includes("sandbox") ? "sandbox" : (engines[0] ?? "sandbox"));
  const [suggestions, setSuggestions] = useState<PromptSuggestions["data"]>();
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const { run, pending, errors, formError, setFormError } = useSubmit();
  const { draft, text } = useDraft({ category: project.category ?? "", count: "10" }, errors);
  const { category, count } = draft;
  const wanted = Number(count);

  function check() {
    const found: Record<string, string> = {};
    if (!Number.isInteger(wanted) || wanted < 1 || wanted > MAX_COUNT)
      found.count = `A whole number from 1 to ${MAX_COUNT}.`;
    if (category.trim() === "") found.category = "Say what the brand sells, e.g. CRM for small agencies.";
    return found;
  }

  const ask = () =>
    run(
      async () => {
        // The category is the brand's: saved first, so the suggestions (and the next ones) start from it.
        if (category.trim() !== (project.category ?? "")) {
          await saveProject(queryClient, workspaceId, project.id, { category: category.trim() });
        }
        const list = await suggestPrompts(workspaceId, project.id, { engine, count: wanted });
        setSuggestions(list.data);
        setPicked(new Set());
      },
      { check, fields: ["category", "engine", "count"] },
    );

  async function add() {
    if (!suggestions || picked.size === 0) return;
    const chosen = suggestions.filter((s) => picked.has(s.prompt));
    if (project.prompts.length + chosen.length > MAX_PROMPTS) {
      setFormError(`A brand tracks at most ${MAX_PROMPTS} prompts; ${project.prompts.length} are tracked already.`);
      return;
    }
    await run(async () => {
      let tags = project.prompt_tags ?? {};
      for (const s of chosen) if (s.tags.length > 0) tags = withKey(tags, s.prompt, s.tags);
      await saveProject(queryClient, workspaceId, project.id, {
        prompts: [...project.prompts, ...chosen.map((s) => s.prompt)],
        prompt_tags: tags,
      });
      toast.success(`Added ${plural(chosen.length, "prompt")}; the next analysis asks them.`);
      onDone();
    });
  }

  if (suggestions) {
    return (
      <DialogForm
        title="Questions buyers ask"
        description={
          suggestions.length === 0
            ? "The engine suggested nothing new: every question it proposed is tracked already or names the brand. Ask again, or try another engine."
            : `Tick the questions to track for ${project.name}. None names the brand; each comes with its stage in the buying journey as a tag.`
        }
        onSubmit={add}
        error={formError}
        pending={pending}
        disabled={picked.size === 0}
        label={picked.size === 0 ? "Add prompts" : `Add ${plural(picked.size, "prompt")}`}
        cancel={
          <Button type="button" variant="outline" onClick={() => setSuggestions(undefined)}>
            Ask again
          </Button>
        }
      >
        {suggestions.length > 0 && (
          <CheckboxGroup
            legend={`Suggested questions (${picked.size} of ${suggestions.length} ticked)`}
            options={suggestions.map((s) => ({
              value: s.prompt,
              label: s.prompt,
              description: s.tags.length > 0 ? `Tag: ${s.tags.join(", ")}` : undefined,
            }))}
            value={picked}
            onChange={setPicked}
            box="max-h-80 gap-3"
          />
        )}
      </DialogForm>
    );
  }

  return (
    <DialogForm
      title={`Suggest prompts for ${project.name}`}
      description={`An engine lists questions a buyer in this market would ask an AI assistant. It is told the category, the competitors and the prompts already tracked, never ${project.name}'s name. Costs one credit.`}
      onSubmit={ask}
      error={formError}
      pending={pending}
      label="Suggest"
      className="grid gap-5"
    >
      <Field
        label="What the brand sells"
        placeholder="e.g. CRM for small agencies"
        hint="As a buyer would say it, without the brand's name. Saved as the brand's category."
        maxLength={200}
        {...text("category")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Engine"
          value={engine}
          onChange={setEngine}
          options={engines.map((name) => ({ value: name, label: engineName(name) }))}
          error={errors.engine}
        />
        <Field
          label="How many"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_COUNT}
          hint={`1 to ${MAX_COUNT} questions.`}
          {...text("count")}
        />
      </div>
    </DialogForm>
  );
}
