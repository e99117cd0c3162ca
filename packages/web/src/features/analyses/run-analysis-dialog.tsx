import type { EngineName } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { PlayIcon } from "lucide-react";
import { useState } from "react";
import { CheckboxGroup } from "../../components/checkbox-group.tsx";
import { EnginesField } from "../../components/engines-field.tsx";
import { Field, FormError, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogActions, DialogDone, DialogForm, DialogHeading, FormDialog } from "../../components/form-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { engineName, plural } from "../../lib/format.ts";
import { keys } from "../../lib/queries.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { startAnalysis } from "./analyses-api.ts";
import { type AnalysisShape, countAnswers, describeAnswers } from "./answer-count.ts";
import { CreditCost } from "./credit-cost.tsx";
import { useAudience } from "./use-analysis-shape.ts";

const MAX_SAMPLES = 10;
const MAX_ANSWERS = 2000;

/** "Run analysis now": engines, samples and prompts (the brand's by default); then its live progress. */
export function RunAnalysisDialog() {
  return (
    <FormDialog
      className="max-w-xl"
      trigger={
        <Button>
          <PlayIcon aria-hidden="true" />
          Run analysis now
        </Button>
      }
    >
      {(close) => <RunAnalysisForm onDone={close} />}
    </FormDialog>
  );
}

function RunAnalysisForm({ onDone }: { onDone: () => void }) {
  const { workspaceId, project, engines: planEngines } = useBrand();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [engines, setEngines] = useState<string[]>(project.engines.filter((e) => planEngines.includes(e)));
  // Prompts switched off (the Prompts page) are left out unless ticked here.
  const paused = new Set(project.paused_prompts ?? []);
  const active = project.prompts.filter((p) => !paused.has(p));
  const [prompts, setPrompts] = useState<Set<string>>(() => new Set(active));
  const { run, pending, errors, formError } = useSubmit();
  // Spending credits is confirmed on a second step that says how many (issue 23).
  const [confirming, setConfirming] = useState(false);
  const { draft, text } = useDraft({ samples: "3" }, errors);
  const { samples } = draft;

  const sampleCount = Number(samples);
  // Exactly the prompts switched on: sent as "the brand's prompts", as monitoring asks them; only
  // then are the brand's conversations held too.
  const all = prompts.size === active.length && active.every((p) => prompts.has(p));
  const audience = useAudience(workspaceId, project);
  const shape: AnalysisShape = {
    prompts: prompts.size,
    engines: engines.length,
    samples: Number.isInteger(sampleCount) ? sampleCount : 0,
    personas: audience.personas,
    countries: audience.countries,
    scripts: all ? audience.scripts : 0,
    scriptTurns: all ? audience.scriptTurns : 0,
    talkers: engines.filter(audience.holdsConversations).length,
  };
  const answers = countAnswers(shape).total;

  function check() {
    const found: Record<string, string> = {};
    if (engines.length === 0) found.engines = "Choose at least one engine.";
    if (!Number.isInteger(sampleCount) || sampleCount < 1 || sampleCount > MAX_SAMPLES)
      found.samples = `A whole number from 1 to ${MAX_SAMPLES}.`;
    if (prompts.size === 0) found.prompts = "Choose at least one prompt.";
    if (answers > MAX_ANSWERS) found.samples = `At most ${plural(MAX_ANSWERS, "answer")} per analysis: ask fewer.`;
    return found;
  }

  const review = () => run(async () => setConfirming(true), { check, fields: ["engines", "samples", "prompts"] });

  const submit = () =>
    run(
      async () => {
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
      },
      { check, fields: ["engines", "samples", "prompts"] },
    );

  if (confirming && Object.keys(errors).length === 0) {
    return (
      <>
        <DialogHeading
          title={`Spend ${plural(answers, "credit")}?`}
          description={`${describeAnswers(shape)} from ${engines.map(engineName).join(", ")}.`}
        />
        <FormError message={formError} />
        <CreditCost workspaceId={workspaceId} credits={answers} />
        <DialogActions
          label={`Spend ${plural(answers, "credit")} and start`}
          pending={pending}
          onClick={submit}
          cancel={
            <Button variant="outline" onClick={() => setConfirming(false)} disabled={pending}>
              Back
            </Button>
          }
        />
      </>
    );
  }

  if (project.prompts.length === 0) {
    return (
      <>
        <DialogHeading
          title="Run an analysis"
          description={`${project.name} has no prompts yet. Add the questions to ask in the brand's settings first.`}
        />
        <DialogDone label="Close" variant="outline" />
      </>
    );
  }

  return (
    <DialogForm
      title={`Run an analysis of ${project.name}`}
      description="Each prompt is asked of each engine, as many times as the samples say, as each persona switched on and from each of the brand's countries; each conversation script switched on is held too. One answer or turn costs one credit; you confirm the cost before it starts."
      onSubmit={review}
      error={formError}
      pending={pending}
      label="Start analysis"
      className="grid gap-5"
    >
      <EnginesField engines={planEngines} value={engines} onChange={setEngines} error={errors.engines} />
      <Field
        label="Samples"
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_SAMPLES}
        className="[&_input]:max-w-40"
        hint="Times each prompt is asked of each engine (1–10). More samples, narrower intervals."
        {...text("samples")}
      />
      <CheckboxGroup
        legend={`Prompts (${plural(prompts.size, "prompt")} of ${project.prompts.length})`}
        options={project.prompts.map((prompt) => ({
          value: prompt,
          label: prompt,
          description: paused.has(prompt) ? "Switched off on the Prompts page" : undefined,
        }))}
        value={prompts}
        onChange={setPrompts}
        error={errors.prompts}
        box="max-h-56"
      />
      <div className="grid gap-1 rounded-md bg-muted px-3 py-2 text-sm" aria-live="polite">
        <p>
          {describeAnswers(shape)}: <strong className="font-semibold">{plural(answers, "credit")}</strong>.
        </p>
        {!all && audience.scripts > 0 && (
          <p className="text-xs text-muted-foreground">
            Conversations are held only when every prompt switched on is asked.
          </p>
        )}
        {all && audience.scripts > 0 && shape.talkers === 0 && (
          <p className="text-xs text-muted-foreground">
            None of these engines holds conversations (search and web surfaces answer single questions): the brand's
            scripts are not asked.
          </p>
        )}
      </div>
    </DialogForm>
  );
}
