import { useQuery } from "@tanstack/react-query";
import { formatDate, formatNumber, plural } from "../../lib/format.ts";
import type { Workspace } from "../../lib/types.ts";
import { projectsQuery } from "../brands/brands-api.ts";
import { membersQuery } from "../members/members-api.ts";
import { usageQuery } from "../usage/usage-api.ts";
import { Stat } from "./stat.tsx";

export function OverviewStats({ workspace }: { workspace: Workspace }) {
  const projects = useQuery(projectsQuery(workspace.id));
  const members = useQuery(membersQuery(workspace.id));
  const usage = useQuery(usageQuery(workspace.id));

  const brandCount = projects.data
    ? `${formatNumber(projects.data.data.length)}${projects.data.has_more ? "+" : ""}`
    : "–";
  const credits = usage.data?.credits;

  return (
    <dl className="grid gap-3 sm:grid-cols-3">
      <Stat label="Brands tracked" value={brandCount} loading={projects.isPending} detail="in this workspace" />
      <Stat
        label="Members"
        value={members.data ? formatNumber(members.data.data.length) : "–"}
        loading={members.isPending}
        detail="people with access"
      />
      <Stat
        label="Credits used"
        loading={usage.isPending}
        value={credits ? formatNumber(credits.used) : "–"}
        detail={
          usage.data && credits
            ? `of ${plural(credits.allowance, "credit")}, ${formatDate(usage.data.period.start)} – ${formatDate(
                new Date(new Date(usage.data.period.end).getTime() - 1),
              )}`
            : `${plural(workspace.credits_per_month, "credit")} a month on this plan`
        }
      />
    </dl>
  );
}
