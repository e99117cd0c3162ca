import type { PromptSuggestions } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { SparklesIcon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { CheckboxField } from "../../components/checkbox-field.tsx";
import { Field, FieldError, Form, FormError } from "../../components/form.tsx";
import { Spinner } from "../../components/page-states.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../components/ui/dialog.tsx";
import { Label } from "../../components/ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select.tsx";
import { formErrors } from "../../lib/api.ts";
import { engineName, plural } from "../../lib/format.ts";
import { withKey } from "../../lib/own-keys.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { saveProject, suggestPrompts } from "./prompts-api.ts";

const MAX_COUNT = 20;
const MAX_PROMPTS = 200;

/** "Suggest prompts": an engine proposes questions buyers ask; the ones ticked are added to the prompts. */
export function SuggestPromptsDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <SparklesIcon aria-hidden="true" />
          Suggest prompts
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">{open && <SuggestPromptsForm onDone={() => setOpen(false)} />}</DialogContent>
    </Dialog>
  );
}

function SuggestPromptsForm({ onDone }: { onDone: () => void }) {
  const { workspaceId, project, engines } = useBrand();
  const queryClient = useQueryClient();
  const id = useId();
  const [category, setCategory] = useState(project.category ?? "");
  const [engine, setEngine] = useState(engines.includes("sandbox") ? "sandbox" : (engines[0] ?? "sandbox"));
  const [count, setCount] = useState("10");
  const [suggestions, setSuggestions] = useState<PromptSuggestions["data"]>();
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function ask() {
    const found: Record<string, string> = {};
    const wanted = Number(count);
    if (!Number.isInteger(wanted) || wanted < 1 || wanted > MAX_COUNT)
      found.count = `A whole number from 1 to ${MAX_COUNT}.`;
    if (category.trim() === "") found.category = "Say what the brand sells, e.g. CRM for small agencies.";
    setErrors(found);
    setFormError(undefined);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      // The category is the brand's: saved first, so the suggestions (and the next ones) start from it.
      if (category.trim() !== (project.category ?? "")) {
        await saveProject(queryClient, workspaceId, project.id, { category: category.trim() });
      }
      const list = await suggestPrompts(workspaceId, project.id, { engine, count: wanted });
      setSuggestions(list.data);
      setPicked(new Set());
    } catch (error) {
      const split = formErrors(error, ["category", "engine", "count"]);
      setErrors(split.fields);
      setFormError(split.message);
    } finally {
      setPending(false);
    }
  }

  async function add() {
    if (!suggestions || picked.size === 0) return;
    const chosen = suggestions.filter((s) => picked.has(s.prompt));
    if (project.prompts.length + chosen.length > MAX_PROMPTS) {
      setFormError(`A brand tracks at most ${MAX_PROMPTS} prompts; ${project.prompts.length} are tracked already.`);
      return;
    }
    setPending(true);
    setFormError(undefined);
    try {
      let tags = project.prompt_tags ?? {};
      for (const s of chosen) if (s.tags.length > 0) tags = withKey(tags, s.prompt, s.tags);
      await saveProject(queryClient, workspaceId, project.id, {
        prompts: [...project.prompts, ...chosen.map((s) => s.prompt)],
        prompt_tags: tags,
      });
      toast.success(`Added ${plural(chosen.length, "prompt")}; the next analysis asks them.`);
      onDone();
    } catch (error) {
      setFormError(formErrors(error, []).message);
    } finally {
      setPending(false);
    }
  }

  function toggle(prompt: string, on: boolean) {
    setPicked((current) => {
      const next = new Set(current);
      if (on) next.add(prompt);
      else next.delete(prompt);
      return next;
    });
  }

  if (suggestions) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Questions buyers ask</DialogTitle>
          <DialogDescription>
            {suggestions.length === 0
              ? "The engine suggested nothing new: every question it proposed is tracked already or names the brand. Ask again, or try another engine."
              : `Tick the questions to track for ${project.name}. None names the brand; each comes with its stage in the buying journey as a tag.`}
          </DialogDescription>
        </DialogHeader>
        <Form onSubmit={add} className="grid gap-4">
          <FormError message={formError} />
          {suggestions.length > 0 && (
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">
                Suggested questions ({picked.size} of {suggestions.length} ticked)
              </legend>
              <div className="grid max-h-80 gap-3 overflow-y-auto rounded-md border p-3">
                {suggestions.map((s) => (
                  <CheckboxField
                    key={s.prompt}
                    label={s.prompt}
                    {...(s.tags.length > 0 ? { description: `Tag: ${s.tags.join(", ")}` } : {})}
                    checked={picked.has(s.prompt)}
                    onCheckedChange={(on) => toggle(s.prompt, on)}
                  />
                ))}
              </div>
            </fieldset>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setSuggestions(undefined)}>
              Ask again
            </Button>
            <Button type="submit" disabled={pending || picked.size === 0}>
              {pending && <Spinner />}
              {picked.size === 0 ? "Add prompts" : `Add ${plural(picked.size, "prompt")}`}
            </Button>
          </DialogFooter>
        </Form>
      </>
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Suggest prompts for {project.name}</DialogTitle>
        <DialogDescription>
          An engine lists questions a buyer in this market would ask an AI assistant. It is told the category, the
          competitors and the prompts already tracked, never {project.name}'s name. Costs one credit.
        </DialogDescription>
      </DialogHeader>
      <Form onSubmit={ask} className="grid gap-5">
        <FormError message={formError} />
        <Field
          label="What the brand sells"
          placeholder="e.g. CRM for small agencies"
          hint="As a buyer would say it, without the brand's name. Saved as the brand's category."
          maxLength={200}
          value={category}
          onChange={(event) => setCategory(event.target.value)}
          error={errors.category}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-engine`}>Engine</Label>
            <Select value={engine} onValueChange={setEngine}>
              <SelectTrigger id={`${id}-engine`} aria-describedby={errors.engine ? `${id}-engine-error` : undefined}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {engines.map((name) => (
                  <SelectItem key={name} value={name}>
                    {engineName(name)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FieldError id={`${id}-engine-error`} message={errors.engine} />
          </div>
          <Field
            label="How many"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_COUNT}
            hint={`1 to ${MAX_COUNT} questions.`}
            value={count}
            onChange={(event) => setCount(event.target.value)}
            error={errors.count}
          />
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button type="submit" disabled={pending}>
            {pending && <Spinner />}
            Suggest
          </Button>
        </DialogFooter>
      </Form>
    </>
  );
}
