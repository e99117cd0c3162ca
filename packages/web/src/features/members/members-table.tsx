import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { PersonRow } from "../../components/person-row.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
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
    <PersonRow
      person={member}
      isSelf={isSelf}
      role={
        canManage ? (
          <RoleSelect
            value={member.role}
            onChange={setRole}
            myRole={myRole}
            disabled={saving}
            ariaLabel={`Role of ${member.name}`}
          />
        ) : (
          ROLE_NAMES[member.role]
        )
      }
      actions={actions}
    />
  );
}
