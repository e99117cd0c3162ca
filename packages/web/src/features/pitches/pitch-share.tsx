import { useQueryClient } from "@tanstack/react-query";
import { ExternalLinkIcon, Link2Icon } from "lucide-react";
import { CopyField } from "../../components/copy-field.tsx";
import { FormError, PendingButton, useSubmit } from "../../components/form.tsx";
import { Button } from "../../components/ui/button.tsx";
import { keys } from "../../lib/queries.ts";
import { type Pitch, pitchQuery, sharePitch } from "./pitches-api.ts";

/**
 * The branded report's link: made once the pitch is ready (the same link when asked again), then
 * shown to copy and to open. It opens without an account, under the agency's branding.
 */
export function PitchShare({ agencyId, pitch, canShare }: { agencyId: string; pitch: Pitch; canShare: boolean }) {
  const queryClient = useQueryClient();
  const { run, pending, formError } = useSubmit();

  const share = () =>
    run(async () => {
      const shared = await sharePitch(agencyId, pitch.id);
      queryClient.setQueryData(pitchQuery(agencyId, pitch.id).queryKey, shared);
      await queryClient.invalidateQueries({ queryKey: keys.agencyPart(agencyId, "pitches"), exact: true });
    });

  if (pitch.share_url === null) {
    if (!canShare) return <p className="text-sm text-muted-foreground">A strategist or an admin creates its link.</p>;
    return (
      <div className="grid gap-3">
        <FormError message={formError} />
        <div>
          <PendingButton pending={pending} onClick={share}>
            <Link2Icon aria-hidden="true" />
            Create share link
          </PendingButton>
        </div>
      </div>
    );
  }
  return (
    <div className="grid gap-3">
      <CopyField label="Share link" value={pitch.share_url} />
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline">
          <a href={pitch.share_url} target="_blank" rel="noreferrer noopener">
            <ExternalLinkIcon aria-hidden="true" />
            Open report
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </Button>
      </div>
    </div>
  );
}
