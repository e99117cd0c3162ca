import { parseArgs } from "node:util";
import { ApiError } from "../../errors/api-error.ts";
import { isRole, ROLES } from "../../services/accounts/roles.ts";
import { createUserForWorkspace } from "../../services/accounts/signup.ts";
import type { Deps } from "../../services/context.ts";
import { type Io, outputMode, required, UsageError } from "../io.ts";

export const USER_USAGE = `Usage:
  sightline user create --workspace ID --email EMAIL --role owner|admin|member|viewer [--name NAME] [--json]
  sightline user reset-link --email EMAIL [--json]
Dashboard accounts. Each prints a one-time link (valid an hour) to set the password; give it to the user.`;

const options = {
  workspace: { type: "string" },
  email: { type: "string" },
  name: { type: "string" },
  role: { type: "string" },
  json: { type: "boolean" },
} as const;

export async function userCommand(deps: Deps, args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
  const mode = outputMode(values);
  switch (sub) {
    case "create": {
      const role = required(values, "role");
      if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(", ")}`);
      const created = await createUserForWorkspace(deps, {
        workspaceId: required(values, "workspace"),
        email: required(values, "email"),
        ...(values.name === undefined ? {} : { name: values.name }),
        role,
      });
      if (mode === "json") {
        io.out(JSON.stringify({ user: created.user, role, password_link: created.link }, null, 2));
        return 0;
      }
      io.out(`${created.user.email} is ${role} of workspace ${values.workspace}.`);
      io.out(
        created.link === null
          ? "The account existed already: it keeps its password."
          : `Send them this link to set a password (valid for an hour, once):\n\n  ${created.link}\n`,
      );
      return 0;
    }
    case "reset-link": {
      const email = required(values, "email");
      const link = await deps.identity.resetLink(email);
      if (link === null) throw new ApiError("NOT_FOUND", `No account has the e-mail address ${email}.`);
      if (mode === "json") io.out(JSON.stringify({ email, password_link: link }, null, 2));
      else io.out(`Send this link to ${email} to set a new password (valid for an hour, once):\n\n  ${link}\n`);
      return 0;
    }
    default:
      throw new UsageError(sub === undefined ? "user needs a subcommand" : `unknown subcommand "user ${sub}"`);
  }
}
