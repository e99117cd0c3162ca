import { useQuery } from "@tanstack/react-query";
import { QueryState, RoleNote } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
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
    <SectionCard
      id="members"
      titleId="members-title"
      title="Members"
      description="Who can use this workspace, and what each of them may do."
      actions={canManage && <InviteDialog workspace={workspace} />}
      contentClassName="grid gap-6"
    >
      {!canManage && <RoleNote>Only admins and owners can invite people or change roles.</RoleNote>}
      <QueryState query={members} loading="Loading members…" error="Members could not be loaded" />
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
    </SectionCard>
  );
}
