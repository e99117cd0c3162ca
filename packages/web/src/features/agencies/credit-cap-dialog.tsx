import { useQueryClient } from "@tanstack/react-query";
import { PencilIcon } from "lucide-react";
import { toast } from "sonner";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { formatNumber, plural } from "../../lib/format.ts";
import { keys } from "../../lib/queries.ts";
import { type AgencyClient, updateClient } from "./agencies-api.ts";
import { parseCap } from "./credit-cap.ts";

/** A client's monthly credit cap, changed in a dialog opened from its row. Admins only. */
export function CreditCapDialog({ agencyId, client }: { agencyId: string; client: AgencyClient }) {
  return (
    <FormDialog
      trigger={
        <Button
          variant="ghost"
          size="icon"
          className="-my-1 size-7"
          aria-label={`Edit the credit cap of ${client.name}`}
        >
          <PencilIcon aria-hidden="true" />
        </Button>
      }
    >
      {(close) => <CapForm agencyId={agencyId} client={client} onDone={close} />}
    </FormDialog>
  );
}

function CapForm({ agencyId, client, onDone }: { agencyId: string; client: AgencyClient; onDone: () => void }) {
  const queryClient = useQueryClient();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ cap: client.credit_cap === null ? "" : String(client.credit_cap) }, errors);

  const submit = () =>
    run(
      async () => {
        const parsed = parseCap(draft.cap);
        const cap = "cap" in parsed ? parsed.cap : null;
        await updateClient(agencyId, client.id, { credit_cap: cap });
        await queryClient.invalidateQueries({ queryKey: keys.agencyPart(agencyId, "clients") });
        toast.success(
          cap === null ? `${client.name} has no cap now` : `${client.name} may use ${plural(cap, "credit")} a month`,
        );
        onDone();
      },
      {
        check: () => {
          const parsed = parseCap(draft.cap);
          return { credit_cap: "problem" in parsed ? parsed.problem : undefined };
        },
        fields: ["credit_cap"],
      },
    );

  return (
    <DialogForm
      title={`Credit cap of ${client.name}`}
      description={`It has used ${plural(client.credits_used, "credit")} of the pool this month. Once it reaches its cap, its new analyses are refused until the pool renews.`}
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Save cap"
    >
      <Field
        label="Monthly credit cap"
        name="credit-cap"
        inputMode="numeric"
        autoComplete="off"
        placeholder="No cap"
        hint={`Leave it empty for no cap: the client then draws on the whole pool. ${
          client.credit_cap === null ? "It has no cap now." : `Now ${formatNumber(client.credit_cap)}.`
        }`}
        {...text("cap", "credit_cap")}
      />
    </DialogForm>
  );
}
