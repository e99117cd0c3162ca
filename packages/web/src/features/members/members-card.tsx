import { useQuery } from "@tanstack/react-query";
import { ErrorState, LoadingState, RoleNote } from "../../components/page-states.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { meQuery } from "../../lib/queries.ts";
import { atLeast, ROLE_DESCRIPTIONS, ROLE_NAMES, ROLES } from "../../lib/roles.ts";
import { useWorkspace } from "../workspace/workspace-context.tsx";
import { InvitationsList } from "./invitations-list.tsx";
import { InviteDialog } from "./invite-dialog.tsx";
import { membersQuery } from "./members-api.ts";
import { MembersTable } from "./members-table.tsx";

export function MembersCard() {
  const workspace = useWorkspace();
  const me = useQuery(meQuery);
  const members = useQuery(membersQuery(workspace.id));
  const canManage = atLeast(workspace.role, "admin");

  return (
    <Card id="members" aria-labelledby="members-title">
      <CardHeader>
        <div>
          <CardTitle id="members-title">Members</CardTitle>
          <CardDescription>Who can use this workspace, and what each of them may do.</CardDescription>
        </div>
        {canManage && <InviteDialog workspace={workspace} />}
      </CardHeader>
      <CardContent className="grid gap-6">
        {!canManage && <RoleNote>Only admins and owners can invite people or change roles.</RoleNote>}
        {members.isPending && <LoadingState label="Loading members…" />}
        {members.isError && (
          <ErrorState error={members.error} title="Members could not be loaded" onRetry={() => members.refetch()} />
        )}
        {members.data && <MembersTable workspace={workspace} members={members.data.data} myUserId={me.data?.user.id} />}
        {canManage && <InvitationsList workspaceId={workspace.id} />}
        <details className="text-sm">
          <summary className="cursor-pointer font-medium text-primary">What each role can do</summary>
          <dl className="mt-3 grid gap-2 sm:grid-cols-[8rem_1fr]">
            {ROLES.map((role) => (
              <div key={role} className="contents">
                <dt className="font-medium">{ROLE_NAMES[role]}</dt>
                <dd className="text-muted-foreground">{ROLE_DESCRIPTIONS[role]}</dd>
              </div>
            ))}
          </dl>
        </details>
      </CardContent>
    </Card>
  );
}
