import { useQueryClient } from "@tanstack/react-query";
import { Trash2Icon } from "lucide-react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { keys } from "../../lib/queries.ts";
import { pitchTitle } from "./pitch-status.tsx";
import { deletePitch, type Pitch } from "./pitches-api.ts";

/** Deletes a pitch not converted, with its answers and report: its link opens nothing more. */
export function DeletePitch({
  agencyId,
  pitch,
  onDeleted,
}: {
  agencyId: string;
  pitch: Pitch;
  onDeleted?: () => void;
}) {
  const queryClient = useQueryClient();
  const title = pitchTitle(pitch);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={`Delete the pitch for ${title}`}>
          <Trash2Icon aria-hidden="true" />
          Delete
        </Button>
      }
      title={`Delete the pitch for ${title}?`}
      description="Its answers and its report go with it, and its share link stops opening the report. This cannot be undone."
      confirmLabel="Delete pitch"
      onConfirm={async () => {
        await deletePitch(agencyId, pitch.id);
        queryClient.removeQueries({ queryKey: keys.agencyPart(agencyId, "pitches", pitch.id) });
        await queryClient.invalidateQueries({ queryKey: keys.agencyPart(agencyId, "pitches"), exact: true });
        toast.success(`The pitch for ${title} was deleted`);
        onDeleted?.();
      }}
    />
  );
}
