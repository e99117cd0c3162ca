import { parseArgs } from "node:util";
import { addStaffByOperator, attachClient, createAgency, setAgencyCredits } from "../../services/agencies/agencies.ts";
import { setCustomHost } from "../../services/agencies/hosts.ts";
import type { Deps } from "../../services/context.ts";
import { type Io, outputMode, required, table, UsageError } from "../io.ts";

export const AGENCY_USAGE = `Usage:
  sightline agency create --name NAME [--admin EMAIL] [--credits N] [--json|--quiet]
  sightline agency list [--json|--quiet]
  sightline agency client --agency ID --workspace ID [--json|--quiet]
  sightline agency staff --agency ID --email EMAIL --role admin|strategist|viewer [--json|--quiet]
  sightline agency credits --agency ID --credits N [--json|--quiet]
  sightline agency host --agency ID (--host NAME[:PORT] | --clear) [--json|--quiet]
An agency owns client workspaces and shares one monthly pool of credits among them (docs/agencies.md).
--admin and --email name someone with an account here. client makes an existing workspace a client.
host: the agency's dashboard and share links answer on NAME, and its clients' links and e-mails use it.`;

const options = {
  name: { type: "string" },
  admin: { type: "string" },
  credits: { type: "string" },
  agency: { type: "string" },
  workspace: { type: "string" },
  email: { type: "string" },
  role: { type: "string" },
  host: { type: "string" },
  clear: { type: "boolean" },
  json: { type: "boolean" },
  quiet: { type: "boolean" },
} as const;

function credits(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new UsageError("--credits must be a whole number");
  return n;
}

async function userId(deps: Deps, email: string): Promise<string> {
  const row = await deps.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  if (row === undefined)
    throw new UsageError(`no account has the address ${email}; create it with sightline user create`);
  return row.id;
}

export async function agencyCommand(deps: Deps, args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
  const mode = outputMode(values);
  const say = (json: unknown, quiet: string, text: string) =>
    io.out(mode === "json" ? JSON.stringify(json, null, 2) : mode === "quiet" ? quiet : text);
  switch (sub) {
    case "create": {
      const admin = values.admin === undefined ? undefined : await userId(deps, values.admin);
      const created = await createAgency(deps, {
        name: required(values, "name"),
        ...(credits(values.credits) === undefined ? {} : { creditsPerMonth: credits(values.credits) }),
        ...(admin === undefined ? {} : { adminUserId: admin }),
      });
      say(created, created.id, `Created agency ${created.name} (${created.id}).`);
      return 0;
    }
    case "list": {
      const rows = await deps.db.selectFrom("agencies").selectAll().orderBy("created_at").execute();
      if (mode === "json") io.out(JSON.stringify(rows, null, 2));
      else if (mode === "quiet") for (const row of rows) io.out(row.id);
      else if (rows.length === 0) io.out("No agencies.");
      else {
        const lines = rows.map((r) => [r.id, r.name, String(r.credits_per_month), r.custom_host ?? "-"]);
        for (const line of table([["ID", "NAME", "CREDITS/MONTH", "HOST"], ...lines])) io.out(line);
      }
      return 0;
    }
    case "client": {
      const agency = required(values, "agency");
      const workspace = required(values, "workspace");
      await attachClient(deps, agency, workspace);
      say(
        { agency_id: agency, workspace_id: workspace },
        workspace,
        `Workspace ${workspace} is a client of ${agency}.`,
      );
      return 0;
    }
    case "staff": {
      const agency = required(values, "agency");
      const email = required(values, "email");
      const role = required(values, "role");
      await addStaffByOperator(deps, agency, email, role);
      say({ agency_id: agency, email, role }, email, `${email} is ${role} at ${agency}.`);
      return 0;
    }
    case "credits": {
      const agency = required(values, "agency");
      const n = credits(required(values, "credits")) ?? 0;
      await setAgencyCredits(deps, agency, n);
      say(
        { agency_id: agency, credits_per_month: n },
        String(n),
        `${agency} shares ${n} credits a month among its clients.`,
      );
      return 0;
    }
    case "host": {
      const agency = required(values, "agency");
      if (values.clear !== true && values.host === undefined) throw new UsageError("give --host NAME or --clear");
      const host = await setCustomHost(deps, agency, values.clear === true ? null : (values.host ?? null));
      say(
        { agency_id: agency, custom_host: host },
        host ?? "",
        host === null
          ? `${agency} has no custom host.`
          : `${agency} answers on ${host}; point its DNS and TLS at this server.`,
      );
      return 0;
    }
    default:
      throw new UsageError(`unknown agency command "${sub ?? ""}"`);
  }
}
