import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { DateText } from "../../components/when.tsx";
import { errorMessage } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import { atLeast, ROLE_NAMES } from "../../lib/roles.ts";
import type { Member, Role, Workspace } from "../../lib/types.ts";
import { changeRole, removeMember } from "./members-api.ts";
import { RoleSelect } from "./role-select.tsx";

export function MembersTable({
  workspace,
  members,
  myUserId,
}: {
  workspace: Workspace;
  members: Member[];
  myUserId: string | undefined;
}) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead wide>E-mail</TableHead>
          <TableHead>Role</TableHead>
          <TableHead wide>Joined</TableHead>
          <TableHead wide srOnly>
            Actions
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {members.map((member) => (
          <MemberRow key={member.user_id} workspace={workspace} member={member} isSelf={member.user_id === myUserId} />
        ))}
      </TableBody>
    </Table>
  );
}

function MemberRow({ workspace, member, isSelf }: { workspace: Workspace; member: Member; isSelf: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const myRole = workspace.role;
  // Admins manage members but not owners; owners manage everyone.
  const canManage = atLeast(myRole, "admin") && (member.role !== "owner" || myRole === "owner");

  async function setRole(role: Role) {
    if (role === member.role) return;
    setSaving(true);
    try {
      await changeRole(workspace.id, member.user_id, role);
      await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspace.id, "members") });
      if (isSelf) {
        await queryClient.invalidateQueries({ queryKey: keys.workspace(workspace.id) });
        await queryClient.invalidateQueries({ queryKey: keys.me });
      }
      const name = ROLE_NAMES[role];
      toast.success(`${member.name} is now ${/^[aeiou]/i.test(name) ? "an" : "a"} ${name}`);
    } catch (error) {
      // A refusal such as "the last owner cannot be demoted" must be read: it stays until closed.
      toast.error(`The role was not changed: ${errorMessage(error)}`, { duration: Number.POSITIVE_INFINITY });
    } finally {
      setSaving(false);
    }
  }

  async function remove() {
    await removeMember(workspace.id, member.user_id);
    if (isSelf) {
      queryClient.removeQueries({ queryKey: keys.workspace(workspace.id) });
      await queryClient.invalidateQueries({ queryKey: keys.me });
      toast.success(`You left ${workspace.name}`);
      void navigate({ to: "/" });
      return;
    }
    await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspace.id, "members") });
    toast.success(`${member.name} was removed from ${workspace.name}`);
  }

  const actions = isSelf ? (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm">
          Leave workspace
        </Button>
      }
      title={`Leave ${workspace.name}?`}
      description="You lose access to its brands, reports and settings. To come back, an admin has to invite you again."
      confirmLabel="Leave workspace"
      onConfirm={remove}
    />
  ) : (
    canManage && (
      <ConfirmDialog
        trigger={
          <Button variant="outline" size="sm" aria-label={`Remove ${member.name}`}>
            Remove
          </Button>
        }
        title={`Remove ${member.name}?`}
        description={`${member.name} loses access to ${workspace.name} at once. You can invite them again later.`}
        confirmLabel="Remove member"
        onConfirm={remove}
      />
    )
  );

  return (
    <TableRow>
      <TableCell className="md:min-w-36">
        <span className="font-medium">{member.name}</span>
        {isSelf && (
          <Badge variant="muted" className="ml-2">
            You
          </Badge>
        )}
        {/* On a phone, the e-mail, the date and the actions sit under the name. */}
        <div className="grid gap-2 md:hidden">
          <span className="text-xs wrap-anywhere text-muted-foreground">
            {member.email} · joined <DateText value={member.joined_at} />
          </span>
          {actions && <div>{actions}</div>}
        </div>
      </TableCell>
      <TableCell wide>{member.email}</TableCell>
      <TableCell className="align-top md:align-middle">
        {canManage ? (
          <RoleSelect
            value={member.role}
            onChange={setRole}
            myRole={myRole}
            disabled={saving}
            ariaLabel={`Role of ${member.name}`}
          />
        ) : (
          ROLE_NAMES[member.role]
        )}
      </TableCell>
      <TableCell wide className="whitespace-nowrap">
        <DateText value={member.joined_at} />
      </TableCell>
      <TableCell wide className="text-right whitespace-nowrap">
        {actions}
      </TableCell>
    </TableRow>
  );
}
