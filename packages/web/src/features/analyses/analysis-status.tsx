import type { Analysis } from "@sightline/sdk";
import { Badge } from "../../components/ui/badge.tsx";

const STATUS = {
  queued: { label: "Queued", variant: "muted" },
  running: { label: "Running", variant: "secondary" },
  completed: { label: "Completed", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
} as const;

export function AnalysisStatus({ status }: { status: Analysis["status"] }) {
  return <Badge variant={STATUS[status].variant}>{STATUS[status].label}</Badge>;
}

export const TRIGGER_NAMES: Record<Analysis["trigger"], string> = {
  api: "API",
  monitoring: "Monitoring",
  dashboard: "Dashboard",
  cli: "Command line",
};
