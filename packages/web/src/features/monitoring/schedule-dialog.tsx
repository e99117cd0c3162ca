import type { MonitoringSchedule } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { PencilIcon, PlusIcon } from "lucide-react";
import { toast } from "sonner";
import { DialogHeading, FormDialog } from "../../components/form-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { keys } from "../../lib/queries.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { createSchedule, updateSchedule } from "./monitoring-api.ts";
import { describeSchedule, emptySchedule, scheduleBodyOf, scheduleDraftOf } from "./schedule-draft.ts";
import { ScheduleForm } from "./schedule-form.tsx";

/** "New schedule", or "Edit" on an existing one: the same form in a dialog. */
export function ScheduleDialog({ schedule }: { schedule?: MonitoringSchedule }) {
  const { workspaceId, project } = useBrand();
  const queryClient = useQueryClient();
  const editing = schedule !== undefined;
  return (
    <FormDialog
      className="max-w-2xl"
      trigger={
        editing ? (
          <Button variant="outline" size="sm" aria-label={`Edit schedule: ${describeSchedule(schedule)}`}>
            <PencilIcon aria-hidden="true" />
            Edit
          </Button>
        ) : (
          <Button>
            <PlusIcon aria-hidden="true" />
            New schedule
          </Button>
        )
      }
    >
      {(close) => (
        <>
          <DialogHeading
            title={editing ? "Edit the schedule" : `Monitor ${project.name}`}
            description="Sightline runs an analysis on this schedule, compares it with the previous run, and checks the alert rules."
          />
          <ScheduleForm
            initial={schedule ? scheduleDraftOf(schedule) : emptySchedule()}
            submitLabel={editing ? "Save schedule" : "Create schedule"}
            onSubmit={async (draft) => {
              const body = scheduleBodyOf(draft);
              if (schedule) await updateSchedule(workspaceId, schedule.id, body);
              else await createSchedule(workspaceId, { project_id: project.id, ...body });
              await queryClient.invalidateQueries({
                queryKey: keys.workspacePart(workspaceId, "monitoring", project.id),
              });
              toast.success(editing ? "The schedule was saved" : "The schedule was created");
              close();
            }}
          />
        </>
      )}
    </FormDialog>
  );
}
