import { LockIcon, Undo2Icon } from "lucide-react";
import { useState } from "react";
import { CheckboxGroup } from "../../components/checkbox-group.tsx";
import { FormError, PendingButton } from "../../components/form.tsx";
import { SelectField } from "../../components/select-field.tsx";
import { errorMessage } from "../../lib/api.ts";
import { lastWorkspace } from "../../lib/navigation.ts";
import { ROLE_NAMES } from "../../lib/roles.ts";
import type { AuthorizationParams, AuthorizationPreview, Scope } from "../../lib/types.ts";
import { SCOPES } from "../api-keys/scopes.ts";
import { decideAuthorization } from "./connected-apps-api.ts";

type Workspace = AuthorizationPreview["workspaces"][number];

/** The workspace to offer first: the one last opened in this browser if it can connect, else the first that can. */
function firstChoice(workspaces: Workspace[]): string {
  const usable = workspaces.filter((workspace) => workspace.api_access);
  const last = lastWorkspace();
  return (usable.find((workspace) => workspace.id === last) ?? usable[0])?.id ?? "";
}

/**
 * The member's answer to an application asking to connect: which workspace it may use, and which
 * of the permissions it asked for. A permission the member's role there cannot grant is shown,
 * disabled, with the reason; one they untick stays unticked when they change workspace. Either
 * answer goes to the server, which says where to send the browser: back to the application.
 */
export function ConsentForm({ params, preview }: { params: AuthorizationParams; preview: AuthorizationPreview }) {
  const app = preview.client.name;
  const [workspaceId, setWorkspaceId] = useState(() => firstChoice(preview.workspaces));
  const [unticked, setUnticked] = useState<ReadonlySet<Scope>>(new Set());
  const [pending, setPending] = useState<"allow" | "deny">();
  const [error, setError] = useState<string>();

  const workspace = preview.workspaces.find((w) => w.id === workspaceId);
  const grantable = new Set(workspace?.grantable_scopes ?? []);
  const requested = SCOPES.filter(({ scope }) => preview.requested_scopes.includes(scope));
  const chosen = requested.map(({ scope }) => scope).filter((scope) => grantable.has(scope) && !unticked.has(scope));

  async function decide(decision: "allow" | "deny") {
    setPending(decision);
    setError(undefined);
    try {
      const to = await decideAuthorization(
        decision === "allow"
          ? { ...params, decision, workspace_id: workspaceId, scopes: chosen }
          : { ...params, decision },
      );
      // The buttons stay busy while the browser leaves for the application.
      window.location.assign(to);
    } catch (failure) {
      setError(errorMessage(failure));
      setPending(undefined);
    }
  }

  return (
    <div className="grid gap-6">
      {workspace === undefined ? (
        <div className="flex gap-3 rounded-lg border bg-muted/50 p-4 text-sm">
          <LockIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <div>
            <p className="font-medium">None of your workspaces can connect applications.</p>
            <p className="mt-1 text-muted-foreground">
              {preview.workspaces.length === 0
                ? "You are not a member of any workspace yet."
                : "Connecting needs API access, which the Growth and Agency plans have. Ask whoever runs this Sightline server to move your workspace to one of them."}
            </p>
          </div>
        </div>
      ) : (
        <>
          <SelectField
            label="Workspace"
            value={workspaceId}
            onChange={setWorkspaceId}
            hint={`${app} can use this workspace only, and only as far as the permissions below allow.`}
            triggerClassName="w-full"
            options={preview.workspaces.map((w) => ({
              value: w.id,
              disabled: !w.api_access,
              label: w.api_access
                ? `${w.name} · ${ROLE_NAMES[w.role]}`
                : `${w.name} · not available: its plan has no API access`,
            }))}
          />
          <CheckboxGroup
            legend={`What ${app} may do`}
            name="scopes"
            value={new Set(chosen)}
            onChange={(next) => setUnticked(new Set(requested.map(({ scope }) => scope).filter((s) => !next.has(s))))}
            options={requested.map(({ scope, label, grants }) => ({
              value: scope,
              label,
              disabled: !grantable.has(scope),
              description: grantable.has(scope) ? grants : `Your role (${workspace.role}) cannot grant this.`,
            }))}
            error={
              requested.every(({ scope }) => !grantable.has(scope))
                ? `Your role here cannot grant anything ${app} asked for. Choose another workspace, or cancel.`
                : chosen.length === 0
                  ? "Tick at least one permission to allow, or cancel."
                  : undefined
            }
          />
        </>
      )}
      <p className="flex gap-2 text-sm text-muted-foreground">
        <Undo2Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          Either way, you go back to{" "}
          <strong className="font-medium break-all text-foreground">{preview.client.redirect_host}</strong>. You can
          disconnect {app} at any time in the workspace's Settings, under Connected apps.
        </span>
      </p>
      <FormError message={error} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <PendingButton
          variant="outline"
          pending={pending === "deny"}
          disabled={pending !== undefined}
          onClick={() => decide("deny")}
        >
          Cancel
        </PendingButton>
        <PendingButton
          pending={pending === "allow"}
          disabled={pending !== undefined || workspace === undefined || chosen.length === 0}
          onClick={() => decide("allow")}
        >
          Allow
        </PendingButton>
      </div>
    </div>
  );
}
