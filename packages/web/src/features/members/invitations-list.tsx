import { useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { QueryState } from "../../components/page-states.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { DateText } from "../../components/when.tsx";
import { keys } from "../../lib/queries.ts";
import { ROLE_NAMES } from "../../lib/roles.ts";
import type { Invitation } from "../../lib/types.ts";
import { invitationsQuery, membersQuery, revokeInvitation } from "./members-api.ts";

/** Invitations not yet accepted (admins only). */
export function InvitationsList({ workspaceId }: { workspaceId: string }) {
  const queryClient = useQueryClient();
  const invitations = useQuery(invitationsQuery(workspaceId));
  const members = useQuery(membersQuery(workspaceId));
  // `invited_by` may be the inviter's user id: show their name when they are a member.
  const inviter = (invitedBy: string | null) =>
    invitedBy === null ? "—" : (members.data?.data.find((m) => m.user_id === invitedBy)?.name ?? invitedBy);

  async function revoke(invitation: Invitation) {
    await revokeInvitation(workspaceId, invitation.id);
    await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "invitations") });
    toast.success(`The invitation for ${invitation.email} was revoked`);
  }

  return (
    <section aria-labelledby="invitations-title" className="grid gap-2">
      <h3 id="invitations-title" className="text-sm font-medium">
        Pending invitations
      </h3>
      <QueryState
        query={invitations}
        loading="Loading invitations…"
        className="py-3"
        error="Invitations could not be loaded"
      />
      {invitations.data?.data.length === 0 && (
        <p className="text-sm text-muted-foreground">No invitations are waiting to be accepted.</p>
      )}
      {invitations.data && invitations.data.data.length > 0 && (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>E-mail</TableHead>
              <TableHead wide>Role</TableHead>
              <TableHead wide>Invited by</TableHead>
              <TableHead wide>Expires</TableHead>
              <TableHead srOnly>Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {invitations.data.data.map((invitation) => (
              <TableRow key={invitation.id}>
                <TableCell className="wrap-anywhere">
                  {invitation.email}
                  <span className="block text-xs text-muted-foreground md:hidden">
                    {ROLE_NAMES[invitation.role]} · invited by {inviter(invitation.invited_by)} · expires{" "}
                    <DateText value={invitation.expires_at} />
                  </span>
                </TableCell>
                <TableCell wide>{ROLE_NAMES[invitation.role]}</TableCell>
                <TableCell wide>{inviter(invitation.invited_by)}</TableCell>
                <TableCell wide className="whitespace-nowrap">
                  <DateText value={invitation.expires_at} />
                </TableCell>
                <TableCell className="text-right">
                  <ConfirmDialog
                    trigger={
                      <Button variant="outline" size="sm" aria-label={`Revoke the invitation for ${invitation.email}`}>
                        Revoke
                      </Button>
                    }
                    title={`Revoke the invitation for ${invitation.email}?`}
                    description="The link stops working at once. You can invite them again later."
                    confirmLabel="Revoke invitation"
                    onConfirm={() => revoke(invitation)}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
