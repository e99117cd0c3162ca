import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { DateText, RelativeText } from "../../components/when.tsx";
import { keys } from "../../lib/queries.ts";
import type { ConnectedApp } from "../../lib/types.ts";
import { SCOPES } from "../api-keys/scopes.ts";
import { disconnectApp } from "./connected-apps-api.ts";

const STATUS = {
  active: { label: "Active", variant: "success" },
  revoked: { label: "Revoked", variant: "muted" },
  expired: { label: "Expired", variant: "warning" },
  no_access: { label: "No access", variant: "warning" },
} as const;

const LABEL = new Map(SCOPES.map(({ scope, label }) => [scope, label]));

function Scopes({ app }: { app: ConnectedApp }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label={`Permissions of ${app.client.name}`}>
      {app.scopes.map((scope) => (
        <li key={scope}>
          <Badge variant="outline">{LABEL.get(scope) ?? scope}</Badge>
        </li>
      ))}
    </ul>
  );
}

function Status({ app }: { app: ConnectedApp }) {
  return <Badge variant={STATUS[app.status].variant}>{STATUS[app.status].label}</Badge>;
}

export function AppsTable({
  workspaceId,
  apps,
  canDisconnect,
}: {
  workspaceId: string;
  apps: ConnectedApp[];
  canDisconnect: (app: ConnectedApp) => boolean;
}) {
  const queryClient = useQueryClient();
  const anyAction = apps.some(canDisconnect);

  async function disconnect(app: ConnectedApp) {
    await disconnectApp(workspaceId, app.id);
    await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "connected-apps") });
    toast.success(`${app.client.name} was disconnected`);
  }

  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Application</TableHead>
          <TableHead wide>Connected by</TableHead>
          <TableHead wide>Permissions</TableHead>
          <TableHead wide>Status</TableHead>
          <TableHead wide>Connected</TableHead>
          <TableHead wide>Last used</TableHead>
          {anyAction && <TableHead srOnly>Actions</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {apps.map((app) => (
          <TableRow key={app.id}>
            <TableCell className="md:min-w-36">
              <span className="block font-medium wrap-anywhere">{app.client.name}</span>
              {/* On a phone the other columns fold into this one. */}
              <div className="mt-2 grid gap-2 md:hidden">
                <Status app={app} />
                <Scopes app={app} />
                <p className="text-xs wrap-anywhere text-muted-foreground">
                  By {app.user.name} · connected <DateText value={app.created_at} /> · last used{" "}
                  <RelativeText value={app.last_used_at} fallback="never" />
                </p>
              </div>
            </TableCell>
            <TableCell wide>
              <span className="block">{app.user.name}</span>
              <span className="block text-xs text-muted-foreground">{app.user.email}</span>
            </TableCell>
            <TableCell wide className="min-w-40">
              <Scopes app={app} />
            </TableCell>
            <TableCell wide>
              <Status app={app} />
              {app.revoked_at && (
                <span className="mt-0.5 block text-xs whitespace-nowrap text-muted-foreground">
                  <DateText value={app.revoked_at} />
                </span>
              )}
            </TableCell>
            <TableCell wide className="whitespace-nowrap">
              <DateText value={app.created_at} />
            </TableCell>
            <TableCell wide className="whitespace-nowrap">
              <RelativeText value={app.last_used_at} />
            </TableCell>
            {anyAction && (
              <TableCell className="text-right align-top md:align-middle">
                {canDisconnect(app) && (
                  <ConfirmDialog
                    trigger={
                      <Button variant="outline" size="sm" aria-label={`Disconnect ${app.client.name}`}>
                        Disconnect
                      </Button>
                    }
                    title={`Disconnect ${app.client.name}?`}
                    description={`${app.client.name} loses access to this workspace at once. To use it again, ${app.user.name} connects it again from the application.`}
                    confirmLabel="Disconnect"
                    onConfirm={() => disconnect(app)}
                  />
                )}
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
