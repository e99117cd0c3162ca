import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { DateText, RelativeText } from "../../components/when.tsx";
import { keys } from "../../lib/queries.ts";
import type { ApiKey } from "../../lib/types.ts";
import { revokeApiKey } from "./api-keys-api.ts";

const STATUS = {
  active: { label: "Active", variant: "success" },
  revoked: { label: "Revoked", variant: "muted" },
  expired: { label: "Expired", variant: "warning" },
} as const;

function Scopes({ apiKey }: { apiKey: ApiKey }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label={`Permissions of ${apiKey.name}`}>
      {apiKey.scopes.map((scope) => (
        <li key={scope}>
          <Badge variant="outline">{scope}</Badge>
        </li>
      ))}
    </ul>
  );
}

export function KeysTable({
  workspaceId,
  apiKeys,
  canManage,
}: {
  workspaceId: string;
  apiKeys: ApiKey[];
  canManage: boolean;
}) {
  const queryClient = useQueryClient();

  async function revoke(key: ApiKey) {
    await revokeApiKey(workspaceId, key.id);
    await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "api-keys") });
    toast.success(`“${key.name}” was revoked`);
  }

  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead wide>Permissions</TableHead>
          <TableHead wide>Status</TableHead>
          <TableHead wide>Created</TableHead>
          <TableHead wide>Expires</TableHead>
          <TableHead wide>Last used</TableHead>
          {canManage && <TableHead srOnly>Actions</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {apiKeys.map((key) => (
          <TableRow key={key.id}>
            <TableCell className="md:min-w-40">
              <span className="block font-medium">{key.name}</span>
              <span className="block font-mono text-xs text-muted-foreground">{key.start}…</span>
              {/* On a phone the other columns fold into this one. */}
              <div className="mt-2 grid gap-2 md:hidden">
                <Badge variant={STATUS[key.status].variant}>{STATUS[key.status].label}</Badge>
                <Scopes apiKey={key} />
                <p className="text-xs text-muted-foreground">
                  Created <DateText value={key.created_at} /> · Expires{" "}
                  <DateText value={key.expires_at} fallback="never" /> · Last used{" "}
                  <RelativeText value={key.last_used_at} fallback="never" />
                </p>
              </div>
            </TableCell>
            <TableCell wide className="min-w-48">
              <Scopes apiKey={key} />
            </TableCell>
            <TableCell wide>
              <Badge variant={STATUS[key.status].variant}>{STATUS[key.status].label}</Badge>
              {key.revoked_at && (
                <span className="mt-0.5 block text-xs text-muted-foreground">
                  <DateText value={key.revoked_at} />
                </span>
              )}
            </TableCell>
            <TableCell wide className="whitespace-nowrap">
              <DateText value={key.created_at} />
            </TableCell>
            <TableCell wide className="whitespace-nowrap">
              <DateText value={key.expires_at} fallback="Never" />
            </TableCell>
            <TableCell wide className="whitespace-nowrap">
              <RelativeText value={key.last_used_at} />
            </TableCell>
            {canManage && (
              <TableCell className="text-right align-top md:align-middle">
                {key.status === "active" && (
                  <ConfirmDialog
                    trigger={
                      <Button variant="outline" size="sm" aria-label={`Revoke ${key.name}`}>
                        Revoke
                      </Button>
                    }
                    title={`Revoke “${key.name}”?`}
                    description="Anything using this key stops working within a few seconds. This cannot be undone: to connect again, create a new key."
                    confirmLabel="Revoke key"
                    onConfirm={() => revoke(key)}
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
