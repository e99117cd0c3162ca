import { Badge } from "../../components/ui/badge.tsx";
import { type ChangeStatus, STATUS_LABEL, STATUS_MEANING } from "./experiments-api.ts";

const VARIANT = {
  collecting: "secondary",
  result: "success",
  inconclusive: "outline",
  not_called: "warning",
} as const satisfies Record<ChangeStatus, string>;

/** A change's status as a badge; what it means is its title (and said in words on the change's page). */
export function StatusBadge({ status }: { status: ChangeStatus }) {
  return (
    <Badge variant={VARIANT[status]} title={STATUS_MEANING[status]}>
      {STATUS_LABEL[status]}
    </Badge>
  );
}
