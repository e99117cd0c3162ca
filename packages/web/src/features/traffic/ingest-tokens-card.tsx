import { useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRoundIcon } from "lucide-react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { EmptyState, QueryState, RoleNote } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { DateText, RelativeText } from "../../components/when.tsx";
import { atLeast } from "../../lib/roles.ts";
import type { IngestToken } from "../../lib/types.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { useWorkspace } from "../workspace/workspace-context.tsx";
import { CreateTokenDialog } from "./create-token-dialog.tsx";
import { DrainSetup } from "./drain-setup.tsx";
import { ingestTokensQuery, revokeIngestToken, trafficKey } from "./traffic-api.ts";

function TokensTable({ tokens, canManage }: { tokens: IngestToken[]; canManage: boolean }) {
  const { workspaceId, project } = useBrand();
  const queryClient = useQueryClient();

  async function revoke(token: IngestToken) {
    await revokeIngestToken(workspaceId, project.id, token.id);
    await queryClient.invalidateQueries({ queryKey: trafficKey(workspaceId, project.id, "ingest-tokens") });
    toast.success(`“${token.name}” was revoked`);
  }

  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead wide>Status</TableHead>
          <TableHead wide>Created</TableHead>
          <TableHead wide>Last used</TableHead>
          {canManage && <TableHead srOnly>Actions</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {tokens.map((token) => {
          const status = (
            <Badge variant={token.status === "active" ? "success" : "muted"}>
              {token.status === "active" ? "Active" : "Revoked"}
            </Badge>
          );
          return (
            <TableRow key={token.id}>
              <TableCell>
                <span className="block font-medium wrap-anywhere">{token.name}</span>
                <span className="block font-mono text-xs text-muted-foreground">{token.start}…</span>
                {/* On a phone the other columns fold into this one. */}
                <div className="mt-2 grid gap-1.5 md:hidden">
                  {status}
                  <p className="text-xs text-muted-foreground">
                    Created <DateText value={token.created_at} /> · Last used{" "}
                    <RelativeText value={token.last_used_at} fallback="never" />
                  </p>
                </div>
              </TableCell>
              <TableCell wide>
                {status}
                {token.revoked_at && (
                  <span className="mt-0.5 block text-xs text-muted-foreground">
                    <DateText value={token.revoked_at} />
                  </span>
                )}
              </TableCell>
              <TableCell wide className="whitespace-nowrap">
                <DateText value={token.created_at} />
              </TableCell>
              <TableCell wide className="whitespace-nowrap">
                <RelativeText value={token.last_used_at} />
              </TableCell>
              {canManage && (
                <TableCell className="text-right align-top md:align-middle">
                  {token.status === "active" && (
                    <ConfirmDialog
                      trigger={
                        <Button variant="outline" size="sm" aria-label={`Revoke ${token.name}`}>
                          Revoke
                        </Button>
                      }
                      title={`Revoke “${token.name}”?`}
                      description="Logs sent with this token are refused from now on. This cannot be undone: to send again, create a new token and put it in the drain's settings."
                      confirmLabel="Revoke token"
                      onConfirm={() => revoke(token)}
                    />
                  )}
                </TableCell>
              )}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/**
 * "Log drains": the brand's ingest tokens, with which a CDN or a server sends its logs by itself,
 * and how to set one up. Tokens are made and revoked by admins and owners, as API keys are.
 */
export function IngestTokensCard() {
  const { workspaceId, project } = useBrand();
  const workspace = useWorkspace();
  const canManage = atLeast(workspace.role, "admin");
  const tokens = useQuery(ingestTokensQuery(workspaceId, project.id));
  const list = tokens.data?.data ?? [];
  return (
    <SectionCard
      id="log-drains"
      titleId="log-drains-title"
      title="Send logs automatically (log drains)"
      description={
        <>
          Cloudflare, Vercel, Fastly or your own server can send {project.name}'s access logs to Sightline as they are
          written, so this page stays up to date without uploads. Each sender needs an ingest token: it can only send
          this brand's logs, and is not an API key.
        </>
      }
      actions={canManage && <CreateTokenDialog workspaceId={workspaceId} projectId={project.id} />}
      contentClassName="grid gap-4"
    >
      {!canManage && <RoleNote>Only admins and owners can create or revoke ingest tokens.</RoleNote>}
      <QueryState query={tokens} loading="Loading ingest tokens…" error="The ingest tokens could not be loaded" />
      {tokens.isSuccess && list.length === 0 && (
        <EmptyState icon={<KeyRoundIcon />} title="No ingest tokens yet">
          {canManage
            ? "Create one for each place that will send logs, then follow the steps below."
            : "An admin can create one."}
        </EmptyState>
      )}
      {list.length > 0 && <TokensTable tokens={list} canManage={canManage} />}
      <DrainSetup projectId={project.id} />
    </SectionCard>
  );
}
