import { useQueryClient } from "@tanstack/react-query";
import { PlusIcon } from "lucide-react";
import { toast } from "sonner";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { keys } from "../../lib/queries.ts";
import { createClient } from "./agencies-api.ts";
import { parseCap } from "./credit-cap.ts";

/** "Add client": a new workspace of the agency, on its pool, with an optional monthly cap. Admins only. */
export function AddClientDialog({ agencyId }: { agencyId: string }) {
  return (
    <FormDialog
      trigger={
        <Button>
          <PlusIcon aria-hidden="true" />
          Add client
        </Button>
      }
    >
      {(close) => <AddClientForm agencyId={agencyId} onDone={close} />}
    </FormDialog>
  );
}

function AddClientForm({ agencyId, onDone }: { agencyId: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ name: "", cap: "" }, errors);

  const submit = () =>
    run(
      async () => {
        const parsed = parseCap(draft.cap);
        const client = await createClient(agencyId, draft.name.trim(), "cap" in parsed ? parsed.cap : null);
        // The agency's count, its clients, and the switcher's list all change.
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: keys.agency(agencyId) }),
          queryClient.invalidateQueries({ queryKey: keys.me }),
        ]);
        toast.success(`${client.name} is a client now: add its brands from its workspace.`);
        onDone();
      },
      {
        check: () => {
          const parsed = parseCap(draft.cap);
          return {
            name: draft.name.trim() === "" ? "Name the client, e.g. the company's name." : undefined,
            credit_cap: "problem" in parsed ? parsed.problem : undefined,
          };
        },
        fields: ["name", "credit_cap"],
      },
    );

  return (
    <DialogForm
      title="Add a client"
      description="A workspace of its own for the client's brands, reports and members. Your staff reach it by their agency role; it draws on the agency's credit pool."
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Add client"
    >
      <Field label="Client name" name="client-name" autoComplete="off" {...text("name")} />
      <Field
        label="Monthly credit cap (optional)"
        name="credit-cap"
        inputMode="numeric"
        autoComplete="off"
        placeholder="No cap"
        hint="The most this client may use of the pool each month. Leave it empty to let it draw on the whole pool."
        {...text("cap", "credit_cap")}
      />
    </DialogForm>
  );
}
