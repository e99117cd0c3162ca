import { useQueryClient } from "@tanstack/react-query";
import { UserPlusIcon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Field, FieldError, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Label } from "../../components/ui/label.tsx";
import { isEmailAddress } from "../../lib/email.ts";
import { keys } from "../../lib/queries.ts";
import { type AgencyRole, addStaff } from "./agencies-api.ts";
import { AgencyRoleSelect } from "./agency-role-select.tsx";
import { AGENCY_ROLE_LABELS } from "./agency-roles.ts";

/** "Add staff": someone with an account on this server joins the agency at a role. Admins only. */
export function AddStaffDialog({ agencyId, agencyName }: { agencyId: string; agencyName: string }) {
  return (
    <FormDialog
      trigger={
        <Button>
          <UserPlusIcon aria-hidden="true" />
          Add staff
        </Button>
      }
    >
      {(close) => <AddStaffForm agencyId={agencyId} agencyName={agencyName} onDone={close} />}
    </FormDialog>
  );
}

function AddStaffForm({ agencyId, agencyName, onDone }: { agencyId: string; agencyName: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const roleId = useId();
  const [role, setRole] = useState<AgencyRole>("strategist");
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ email: "" }, errors);

  const submit = () =>
    run(
      async () => {
        const added = await addStaff(agencyId, draft.email.trim(), role);
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: keys.agencyPart(agencyId, "staff") }),
          queryClient.invalidateQueries({ queryKey: keys.me }),
        ]);
        toast.success(`${added.name} is on the staff of ${agencyName} now`);
        onDone();
      },
      {
        check: () =>
          isEmailAddress(draft.email.trim()) ? {} : { email: "Enter an e-mail address such as name@agency.com." },
        fields: ["email", "role"],
      },
    );

  return (
    <DialogForm
      title={`Add someone to ${agencyName}`}
      description="They need an account on this server already. Someone new is first invited to a client's workspace (Settings → Members), then added here."
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Add to staff"
    >
      <Field label="E-mail" name="email" type="email" autoComplete="off" {...text("email")} />
      <div className="grid gap-1.5">
        <Label htmlFor={roleId}>Role at the agency</Label>
        <AgencyRoleSelect id={roleId} value={role} onChange={setRole} />
        <p className="text-xs text-muted-foreground">{AGENCY_ROLE_LABELS[role].description}</p>
        <FieldError message={errors.role} />
      </div>
    </DialogForm>
  );
}
