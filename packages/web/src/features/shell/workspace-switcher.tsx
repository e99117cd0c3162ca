import { useLocation, useNavigate } from "@tanstack/react-router";
import { ChevronsUpDownIcon, PlusIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../components/ui/dropdown-menu.tsx";
import { planName } from "../../lib/format.ts";
import { ROLE_NAMES } from "../../lib/roles.ts";
import type { WorkspaceSummary } from "../../lib/types.ts";
import { NewWorkspaceDialog } from "./new-workspace-dialog.tsx";

export function WorkspaceSwitcher({
  workspaces,
  currentId,
}: {
  workspaces: WorkspaceSummary[];
  currentId: string | undefined;
}) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [creating, setCreating] = useState(false);
  const current = workspaces.find((workspace) => workspace.id === currentId);

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant="ghost"
            className="h-9 max-w-[11rem] justify-between gap-1.5 px-2 sm:max-w-[16rem]"
            aria-label={current ? `Workspace: ${current.name}. Switch workspace` : "Choose a workspace"}
          >
            <span className="truncate">{current?.name ?? "Choose a workspace"}</span>
            <ChevronsUpDownIcon className="text-muted-foreground" aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-72">
          <DropdownMenuLabel>Your workspaces</DropdownMenuLabel>
          <DropdownMenuRadioGroup
            value={currentId ?? ""}
            // From a workspace's settings, open the other workspace's settings; from anywhere else, its overview.
            onValueChange={(id) =>
              void navigate({
                to: pathname.endsWith("/settings") ? "/w/$workspaceId/settings" : "/w/$workspaceId",
                params: { workspaceId: id },
              })
            }
          >
            {workspaces.map((workspace) => (
              <DropdownMenuRadioItem key={workspace.id} value={workspace.id}>
                <span className="flex min-w-0 flex-col">
                  <span className="truncate">{workspace.name}</span>
                  <span className="text-xs text-muted-foreground">
                    {planName(workspace.plan)} plan · {ROLE_NAMES[workspace.role]}
                  </span>
                </span>
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setCreating(true)}>
            <PlusIcon aria-hidden="true" />
            New workspace
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <NewWorkspaceDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
