import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { MonitorSmartphoneIcon } from "lucide-react";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { EmptyState, QueryState } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { DateText, RelativeText } from "../../components/when.tsx";
import { revokeAllSessions, sessionsQuery } from "./account-api.ts";
import { describeUserAgent } from "./user-agent.ts";

export function SessionsCard() {
  const sessions = useQuery(sessionsQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  async function signOutEverywhere() {
    await revokeAllSessions();
    queryClient.clear();
    void navigate({ to: "/sign-in" });
  }

  const list = [...(sessions.data ?? [])].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));

  return (
    <SectionCard
      titleId="sessions-title"
      title="Where you are signed in"
      description="Browsers signed in to your account. If you do not recognise one, sign out everywhere and change your password."
      actions={
        <ConfirmDialog
          trigger={<Button variant="outline">Sign out everywhere</Button>}
          title="Sign out everywhere?"
          description="Every browser signed in to your account is signed out, this one included. You will need your password to sign in again."
          confirmLabel="Sign out everywhere"
          onConfirm={signOutEverywhere}
        />
      }
    >
      <QueryState query={sessions} loading="Loading sessions…" error="Sessions could not be loaded" />
      {sessions.isSuccess && list.length === 0 && (
        <EmptyState icon={<MonitorSmartphoneIcon />} title="No other sessions" />
      )}
      {list.length > 0 && (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Device</TableHead>
              <TableHead>IP address</TableHead>
              <TableHead wide>Signed in</TableHead>
              <TableHead>Last active</TableHead>
              <TableHead wide>Expires</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.map((session) => (
              <TableRow key={session.id}>
                <TableCell title={session.userAgent ?? undefined}>
                  {describeUserAgent(session.userAgent)}
                  <span className="block text-xs text-muted-foreground md:hidden">
                    Signed in <DateText value={session.createdAt} />
                  </span>
                </TableCell>
                <TableCell className="font-mono text-xs">{session.ipAddress || "Unknown"}</TableCell>
                <TableCell wide className="whitespace-nowrap">
                  <DateText value={session.createdAt} />
                </TableCell>
                <TableCell>
                  <RelativeText value={session.updatedAt} />
                </TableCell>
                <TableCell wide className="whitespace-nowrap">
                  <DateText value={session.expiresAt} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </SectionCard>
  );
}
