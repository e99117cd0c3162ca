import { useQueryClient } from "@tanstack/react-query";
import { MailIcon, UserPlusIcon } from "lucide-react";
import { useId, useState } from "react";
import { CopyField } from "../../components/copy-field.tsx";
import { Field, Form, FormError } from "../../components/form.tsx";
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
import { formErrors } from "../../lib/api.ts";
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
    <Dialog>
      <DialogTrigger asChild>
        <Button>
          <UserPlusIcon aria-hidden="true" />
          Invite
        </Button>
      </DialogTrigger>
      <DialogContent>
        <InviteFlow workspace={workspace} />
      </DialogContent>
    </Dialog>
  );
}

function InviteFlow({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const roleId = useId();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [created, setCreated] = useState<CreatedInvitation>();

  async function submit() {
    if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) {
      setErrors({ email: "Enter an e-mail address such as name@company.com." });
      return;
    }
    setErrors({});
    setFormError(undefined);
    setPending(true);
    try {
      setCreated(await invite(workspace.id, email.trim(), role));
      void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspace.id, "invitations") });
    } catch (error) {
      const split = formErrors(error, ["email", "role"]);
      setErrors(split.fields);
      setFormError(split.message);
    } finally {
      setPending(false);
    }
  }

  if (created) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Invitation ready</DialogTitle>
          <DialogDescription>
            {created.email} can join {workspace.name} with this link until {formatDate(created.expires_at)}.
          </DialogDescription>
        </DialogHeader>
        <p className="flex gap-2 rounded-md bg-muted px-3 py-2 text-sm" role="status">
          <MailIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          {created.emailed
            ? `We have e-mailed the invitation to ${created.email}. You can also send the link yourself.`
            : "E-mail is not set up on this Sightline server, so nothing was sent: copy the link and send it yourself."}
        </p>
        <CopyField label="Invitation link" value={absolute(created.link)} />
        <DialogFooter>
          <DialogClose asChild>
            <Button>Done</Button>
          </DialogClose>
        </DialogFooter>
      </>
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Invite someone to {workspace.name}</DialogTitle>
        <DialogDescription>They get a link to join, valid for 7 days.</DialogDescription>
      </DialogHeader>
      <Form onSubmit={submit} className="grid gap-4">
        <FormError message={formError} />
        <Field
          label="E-mail"
          name="email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={errors.email}
        />
        <div className="grid gap-1.5">
          <Label htmlFor={roleId}>Role</Label>
          <RoleSelect id={roleId} value={role} onChange={setRole} myRole={workspace.role} />
          <p className="text-xs text-muted-foreground">{ROLE_DESCRIPTIONS[role]}</p>
          {errors.role && <p className="text-xs font-medium text-destructive">{errors.role}</p>}
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button type="submit" disabled={pending}>
            {pending && <Spinner />}
            Create invitation
          </Button>
        </DialogFooter>
      </Form>
    </>
  );
}
