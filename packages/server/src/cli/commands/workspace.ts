import { parseArgs } from "node:util";
import type { Deps } from "../../services/context.ts";
import { createWorkspace, listWorkspaces, setWorkspacePlan } from "../../services/workspaces/workspaces.ts";
import { type Io, outputMode, required, table, UsageError } from "../io.ts";

export const WORKSPACE_USAGE = `Usage:
  sightline workspace create --name NAME --plan free|starter|growth|agency [--json|--quiet]
  sightline workspace set-plan --workspace ID --plan PLAN [--json|--quiet]
  sightline workspace list [--json]`;

const options = {
  name: { type: "string" },
  plan: { type: "string" },
  workspace: { type: "string" },
  json: { type: "boolean" },
  quiet: { type: "boolean" },
} as const;

export async function workspaceCommand(deps: Deps, args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
  const mode = outputMode(values);
  switch (sub) {
    case "create": {
      const workspace = await createWorkspace(deps, { name: required(values, "name"), plan: required(values, "plan") });
      if (mode === "json") io.out(JSON.stringify(workspace, null, 2));
      else if (mode === "quiet") io.out(workspace.id);
      else io.out(`Created workspace ${workspace.id} "${workspace.name}" on the ${workspace.plan} plan.`);
      return 0;
    }
    case "set-plan": {
      const workspace = await setWorkspacePlan(deps, {
        workspaceId: required(values, "workspace"),
        plan: required(values, "plan"),
      });
      if (mode === "json") io.out(JSON.stringify(workspace, null, 2));
      else if (mode === "quiet") io.out(workspace.id);
      else io.out(`Workspace ${workspace.id} is now on the ${workspace.plan} plan.`);
      return 0;
    }
    case "list": {
      const workspaces = await listWorkspaces(deps);
      if (mode === "json") io.out(JSON.stringify(workspaces, null, 2));
      else if (mode === "quiet") for (const w of workspaces) io.out(w.id);
      else {
        for (const line of table([
          ["ID", "NAME", "PLAN", "CREATED"],
          ...workspaces.map((w) => [w.id, w.name, w.plan, w.created_at.slice(0, 10)]),
        ]))
          io.out(line);
      }
      return 0;
    }
    default:
      throw new UsageError(
        sub === undefined ? "workspace needs a subcommand" : `unknown subcommand "workspace ${sub}"`,
      );
  }
}
