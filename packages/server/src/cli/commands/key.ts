import { parseArgs } from "node:util";
import { createApiKey, listApiKeys, revokeApiKey } from "../../services/api-keys/api-keys.ts";
import type { Deps } from "../../services/context.ts";
import { type Io, outputMode, required, table, UsageError } from "../io.ts";

export const KEY_USAGE = `Usage:
  sightline key create --workspace ID --name NAME --scopes read,projects,… [--json|--quiet]
  sightline key list --workspace ID [--json]
  sightline key revoke --key ID [--json|--quiet]
Scopes: read, analyze, projects, results, reports, monitoring, webhooks, usage.`;

const options = {
  workspace: { type: "string" },
  name: { type: "string" },
  scopes: { type: "string" },
  key: { type: "string" },
  json: { type: "boolean" },
  quiet: { type: "boolean" },
} as const;

export async function keyCommand(deps: Deps, args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
  const mode = outputMode(values);
  switch (sub) {
    case "create": {
      const scopes = required(values, "scopes")
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
      const created = await createApiKey(deps, {
        workspaceId: required(values, "workspace"),
        name: required(values, "name"),
        scopes,
      });
      if (mode === "json") {
        io.out(JSON.stringify(created, null, 2));
      } else if (mode === "quiet") {
        io.out(created.key);
      } else {
        io.out(
          `Created API key ${created.id} "${created.name}" (${created.scopes.join(", ")}), expires ${created.expires_at.slice(0, 10)}.`,
        );
        io.out("");
        io.out(`  ${created.key}`);
        io.out("");
        io.out("Copy it now: it is shown this once and cannot be displayed again.");
      }
      return 0;
    }
    case "list": {
      const keys = await listApiKeys(deps, required(values, "workspace"));
      if (mode === "json") io.out(JSON.stringify(keys, null, 2));
      else if (mode === "quiet") for (const k of keys) io.out(k.id);
      else {
        const rows = keys.map((k) => [
          k.id,
          k.name,
          `${k.start}…`,
          k.scopes.join(","),
          k.status,
          k.expires_at.slice(0, 10),
          k.last_used_at?.slice(0, 19).replace("T", " ") ?? "never",
        ]);
        for (const line of table([["ID", "NAME", "KEY", "SCOPES", "STATUS", "EXPIRES", "LAST USED"], ...rows]))
          io.out(line);
      }
      return 0;
    }
    case "revoke": {
      const key = await revokeApiKey(deps, { keyId: required(values, "key") });
      if (mode === "json") io.out(JSON.stringify(key, null, 2));
      else if (mode === "quiet") io.out(key.id);
      else io.out(`Revoked ${key.id} "${key.name}"; requests with it now get INVALID_API_KEY.`);
      return 0;
    }
    default:
      throw new UsageError(sub === undefined ? "key needs a subcommand" : `unknown subcommand "key ${sub}"`);
  }
}
