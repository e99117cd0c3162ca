import { useQueryClient } from "@tanstack/react-query";
import { PlayIcon } from "lucide-react";
import { useState } from "react";
import { CheckboxGroup } from "../../components/checkbox-group.tsx";
import { Field, Form, FormError, PendingButton, useSubmit } from "../../components/form.tsx";
import { TextareaField } from "../../components/textarea-field.tsx";
import { fieldErrors, formErrors } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import { pitchTitle } from "./pitch-status.tsx";
import { type Pitch, type PitchSuggestion, pitchQuery, runPitch } from "./pitches-api.ts";

/** The server's limits on a pitch's run (PitchRunSchema). */
const MAX_PROMPTS = 20;
const MAX_COMPETITORS = 20;
const PROMPT_MAX_LENGTH = 500;
const NAME_MAX_LENGTH = 100;
const FIELDS = ["name", "prompts", "competitors"] as const;

function lines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** Each text once, in its first place (case aside). */
function unique(texts: string[]): string[] {
  const seen = new Set<string>();
  return texts.filter((text) => {
    const key = text.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function indexes(count: number, limit: number): Set<string> {
  return new Set(Array.from({ length: Math.min(count, limit) }, (_, i) => String(i)));
}

/**
 * A pitch's setup before it runs: the prospect's name, the competitors to measure it against and
 * the prompts to ask, started from what its website suggested (ticked to keep, and lines of one's
 * own added), then "Run pitch". At most 20 prompts and 20 competitors.
 */
export function PitchSetup({
  agencyId,
  pitch,
  suggestion,
}: {
  agencyId: string;
  pitch: Pitch;
  suggestion: PitchSuggestion | null;
}) {
  const queryClient = useQueryClient();
  const { run, pending, errors, formError } = useSubmit();
  const suggestedCompetitors = unique(suggestion?.competitors.map((c) => c.value) ?? []);
  const suggestedPrompts = unique(suggestion?.prompts.map((p) => p.value) ?? []);
  const [name, setName] = useState(suggestion?.name?.value ?? pitchTitle(pitch));
  const [competitors, setCompetitors] = useState(() => indexes(suggestedCompetitors.length, MAX_COMPETITORS));
  const [prompts, setPrompts] = useState(() => indexes(suggestedPrompts.length, MAX_PROMPTS));
  const [moreCompetitors, setMoreCompetitors] = useState("");
  const [morePrompts, setMorePrompts] = useState("");

  const chosenCompetitors = unique([
    ...suggestedCompetitors.filter((_, i) => competitors.has(String(i))),
    ...lines(moreCompetitors),
  ]);
  const chosenPrompts = unique([...suggestedPrompts.filter((_, i) => prompts.has(String(i))), ...lines(morePrompts)]);

  const submit = () =>
    run(
      async () => {
        const started = await runPitch(agencyId, pitch.id, {
          name: name.trim(),
          prompts: chosenPrompts,
          competitors: chosenCompetitors,
        });
        queryClient.setQueryData(pitchQuery(agencyId, pitch.id).queryKey, started);
        await queryClient.invalidateQueries({ queryKey: keys.agencyPart(agencyId, "pitches"), exact: true });
        // The pool pays for the pitch's answers.
        await queryClient.invalidateQueries({ queryKey: keys.agency(agencyId), exact: true });
      },
      {
        check: () => ({
          name:
            name.trim() === ""
              ? "Name the prospect, as the report should call it."
              : name.trim().length > NAME_MAX_LENGTH
                ? `At most ${NAME_MAX_LENGTH} characters.`
                : undefined,
          prompts:
            chosenPrompts.length === 0
              ? "Keep or write at least one prompt."
              : chosenPrompts.length > MAX_PROMPTS
                ? `At most ${MAX_PROMPTS} prompts: untick or remove ${chosenPrompts.length - MAX_PROMPTS}.`
                : chosenPrompts.some((p) => p.length > PROMPT_MAX_LENGTH)
                  ? `A prompt has at most ${PROMPT_MAX_LENGTH} characters.`
                  : undefined,
          competitors:
            chosenCompetitors.length > MAX_COMPETITORS
              ? `At most ${MAX_COMPETITORS} competitors: untick or remove ${chosenCompetitors.length - MAX_COMPETITORS}.`
              : chosenCompetitors.some((c) => c.length > NAME_MAX_LENGTH)
                ? `A competitor's name has at most ${NAME_MAX_LENGTH} characters.`
                : undefined,
        }),
        // The prospect's brand takes its domain from the website's address, which may not be one.
        place: (error) =>
          fieldErrors(error).primary_domain
            ? {
                fields: {},
                message: `The prospect's domain cannot be taken from ${pitch.website}: a pitch needs a website reached by a domain name, such as acme.com, not an IP address. Delete this pitch and start another with the domain.`,
              }
            : formErrors(error, FIELDS),
        summary: "Some fields need fixing before the pitch can run.",
      },
    );

  return (
    <Form onSubmit={submit} className="grid gap-6" aria-label="Set up the pitch">
      <FormError message={formError} />
      {(suggestion?.notices.length ?? 0) > 0 && (
        <ul className="grid gap-1 rounded-md bg-muted px-3 py-2 text-sm">
          {suggestion?.notices.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
      )}
      <Field
        label="Prospect's name"
        name="prospect-name"
        autoComplete="off"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={errors.name}
        hint="As the report calls the prospect, and as the engines' answers are searched for it."
      />
      <div className="grid gap-3">
        {suggestedCompetitors.length > 0 && (
          <CheckboxGroup
            legend="Competitors the website suggests"
            name="competitor"
            options={suggestedCompetitors.map((value, i) => ({ value: String(i), label: value }))}
            value={competitors}
            onChange={setCompetitors}
            box="max-h-60"
          />
        )}
        <TextareaField
          label={suggestedCompetitors.length > 0 ? "Other competitors, one per line" : "Competitors, one per line"}
          name="more-competitors"
          rows={3}
          value={moreCompetitors}
          onChange={(event) => setMoreCompetitors(event.target.value)}
          error={errors.competitors}
          hint={`The report ranks the prospect against them by name. ${chosenCompetitors.length} chosen, at most ${MAX_COMPETITORS}.`}
        />
      </div>
      <div className="grid gap-3">
        {suggestedPrompts.length > 0 && (
          <CheckboxGroup
            legend="Prompts the website suggests"
            name="prompt"
            options={suggestedPrompts.map((value, i) => ({ value: String(i), label: value }))}
            value={prompts}
            onChange={setPrompts}
            box="max-h-80"
          />
        )}
        <TextareaField
          label={suggestedPrompts.length > 0 ? "Other prompts, one per line" : "Prompts, one per line"}
          name="more-prompts"
          rows={4}
          value={morePrompts}
          onChange={(event) => setMorePrompts(event.target.value)}
          error={errors.prompts}
          hint={
            <span aria-live="polite">
              Questions the prospect's customers ask an AI engine. {chosenPrompts.length} chosen, at most {MAX_PROMPTS}.
              Each costs one credit per engine, from the agency's pool.
            </span>
          }
        />
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <PendingButton type="submit" pending={pending}>
          <PlayIcon aria-hidden="true" />
          Run pitch
        </PendingButton>
        <p className="text-xs text-muted-foreground">
          One analysis, against the competitors named, with the engines of the pitch's workspace.
        </p>
      </div>
    </Form>
  );
}
