import type { WebhookDelivery } from "@sightline/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RotateCcwIcon } from "lucide-react";
import { toast } from "sonner";
import { EmptyState, ErrorState, LoadingState, Spinner } from "../../components/page-states.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { RelativeText } from "../../components/when.tsx";
import { errorMessage } from "../../lib/api.ts";
import { formatNumber, plural } from "../../lib/format.ts";
import { keys } from "../../lib/queries.ts";
import { deliveriesQuery, redeliver } from "./webhooks-api.ts";

const STATUS = {
  pending: { label: "Retrying", variant: "warning" },
  succeeded: { label: "Delivered", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
  canceled: { label: "Canceled", variant: "muted" },
} as const;

/** The subscription's most recent deliveries, each with its last attempt, and "Resend". */
export function Deliveries({
  workspaceId,
  endpointId,
  canManage,
}: {
  workspaceId: string;
  endpointId: string;
  canManage: boolean;
}) {
  const deliveries = useQuery(deliveriesQuery(workspaceId, endpointId));

  if (deliveries.isPending) return <LoadingState label="Loading deliveries…" />;
  if (deliveries.isError) {
    return (
      <ErrorState
        error={deliveries.error}
        title="Deliveries could not be loaded"
        onRetry={() => deliveries.refetch()}
      />
    );
  }
  if (deliveries.data.data.length === 0) {
    return (
      <EmptyState title="Nothing sent yet" className="py-5">
        Deliveries appear here once one of the subscribed events happens.
      </EmptyState>
    );
  }
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Event</TableHead>
          <TableHead wide>Sent</TableHead>
          <TableHead wide>Status</TableHead>
          <TableHead wide>Attempts</TableHead>
          <TableHead wide>Response</TableHead>
          <TableHead wide>Response time</TableHead>
          {canManage && <TableHead srOnly>Actions</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {deliveries.data.data.map((delivery) => (
          <DeliveryRow key={delivery.id} workspaceId={workspaceId} delivery={delivery} canManage={canManage} />
        ))}
      </TableBody>
    </Table>
  );
}

function DeliveryRow({
  workspaceId,
  delivery,
  canManage,
}: {
  workspaceId: string;
  delivery: WebhookDelivery;
  canManage: boolean;
}) {
  const queryClient = useQueryClient();
  const last = delivery.attempts.reduce<(typeof delivery.attempts)[number] | undefined>(
    (latest, attempt) => (!latest || attempt.attempt > latest.attempt ? attempt : latest),
    undefined,
  );
  const status = STATUS[delivery.status];

  const resend = useMutation({
    mutationFn: async () => {
      await redeliver(workspaceId, delivery.endpoint_id, delivery.id);
      toast.success("Sent again. The result shows here in a few seconds.");
      await queryClient.invalidateQueries({
        queryKey: keys.workspacePart(workspaceId, "webhooks", delivery.endpoint_id, "deliveries"),
      });
    },
    onError: (error) => toast.error(`Could not resend: ${errorMessage(error)}`),
  });

  const statusBadge = (
    <>
      <Badge variant={status.variant}>{status.label}</Badge>
      {delivery.status === "pending" && delivery.next_attempt_at && (
        <span className="mt-0.5 block text-xs text-muted-foreground">
          next try <RelativeText value={delivery.next_attempt_at} />
        </span>
      )}
    </>
  );
  const response = last ? (last.status_code !== null ? `HTTP ${last.status_code}` : "No response") : "Not tried yet";
  const latency = last ? `${formatNumber(last.latency_ms)} ms` : "—";

  return (
    <TableRow>
      <TableCell className="align-top md:align-middle">
        <span className="font-mono text-xs whitespace-nowrap">{delivery.event_type}</span>
        {/* On a phone the other columns fold into this one. */}
        <div className="mt-1 grid gap-1 text-xs text-muted-foreground md:hidden">
          <div>{statusBadge}</div>
          <span>
            Sent <RelativeText value={delivery.created_at} /> · {plural(delivery.attempt_count, "attempt")} · {response}
            {last && ` in ${latency}`}
          </span>
          {last?.error && <span>{last.error}</span>}
        </div>
      </TableCell>
      <TableCell wide className="whitespace-nowrap">
        <RelativeText value={delivery.created_at} />
      </TableCell>
      <TableCell wide className="whitespace-nowrap">
        {statusBadge}
      </TableCell>
      <TableCell wide className="tabular-nums">
        {formatNumber(delivery.attempt_count)}
      </TableCell>
      <TableCell wide className="whitespace-nowrap">
        <span title={last?.error ?? last?.response_excerpt ?? undefined}>
          {response}
          {last?.error && <span className="block max-w-48 truncate text-xs text-muted-foreground">{last.error}</span>}
        </span>
      </TableCell>
      <TableCell wide className="tabular-nums whitespace-nowrap">
        {latency}
      </TableCell>
      {canManage && (
        <TableCell className="text-right align-top md:align-middle">
          <Button
            variant="outline"
            size="sm"
            onClick={() => resend.mutate()}
            disabled={resend.isPending}
            aria-label={`Resend ${delivery.event_type} delivery`}
          >
            {resend.isPending ? <Spinner /> : <RotateCcwIcon aria-hidden="true" />}
            Resend
          </Button>
        </TableCell>
      )}
    </TableRow>
  );
}
