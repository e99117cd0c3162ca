import { LockIcon } from "lucide-react";
import { planName } from "../lib/format.ts";

/**
 * Why a workspace cannot use what needs API access (API keys, connected apps): its plan, and who
 * can change that.
 */
export function NoApiAccessNote({ title, plan }: { title: string; plan: string }) {
  return (
    <div className="flex gap-3 rounded-lg border bg-muted/50 p-4 text-sm">
      <LockIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div>
        <p className="font-medium">{title}</p>
        <p className="mt-1 text-muted-foreground">
          This workspace is on the {planName(plan)} plan, which has no API access. Plans are set by whoever runs this
          Sightline server: ask them to move the workspace to Growth or Agency.
        </p>
      </div>
    </div>
  );
}
