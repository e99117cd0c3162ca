import type { Static } from "typebox";
import { ApiError, validationError } from "../../errors/api-error.ts";
import { change } from "../analytics/figures.ts";
import { periodOf, previousOf } from "../analytics/period.ts";
import type { Deps } from "../context.ts";
import { proportion } from "../measurement/aggregate.ts";
import { billingPeriod } from "../usage/period.ts";
import { checkName, createWorkspace } from "../workspaces/workspaces.ts";
import type { AgencyAccess } from "./agencies.ts";
import type { AgencyClientListSchema, AgencyClientSchema } from "./schemas.ts";

type ClientRow = Static<typeof AgencyClientSchema>;
type ClientList = Static<typeof AgencyClientListSchema>;

export function checkCap(cap: number | null | undefined): number | null {
  if (cap === undefined || cap === null) return null;
  if (!Number.isInteger(cap) || cap < 0) {
    throw validationError([{ field: "credit_cap", issue: "must be a whole number of credits, 0 or more, or null" }]);
  }
  return cap;
}

async function anchorOf(deps: Deps, agencyId: string): Promise<string> {
  const row = await deps.db
    .selectFrom("agencies")
    .select("billing_anchor")
    .where("id", "=", agencyId)
    .executeTakeFirstOrThrow();
  return row.billing_anchor;
}

/** A new client workspace of the agency, on the Agency plan, drawing on its pool (within `credit_cap`). */
export async function createClient(
  deps: Deps,
  access: AgencyAccess,
  input: { name: string; credit_cap?: number | null },
): Promise<ClientRow> {
  const creditCap = checkCap(input.credit_cap);
  const workspace = await createWorkspace(deps, {
    name: input.name,
    plan: "agency",
    agency: { agencyId: access.id, kind: "client", billingAnchor: await anchorOf(deps, access.id), creditCap },
  });
  return clientRow(deps, access, workspace.id);
}

/** The client's workspace, or NOT_FOUND when it is not one of this agency's clients. */
async function assertClient(deps: Deps, access: AgencyAccess, workspaceId: string): Promise<void> {
  const row = await deps.db
    .selectFrom("workspaces")
    .select("id")
    .where("id", "=", workspaceId)
    .where("agency_id", "=", access.id)
    .where("agency_kind", "=", "client")
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("NOT_FOUND", `No client with id '${workspaceId}' exists at this agency.`);
}

/** Renames a client or sets its monthly cap (null: none, only the pool). */
export async function updateClient(
  deps: Deps,
  access: AgencyAccess,
  workspaceId: string,
  input: { name?: string; credit_cap?: number | null },
): Promise<ClientRow> {
  await assertClient(deps, access, workspaceId);
  const set: { name?: string; credit_cap?: number | null; updated_at: string } = {
    updated_at: deps.clock.now().toISOString(),
  };
  if (input.name !== undefined) set.name = checkName(input.name);
  if (input.credit_cap !== undefined) set.credit_cap = checkCap(input.credit_cap);
  await deps.db.updateTable("workspaces").set(set).where("id", "=", workspaceId).execute();
  return clientRow(deps, access, workspaceId);
}

async function clientRow(deps: Deps, access: AgencyAccess, workspaceId: string): Promise<ClientRow> {
  const list = await agencyClients(deps, access, [workspaceId]);
  const row = list.data[0];
  if (row === undefined) throw new ApiError("NOT_FOUND", `No client with id '${workspaceId}' exists at this agency.`);
  return row;
}

interface Counted {
  answers: number;
  mentioned: number;
}

function sumBy<T extends { workspace_id: string }>(rows: T[], read: (row: T) => number): Map<string, number> {
  const out = new Map<string, number>();
  for (const row of rows) out.set(row.workspace_id, (out.get(row.workspace_id) ?? 0) + read(row));
  return out;
}

/**
 * The agency's home: every client's visibility over the last 30 days (its brands' answers
 * together) with its Wilson interval and its change from the 30 days before, its open alerts,
 * the credits it used this billing month against its cap, and its last and next monitoring runs.
 * A handful of grouped queries for all the clients, whatever their number.
 */
export async function agencyClients(deps: Deps, access: AgencyAccess, only?: string[]): Promise<ClientList> {
  let query = deps.db
    .selectFrom("workspaces")
    .select(["id", "name", "credit_cap", "created_at"])
    .where("agency_id", "=", access.id)
    .where("agency_kind", "=", "client");
  if (only !== undefined) query = query.where("id", "in", only);
  const clients = await query.orderBy("name").orderBy("id").execute();
  const period = periodOf({}, deps.clock);
  const previous = previousOf(period);
  const billing = billingPeriod(await anchorOf(deps, access.id), deps.clock.now());
  if (clients.length === 0) return { data: [], from: period.from, to: period.to, period_end: billing.end };
  const ids = clients.map((client) => client.id);

  const visibility = await deps.db
    .selectFrom("engine_rollups")
    .select((eb) => [
      "workspace_id",
      eb.fn.sum<number>("answers").as("answers"),
      eb.fn.sum<number>("mentioned").as("mentioned"),
      eb.case().when("day", ">=", period.fromDay).then("now").else("before").end().as("span"),
    ])
    .where("workspace_id", "in", ids)
    .where("subject", "=", "")
    .where("day", ">=", previous.fromDay)
    .where("day", "<", period.toDay)
    .groupBy(["workspace_id", "span"])
    .execute();
  const spans = new Map<string, { now: Counted; before: Counted }>();
  for (const row of visibility) {
    const entry = spans.get(row.workspace_id) ?? {
      now: { answers: 0, mentioned: 0 },
      before: { answers: 0, mentioned: 0 },
    };
    const into = row.span === "now" ? entry.now : entry.before;
    into.answers += Number(row.answers ?? 0);
    into.mentioned += Number(row.mentioned ?? 0);
    spans.set(row.workspace_id, entry);
  }
  const brands = sumBy(
    await deps.db
      .selectFrom("projects")
      .select((eb) => ["workspace_id", eb.fn.countAll<number>().as("n")])
      .where("workspace_id", "in", ids)
      .groupBy("workspace_id")
      .execute(),
    (row) => Number(row.n),
  );
  const alerts = sumBy(
    await deps.db
      .selectFrom("alerts")
      .select((eb) => ["workspace_id", eb.fn.countAll<number>().as("n")])
      .where("workspace_id", "in", ids)
      .where("acknowledged_at", "is", null)
      .groupBy("workspace_id")
      .execute(),
    (row) => Number(row.n),
  );
  const credits = sumBy(
    await deps.db
      .selectFrom("credit_usage")
      .select(["workspace_id", "used"])
      .where("workspace_id", "in", ids)
      .where("period_start", "=", billing.start)
      .execute(),
    (row) => Number(row.used),
  );
  const lastRuns = await deps.db
    .selectFrom("monitoring_runs")
    .select((eb) => ["workspace_id", eb.fn.max<string>("created_at").as("at")])
    .where("workspace_id", "in", ids)
    .groupBy("workspace_id")
    .execute();
  const nextRuns = await deps.db
    .selectFrom("monitoring_schedules")
    .select((eb) => ["workspace_id", eb.fn.min<string>("next_run_at").as("at")])
    .where("workspace_id", "in", ids)
    .where("active", "=", true)
    .groupBy("workspace_id")
    .execute();
  const lastOf = new Map(lastRuns.map((row) => [row.workspace_id, row.at]));
  const nextOf = new Map(nextRuns.map((row) => [row.workspace_id, row.at]));

  return {
    data: clients.map((client) => {
      const counted = spans.get(client.id) ?? {
        now: { answers: 0, mentioned: 0 },
        before: { answers: 0, mentioned: 0 },
      };
      const now = proportion(counted.now.mentioned, counted.now.answers);
      const before = proportion(counted.before.mentioned, counted.before.answers);
      const moved = change(now.value, before.value, [now, before]);
      return {
        id: client.id,
        name: client.name,
        brands: brands.get(client.id) ?? 0,
        visibility: now,
        visibility_previous: before,
        visibility_change: moved.delta,
        visibility_change_significant: moved.significant,
        open_alerts: alerts.get(client.id) ?? 0,
        credits_used: credits.get(client.id) ?? 0,
        credit_cap: client.credit_cap === null ? null : Number(client.credit_cap),
        last_run_at: lastOf.get(client.id) ?? null,
        next_run_at: nextOf.get(client.id) ?? null,
        created_at: client.created_at,
      };
    }),
    from: period.from,
    to: period.to,
    period_end: billing.end,
  };
}
