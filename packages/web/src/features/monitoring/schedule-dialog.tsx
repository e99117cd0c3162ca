import type { MonitoringSchedule } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { PencilIcon, PlusIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "../../components/ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../components/ui/dialog.tsx";
import { keys } from "../../lib/queries.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { createSchedule, updateSchedule } from "./monitoring-api.ts";
import { describeSchedule, emptySchedule, scheduleBodyOf, scheduleDraftOf } from "./schedule-draft.ts";
import { ScheduleForm } from "./schedule-form.tsx";

/** "New schedule", or "Edit" on an existing one: the same form in a dialog. */
export function ScheduleDialog({ schedule }: { schedule?: MonitoringSchedule }) {
  const { workspaceId, project } = useBrand();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const editing = schedule !== undefined;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        {editing ? (
          <Button variant="outline" size="sm" aria-label={`Edit schedule: ${describeSchedule(schedule)}`}>
            <PencilIcon aria-hidden="true" />
            Edit
          </Button>
        ) : (
          <Button>
            <PlusIcon aria-hidden="true" />
            New schedule
          </Button>
        )}
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{editing ? "Edit the schedule" : `Monitor ${project.name}`}</DialogTitle>
          <DialogDescription>
            Sightline runs an analysis on this schedule, compares it with the previous run, and checks the alert rules.
          </DialogDescription>
        </DialogHeader>
        {open && (
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
              setOpen(false);
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
