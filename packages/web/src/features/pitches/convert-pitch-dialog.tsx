import { useQueryClient } from "@tanstack/react-query";
import { UserCheckIcon } from "lucide-react";
import { toast } from "sonner";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { keys } from "../../lib/queries.ts";
import { parseCap } from "../agencies/credit-cap.ts";
import { pitchTitle } from "./pitch-status.tsx";
import { convertPitch, type Pitch, pitchQuery } from "./pitches-api.ts";

/** "Convert to client": the prospect signed; the pitch's workspace becomes a client, answers and all. Admins only. */
export function ConvertPitchDialog({ agencyId, pitch }: { agencyId: string; pitch: Pitch }) {
  const title = pitchTitle(pitch);
  return (
    <FormDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={`Convert to client: ${title}`}>
          <UserCheckIcon aria-hidden="true" />
          Convert to client
        </Button>
      }
    >
      {(close) => <ConvertForm agencyId={agencyId} pitch={pitch} title={title} onDone={close} />}
    </FormDialog>
  );
}

function ConvertForm({
  agencyId,
  pitch,
  title,
  onDone,
}: {
  agencyId: string;
  pitch: Pitch;
  title: string;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ name: title, cap: "" }, errors);

  const submit = () =>
    run(
      async () => {
        const parsed = parseCap(draft.cap);
        const converted = await convertPitch(agencyId, pitch.id, {
          name: draft.name.trim(),
          credit_cap: "cap" in parsed ? parsed.cap : null,
        });
        queryClient.setQueryData(pitchQuery(agencyId, pitch.id).queryKey, converted);
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: keys.agency(agencyId) }),
          queryClient.invalidateQueries({ queryKey: keys.me }),
        ]);
        toast.success(`${draft.name.trim()} is a client now, with the pitch's brand and answers.`);
        onDone();
      },
      {
        check: () => {
          const parsed = parseCap(draft.cap);
          return {
            name: draft.name.trim() === "" ? "Name the client." : undefined,
            credit_cap: "problem" in parsed ? parsed.problem : undefined,
          };
        },
        fields: ["name", "credit_cap"],
      },
    );

  return (
    <DialogForm
      title={`Make ${title} a client`}
      description="The pitch's workspace becomes a client of the agency, keeping its brand, prompts, answers and report. Set up its monitoring from its workspace."
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Convert to client"
    >
      <Field label="Client name" name="client-name" autoComplete="off" {...text("name")} />
      <Field
        label="Monthly credit cap (optional)"
        name="credit-cap"
        inputMode="numeric"
        autoComplete="off"
        placeholder="No cap"
        hint="The most this client may use of the pool each month. Leave it empty for no cap."
        {...text("cap", "credit_cap")}
      />
    </DialogForm>
  );
}
