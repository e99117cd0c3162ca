import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { CheckboxField } from "../../components/checkbox-field.tsx";
import { QueryState } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { appCall, errorMessage } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import { useBrand } from "../brand-page/brand-context.tsx";

function digestQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "digest", projectId),
    queryFn: ({ signal }) =>
      appCall("getDigestSubscription", { params: { workspace: workspaceId, project_id: projectId } }, { signal }),
  });
}

/** "E-mail me a weekly digest of this brand": any member may ask for it, viewers too. */
export function DigestCard() {
  const { workspaceId, project } = useBrand();
  const queryClient = useQueryClient();
  const query = digestQuery(workspaceId, project.id);
  const digest = useQuery(query);
  const change = useMutation({
    mutationFn: (subscribed: boolean) =>
      appCall("setDigestSubscription", {
        params: { workspace: workspaceId, project_id: project.id },
        body: { subscribed },
      }),
    onSuccess: (next) => {
      queryClient.setQueryData(query.queryKey, next);
      toast.success(
        next.subscribed ? `You will get a weekly digest of ${project.name}` : "You will no longer get the digest",
      );
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
  return (
    <SectionCard
      titleId="digest-title"
      title="Weekly digest"
      description="On Mondays, last week's figures of a monitored brand with their intervals, the change against the week before and the week's alerts, by e-mail. Every digest has a link to unsubscribe."
    >
      <QueryState
        query={digest}
        loading="Loading your digest setting…"
        error="Your digest setting could not be loaded"
      />
      {digest.data && !digest.data.email_delivery && !digest.data.subscribed && (
        <p className="text-sm text-muted-foreground">
          This server cannot send e-mail: its operator has not set SMTP_URL.
        </p>
      )}
      {digest.data && (digest.data.email_delivery || digest.data.subscribed) && (
        <CheckboxField
          label="E-mail me a weekly digest of this brand"
          description="Sent to the address you sign in with, while you are a member of this workspace."
          checked={change.isPending ? change.variables : digest.data.subscribed}
          onCheckedChange={(on) => change.mutate(on)}
        />
      )}
    </SectionCard>
  );
}
