import { useQuery } from "@tanstack/react-query";
import { Link, useLocation, useNavigate } from "@tanstack/react-router";
import { BuildingIcon, CheckIcon, ChevronsUpDownIcon, PlusIcon, SearchIcon } from "lucide-react";
import { type KeyboardEvent, useId, useRef, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Popover, PopoverContent, PopoverTrigger } from "../../components/ui/popover.tsx";
import { planName } from "../../lib/format.ts";
import { ROLE_NAMES } from "../../lib/roles.ts";
import type { WorkspaceSummary } from "../../lib/types.ts";
import { cn } from "../../lib/utils.ts";
import { agenciesQuery } from "../agencies/agencies-api.ts";
import { NewWorkspaceDialog } from "./new-workspace-dialog.tsx";
import { groupWorkspaces } from "./workspace-groups.ts";

const ITEM =
  "flex w-full min-w-0 items-center gap-2 rounded-sm px-2 py-1.5 text-left text-sm outline-none hover:bg-accent focus-visible:bg-accent focus-visible:ring-2 focus-visible:ring-ring";

/**
 * The header's switcher: a search box over the user's workspaces, grouped under their agency (each
 * agency the user is staff of with its "Agency home"), then the others, and "New workspace".
 * Arrow keys move between the entries; Enter in the search box opens the first match.
 */
export function WorkspaceSwitcher({
  workspaces,
  currentId,
  currentAgencyId,
}: {
  workspaces: WorkspaceSummary[];
  currentId: string | undefined;
  /** On an agency's pages: the agency, named on the button. */
  currentAgencyId?: string | undefined;
}) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [search, setSearch] = useState("");
  const list = useRef<HTMLDivElement>(null);
  const searchId = useId();
  const agencies = useQuery(agenciesQuery);
  const staffOf = agencies.data?.data ?? [];
  const groups = groupWorkspaces(workspaces, staffOf, search);
  const current = workspaces.find((workspace) => workspace.id === currentId);
  const currentAgency = currentAgencyId ? staffOf.find((agency) => agency.id === currentAgencyId) : undefined;
  const label = current?.name ?? currentAgency?.name ?? "Choose a workspace";
  // From a workspace's settings, open the other workspace's settings; from anywhere else, its overview.
  const toSettings = pathname.startsWith("/w/") && pathname.endsWith("/settings");
  const first = groups.flatMap((group) => group.workspaces)[0];

  function move(event: KeyboardEvent<HTMLElement>) {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const items = [...(list.current?.querySelectorAll<HTMLElement>("[data-switcher-item]") ?? [])];
    if (items.length === 0) return;
    event.preventDefault();
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = event.key === "ArrowDown" ? (at + 1) % items.length : at <= 0 ? items.length - 1 : Math.max(0, at - 1);
    items[next]?.focus();
  }

  function close() {
    setOpen(false);
    setSearch("");
  }

  return (
    <>
      <Popover open={open} onOpenChange={(next) => (next ? setOpen(true) : close())}>
        <PopoverTrigger asChild>
          <Button
            variant="ghost"
            className="h-9 max-w-[11rem] min-w-0 justify-between gap-1.5 px-2 sm:max-w-[16rem]"
            aria-label={
              current
                ? `Workspace: ${current.name}. Switch workspace`
                : currentAgency
                  ? `Agency: ${currentAgency.name}. Switch workspace`
                  : "Choose a workspace"
            }
          >
            {currentAgency && !current && <BuildingIcon className="text-muted-foreground" aria-hidden="true" />}
            <span className="truncate">{label}</span>
            <ChevronsUpDownIcon className="text-muted-foreground" aria-hidden="true" />
          </Button>
        </PopoverTrigger>
        <PopoverContent className="w-80 p-0" aria-label="Switch workspace" onKeyDown={move}>
          <div className="border-b p-2">
            <label htmlFor={searchId} className="sr-only">
              Search workspaces by name
            </label>
            <div className="relative">
              <SearchIcon
                className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
                aria-hidden="true"
              />
              <Input
                id={searchId}
                type="search"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === "Enter" && first) {
                    event.preventDefault();
                    close();
                    void navigate({
                      to: toSettings ? "/w/$workspaceId/settings" : "/w/$workspaceId",
                      params: { workspaceId: first.id },
                    });
                  }
                }}
                placeholder="Search workspaces"
                autoComplete="off"
                className="pl-8"
              />
            </div>
          </div>
          <div ref={list} className="max-h-[min(24rem,60dvh)] overflow-y-auto p-1">
            {groups.length === 0 && (
              <p className="px-2 py-3 text-sm text-muted-foreground" role="status">
                No workspace is named “{search.trim()}”.
              </p>
            )}
            {groups.map((group) => {
              const headingId = `${searchId}-${group.agency?.id ?? "others"}`;
              return (
                <section key={group.agency?.id ?? "others"} aria-labelledby={headingId} className="py-1">
                  <div className="flex items-center justify-between gap-2 px-2 py-1">
                    <h2 id={headingId} className="truncate text-xs font-medium text-muted-foreground">
                      {group.agency ? group.agency.name : staffOf.length > 0 ? "Other workspaces" : "Your workspaces"}
                    </h2>
                    {group.agency?.staff && (
                      <Link
                        to="/agency/$agencyId"
                        params={{ agencyId: group.agency.id }}
                        data-switcher-item
                        onClick={close}
                        aria-label={`Agency home of ${group.agency.name}`}
                        aria-current={currentAgencyId === group.agency.id ? "page" : undefined}
                        className="shrink-0 rounded-sm px-1.5 py-0.5 text-xs font-medium text-primary outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                      >
                        Agency home
                      </Link>
                    )}
                  </div>
                  {group.workspaces.length > 0 && (
                    <ul>
                      {group.workspaces.map((workspace) => (
                        <li key={workspace.id}>
                          <Link
                            to={toSettings ? "/w/$workspaceId/settings" : "/w/$workspaceId"}
                            params={{ workspaceId: workspace.id }}
                            data-switcher-item
                            onClick={close}
                            aria-current={workspace.id === currentId ? "page" : undefined}
                            className={ITEM}
                          >
                            <CheckIcon
                              className={cn("size-4 shrink-0", workspace.id !== currentId && "invisible")}
                              aria-hidden="true"
                            />
                            <span className="flex min-w-0 flex-col">
                              <span className="truncate">{workspace.name}</span>
                              <span className="text-xs text-muted-foreground">
                                {planName(workspace.plan)} plan · {ROLE_NAMES[workspace.role]}
                              </span>
                            </span>
                          </Link>
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
              );
            })}
          </div>
          <div className="border-t p-1">
            <button
              type="button"
              data-switcher-item
              className={ITEM}
              onClick={() => {
                close();
                setCreating(true);
              }}
            >
              <PlusIcon className="size-4 shrink-0" aria-hidden="true" />
              New workspace
            </button>
          </div>
        </PopoverContent>
      </Popover>
      <NewWorkspaceDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
