import { formatDate } from "../../lib/format.ts";
import { ROLE_DESCRIPTIONS, ROLE_NAMES } from "../../lib/roles.ts";
import type { InvitationPreview } from "../../lib/types.ts";

export function InvitationSummary({ invitation }: { invitation: InvitationPreview }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-lg bg-muted px-4 py-3 text-sm">
      <dt className="text-muted-foreground">Workspace</dt>
      <dd className="font-medium">{invitation.workspace_name}</dd>
      <dt className="text-muted-foreground">Your role</dt>
      <dd>
        <span className="font-medium">{ROLE_NAMES[invitation.role]}</span>
        <span className="block text-xs text-muted-foreground">{ROLE_DESCRIPTIONS[invitation.role]}</span>
      </dd>
      {invitation.invited_by && (
        <>
          <dt className="text-muted-foreground">Invited by</dt>
          <dd>{invitation.invited_by}</dd>
        </>
      )}
      <dt className="text-muted-foreground">For</dt>
      <dd className="wrap-anywhere">{invitation.email}</dd>
      <dt className="text-muted-foreground">Valid until</dt>
      <dd>{formatDate(invitation.expires_at)}</dd>
    </dl>
  );
}
