import type { EngineName } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { PlayIcon } from "lucide-react";
import { useId, useState } from "react";
import { CheckboxField } from "../../components/checkbox-field.tsx";
import { EnginesField } from "../../components/engines-field.tsx";
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
import { formErrors } from "../../lib/api.ts";
import { plural } from "../../lib/format.ts";
import { keys } from "../../lib/queries.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { startAnalysis } from "./analyses-api.ts";

const MAX_SAMPLES = 10;
const MAX_ANSWERS = 2000;

/** "Run analysis now": engines, samples and prompts (the brand's by default); then its live progress. */
export function RunAnalysisDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <PlayIcon aria-hidden="true" />
          Run analysis now
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">{open && <RunAnalysisForm onDone={() => setOpen(false)} />}</DialogContent>
    </Dialog>
  );
}

function RunAnalysisForm({ onDone }: { onDone: () => void }) {
  const { workspaceId, project, engines: planEngines } = useBrand();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const promptsId = useId();
  const [engines, setEngines] = useState<string[]>(project.engines.filter((e) => planEngines.includes(e)));
  const [samples, setSamples] = useState("3");
  // Prompts switched off (the Prompts page) are left out unless ticked here.
  const paused = new Set(project.paused_prompts ?? []);
  const active = project.prompts.filter((p) => !paused.has(p));
  const [prompts, setPrompts] = useState<Set<string>>(() => new Set(active));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  const sampleCount = Number(samples);
  const answers = prompts.size * engines.length * (Number.isInteger(sampleCount) ? sampleCount : 0);

  function toggle(prompt: string, on: boolean) {
    setPrompts((current) => {
      const next = new Set(current);
      if (on) next.add(prompt);
      else next.delete(prompt);
      return next;
    });
  }

  async function submit() {
    const found: Record<string, string> = {};
    if (engines.length === 0) found.engines = "Choose at least one engine.";
    if (!Number.isInteger(sampleCount) || sampleCount < 1 || sampleCount > MAX_SAMPLES)
      found.samples = `A whole number from 1 to ${MAX_SAMPLES}.`;
    if (prompts.size === 0) found.prompts = "Choose at least one prompt.";
    if (answers > MAX_ANSWERS) found.samples = `At most ${plural(MAX_ANSWERS, "answer")} per analysis: ask fewer.`;
    setErrors(found);
    setFormError(undefined);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      // Exactly the prompts switched on: sent as "the brand's prompts", as monitoring asks them.
      const all = prompts.size === active.length && active.every((p) => prompts.has(p));
      const analysis = await startAnalysis(workspaceId, {
        project_id: project.id,
        engines: engines as EngineName[],
        samples: sampleCount,
        ...(all ? {} : { prompts: project.prompts.filter((p) => prompts.has(p)) }),
      });
      void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "analyses", project.id) });
      onDone();
      void navigate({
        to: "/w/$workspaceId/brands/$brandId/analyses/$analysisId",
        params: { workspaceId, brandId: project.id, analysisId: analysis.id },
      });
    } catch (error) {
      const split = formErrors(error, ["engines", "samples", "prompts"]);
      setErrors(split.fields);
      setFormError(split.message);
    } finally {
      setPending(false);
    }
  }

  if (project.prompts.length === 0) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Run an analysis</DialogTitle>
          <DialogDescription>
            {project.name} has no prompts yet. Add the questions to ask in the brand's settings first.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </>
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Run an analysis of {project.name}</DialogTitle>
        <DialogDescription>
          Each prompt is asked of each engine, as many times as the samples say. One answer costs one credit.
        </DialogDescription>
      </DialogHeader>
      <Form onSubmit={submit} className="grid gap-5">
        <FormError message={formError} />
        <EnginesField engines={planEngines} value={engines} onChange={setEngines} error={errors.engines} />
        <Field
          label="Samples"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_SAMPLES}
          className="[&_input]:max-w-40"
          hint="Times each prompt is asked of each engine (1–10). More samples, narrower intervals."
          value={samples}
          onChange={(event) => setSamples(event.target.value)}
          error={errors.samples}
        />
        <fieldset className="grid gap-2" aria-describedby={errors.prompts ? `${promptsId}-error` : undefined}>
          <legend className="mb-1 text-sm font-medium">
            Prompts ({plural(prompts.size, "prompt")} of {project.prompts.length})
          </legend>
          <div className="grid max-h-56 gap-2 overflow-y-auto rounded-md border p-3">
            {project.prompts.map((prompt) => (
              <CheckboxField
                key={prompt}
                label={prompt}
                {...(paused.has(prompt) ? { description: "Switched off on the Prompts page" } : {})}
                checked={prompts.has(prompt)}
                onCheckedChange={(on) => toggle(prompt, on)}
              />
            ))}
          </div>
          <FieldError id={`${promptsId}-error`} message={errors.prompts} />
        </fieldset>
        <p className="rounded-md bg-muted px-3 py-2 text-sm" aria-live="polite">
          {plural(prompts.size, "prompt")} × {plural(engines.length, "engine")} ×{" "}
          {plural(Number.isInteger(sampleCount) ? sampleCount : 0, "sample")} ={" "}
          <strong className="font-semibold">{plural(answers, "answer")}</strong>, {plural(answers, "credit")}.
        </p>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button type="submit" disabled={pending}>
            {pending && <Spinner />}
            Start analysis
          </Button>
        </DialogFooter>
      </Form>
    </>
  );
}
