import { useQueryClient } from "@tanstack/react-query";
import { MailIcon, UserPlusIcon } from "lucide-react";
import { useId, useState } from "react";
import { CopyField } from "../../components/copy-field.tsx";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogDone, DialogForm, DialogHeading, FormDialog } from "../../components/form-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Label } from "../../components/ui/label.tsx";
import { isEmailAddress } from "../../lib/email.ts";
import { formatDate } from "../../lib/format.ts";
import { keys } from "../../lib/queries.ts";
import { ROLE_DESCRIPTIONS } from "../../lib/roles.ts";
import type { CreatedInvitation, Role, Workspace } from "../../lib/types.ts";
import { invite } from "./members-api.ts";
import { RoleSelect } from "./role-select.tsx";

/** A link the server may give as a path: make it one a colleague can open. */
function absolute(link: string): string {
  return link.startsWith("/") ? `${window.location.origin}${link}` : link;
}

export function InviteDialog({ workspace }: { workspace: Workspace }) {
  return (
    <FormDialog
      trigger={
        <Button>
          <UserPlusIcon aria-hidden="true" />
          Invite
        </Button>
      }
    >
      <InviteFlow workspace={workspace} />
    </FormDialog>
  );
}

function InviteFlow({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const roleId = useId();
  const [role, setRole] = useState<Role>("member");
  const [created, setCreated] = useState<CreatedInvitation>();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ email: "" }, errors);
  const { email } = draft;

  const submit = () =>
    run(
      async () => {
        setCreated(await invite(workspace.id, email.trim(), role));
        void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspace.id, "invitations") });
      },
      {
        check: () =>
          isEmailAddress(email.trim()) ? {} : { email: "Enter an e-mail address such as name@company.com." },
        fields: ["email", "role"],
      },
    );

  if (created) {
    return (
      <>
        <DialogHeading
          title="Invitation ready"
          description={`${created.email} can join ${workspace.name} with this link until ${formatDate(created.expires_at)}.`}
        />
        <p className="flex gap-2 rounded-md bg-muted px-3 py-2 text-sm" role="status">
          <MailIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          {created.emailed
            ? `We have e-mailed the invitation to ${created.email}. You can also send the link yourself.`
            : "E-mail is not set up on this Sightline server, so nothing was sent: copy the link and send it yourself."}
        </p>
        <CopyField label="Invitation link" value={absolute(created.link)} />
        <DialogDone label="Done" />
      </>
    );
  }

  return (
    <DialogForm
      title={`Invite someone to ${workspace.name}`}
      description="They get a link to join, valid for 7 days."
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Create invitation"
    >
      <Field label="E-mail" name="email" type="email" autoComplete="off" {...text("email")} />
      <div className="grid gap-1.5">
        <Label htmlFor={roleId}>Role</Label>
        <RoleSelect id={roleId} value={role} onChange={setRole} myRole={workspace.role} />
        <p className="text-xs text-muted-foreground">{ROLE_DESCRIPTIONS[role]}</p>
        {errors.role && <p className="text-xs font-medium text-destructive">{errors.role}</p>}
      </div>
    </DialogForm>
  );
}
