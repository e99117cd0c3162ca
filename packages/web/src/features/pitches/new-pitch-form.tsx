import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { Field, Form, FormError, PendingButton, useSubmit } from "../../components/form.tsx";
import { keys } from "../../lib/queries.ts";
import { createPitch, pitchQuery, suggestionKey } from "./pitches-api.ts";

/**
 * A pitch's first step: the prospect's website. Sightline reads a few of its pages and suggests its
 * name, competitors and prompts (kept for the pitch's page, where they are confirmed); a site that
 * cannot be read still makes the pitch, filled in by hand.
 */
export function NewPitchForm({ agencyId }: { agencyId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [website, setWebsite] = useState("");
  const { run, pending, errors, formError } = useSubmit();

  const submit = () =>
    run(
      async () => {
        const created = await createPitch(agencyId, website.trim());
        queryClient.setQueryData(suggestionKey(agencyId, created.pitch.id), {
          suggestion: created.suggestion,
          problem: created.problem,
        });
        queryClient.setQueryData(pitchQuery(agencyId, created.pitch.id).queryKey, created.pitch);
        await queryClient.invalidateQueries({ queryKey: keys.agencyPart(agencyId, "pitches"), exact: true });
        void navigate({
          to: "/agency/$agencyId/pitches/$pitchId",
          params: { agencyId, pitchId: created.pitch.id },
        });
      },
      {
        check: () => ({
          website: website.trim() === "" ? "Type the prospect's website, e.g. acme.com." : undefined,
        }),
        fields: ["website"],
      },
    );

  return (
    <Form onSubmit={submit} className="grid gap-4" aria-label="Start a pitch">
      <FormError message={formError} />
      <Field
        label="Prospect's website"
        name="website"
        autoComplete="url"
        inputMode="url"
        placeholder="e.g. acme.com"
        value={website}
        onChange={(event) => setWebsite(event.target.value)}
        error={errors.website}
        hint="Sightline reads a few of its public pages (home, about, pricing) and suggests the prospect's name, competitors and prompts. You confirm them next; nothing runs yet."
      />
      <div>
        <PendingButton type="submit" pending={pending}>
          {pending ? "Reading the website…" : "Continue"}
        </PendingButton>
      </div>
    </Form>
  );
}
