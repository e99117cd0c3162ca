import type { ReportListItem, ReportShare } from "@sightline/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link2Icon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { CopyField } from "../../components/copy-field.tsx";
import { PendingButton } from "../../components/form.tsx";
import { DialogHeading, FormDialog } from "../../components/form-dialog.tsx";
import { QueryState } from "../../components/page-states.tsx";
import { SelectField } from "../../components/select-field.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { errorMessage } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { createShare, revokeShare, sharesQuery } from "./analyses-api.ts";

const DURATIONS = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
] as const;

/** "Share": links that open the report without an account, each expiring, each revocable here. */
export function ShareReportDialog({ workspaceId, report }: { workspaceId: string; report: ReportListItem }) {
  return (
    <FormDialog
      className="sm:max-w-xl"
      trigger={
        <Button variant="outline" size="sm" aria-label={`Share report “${report.title}” by link`}>
          <Link2Icon aria-hidden="true" />
          Share
        </Button>
      }
    >
      <DialogHeading
        title="Share this report"
        description={`Anyone with the link can open “${report.title}”, read-only and without an account, until the link expires or you revoke it. It shows this report only, nothing else in the workspace.`}
      />
      <ShareLinks workspaceId={workspaceId} reportId={report.id} />
    </FormDialog>
  );
}

function ShareLinks({ workspaceId, reportId }: { workspaceId: string; reportId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [days, setDays] = useState("30");
  const [created, setCreated] = useState<ReportShare | null>(null);
  const shares = useQuery(sharesQuery(workspaceId, reportId));
  const refresh = () => queryClient.invalidateQueries({ queryKey: sharesQuery(workspaceId, reportId).queryKey });
  const create = useMutation({
    mutationFn: () => createShare(workspaceId, reportId, Number(days)),
    onSuccess: async (share) => {
      setCreated(share);
      await refresh();
    },
    onError: (error) => toast.error(`The link could not be created: ${errorMessage(error)}`),
  });
  const revoke = useMutation({
    mutationFn: (shareId: string) => revokeShare(workspaceId, reportId, shareId),
    onSuccess: async (share) => {
      if (created?.id === share.id) setCreated(null);
      toast.success("Link revoked: it no longer opens the report");
      await refresh();
    },
    onError: (error) => toast.error(`The link could not be revoked: ${errorMessage(error)}`),
  });
  const active = shares.data?.data.filter((share) => share.active) ?? [];
  const inactive = shares.data?.data.filter((share) => !share.active) ?? [];

  return (
    <div className="grid gap-5">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <SelectField
          label="Link expires after"
          value={days}
          onChange={setDays}
          options={DURATIONS.map((d) => ({ value: String(d.days), label: d.label }))}
          triggerClassName="w-40"
        />
        <PendingButton type="submit" pending={create.isPending}>
          Create link
        </PendingButton>
      </form>
      {created && (
        <div className="grid gap-1">
          <CopyField label="New link" value={created.url ?? ""} />
          <p className="text-xs text-muted-foreground">Opens the report until {formatDateTime(created.expires_at)}.</p>
        </div>
      )}
      <section aria-labelledby={`${id}-links`} className="grid gap-2">
        <h3 id={`${id}-links`} className="text-sm font-semibold">
          Links to this report
        </h3>
        <QueryState query={shares} loading="Loading links…" error="The links could not be loaded" />
        {shares.data && shares.data.data.length === 0 && (
          <p className="text-sm text-muted-foreground">No link yet: the report is seen only in this workspace.</p>
        )}
        <ul className="grid gap-2">
          {[...active, ...inactive].map((share) => (
            <li key={share.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-2">
              <div className="grid min-w-0 gap-0.5">
                <span className="truncate font-mono text-xs" title={share.url ?? undefined}>
                  {share.url ?? "Link shown to members who can share"}
                </span>
                <span className="text-xs text-muted-foreground">
                  Made {formatDateTime(share.created_at)} ·{" "}
                  {share.revoked_at
                    ? `revoked ${formatDateTime(share.revoked_at)}`
                    : share.active
                      ? `expires ${formatDateTime(share.expires_at)}`
                      : `expired ${formatDateTime(share.expires_at)}`}
                </span>
              </div>
              {share.active ? (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate(share.id)}
                  aria-label={`Revoke the link made ${formatDateTime(share.created_at)}`}
                >
                  Revoke
                </Button>
              ) : (
                <Badge variant="outline">{share.revoked_at ? "Revoked" : "Expired"}</Badge>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
