import { sql } from "kysely";
import { afterCommit } from "../../db/transaction.ts";
import { ApiError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { credits as creditsMetric } from "../../lib/metrics.ts";
import { count } from "../../lib/plural.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { billingPeriod } from "./period.ts";

/** Credits by engine: one credit is one answer from one engine (prompt × engine × sample). */
export interface CreditCharge {
  engine: string;
  credits: number;
}

/**
 * The ledger's line for calls to the judge engine (services/judge): shown as `credits.judge` in usage,
 * apart from the answers' credits by engine. No engine may be named so (config refuses it).
 */
export const JUDGE_LEDGER = "judge";

export interface Reservation {
  reference: string;
  credits: number;
  periodStart: string;
}

const RETRY_AFTER_SECONDS = 5;

function total(charges: CreditCharge[]): number {
  return charges.reduce((sum, charge) => sum + charge.credits, 0);
}

/**
 * Anything but our own refusals means the quota could not be read or written (store down,
 * lock or statement timeout): refuse with BILLING_UNAVAILABLE rather than spend blindly.
 */
export function unavailable(ctx: ServiceContext, error: unknown): never {
  if (error instanceof ApiError) throw error;
  ctx.logger.error({ err: error, workspace: ctx.workspace.id }, "quota store unavailable");
  throw new ApiError("BILLING_UNAVAILABLE", "The plan's quota could not be read; nothing was spent. Retry shortly.", {
    retryAfter: RETRY_AFTER_SECONDS,
    cause: error,
  });
}

/** A billing check waits at most this long for locks and for each statement. */
function boundWaits(ctx: ServiceContext): Promise<void> {
  return ctx.sql.boundWaits(ctx.db, { lockMs: 2_000, statementMs: 5_000 });
}

/** The pool a client of an agency draws on, with its own cap; null for a workspace of its own. */
export interface AgencyPool {
  agencyId: string;
  agencyName: string;
  clientName: string;
  allowance: number;
  billingAnchor: string;
  /** The client's monthly cap, or null for none (only the pool then). */
  cap: number | null;
}

export async function agencyPoolOf(ctx: ServiceContext): Promise<AgencyPool | null> {
  const row = await ctx.db
    .selectFrom("workspaces as w")
    .innerJoin("agencies as a", "a.id", "w.agency_id")
    .select(["a.id", "a.name", "a.credits_per_month", "a.billing_anchor", "w.name as client", "w.credit_cap"])
    .where("w.id", "=", ctx.workspace.id)
    .executeTakeFirst();
  if (row === undefined) return null;
  return {
    agencyId: row.id,
    agencyName: row.name,
    clientName: row.client,
    allowance: Number(row.credits_per_month),
    billingAnchor: row.billing_anchor,
    cap: row.credit_cap === null ? null : Number(row.credit_cap),
  };
}

/** Raises the agency's counter for the period within its pool, or refuses for the whole agency. */
async function raisePool(ctx: ServiceContext, pool: AgencyPool, requested: number, now: Date): Promise<void> {
  const period = billingPeriod(pool.billingAnchor, now);
  await ctx.db
    .insertInto("agency_credit_usage")
    .values({ agency_id: pool.agencyId, period_start: period.start, used: 0, updated_at: now.toISOString() })
    .onConflict((oc) => oc.columns(["agency_id", "period_start"]).doNothing())
    .execute();
  const raised = await ctx.db
    .updateTable("agency_credit_usage")
    .set((eb) => ({ used: eb("used", "+", requested), updated_at: now.toISOString() }))
    .where("agency_id", "=", pool.agencyId)
    .where("period_start", "=", period.start)
    .where((eb) => eb(eb("used", "+", requested), "<=", pool.allowance))
    .executeTakeFirst();
  if (raised.numUpdatedRows > 0n) return;
  const row = await ctx.db
    .selectFrom("agency_credit_usage")
    .select("used")
    .where("agency_id", "=", pool.agencyId)
    .where("period_start", "=", period.start)
    .executeTakeFirst();
  const used = Number(row?.used ?? 0);
  throw new ApiError(
    "BILLING_LIMIT_EXCEEDED",
    `This needs ${count(requested, "credit")}, but ${Math.max(0, pool.allowance - used).toLocaleString("en-US")} of the ${count(pool.allowance, "credit")} ${pool.agencyName} shares among its clients are left until ${period.end}.`,
    {
      details: [
        {
          issue: "agency credit pool reached",
          agency: pool.agencyName,
          allowance: pool.allowance,
          used,
          requested,
          period_end: period.end,
        },
      ],
    },
  );
}

function capReached(pool: AgencyPool, cap: number, used: number, requested: number, periodEnd: string): ApiError {
  return new ApiError(
    "BILLING_LIMIT_EXCEEDED",
    `This needs ${count(requested, "credit")}, but ${pool.clientName} has ${Math.max(0, cap - used).toLocaleString("en-US")} of its cap of ${count(cap, "credit")} left; ${pool.agencyName} set the cap, and it renews on ${periodEnd}.`,
    {
      details: [
        {
          issue: "client credit cap reached",
          client: pool.clientName,
          agency: pool.agencyName,
          cap,
          used,
          requested,
          period_end: periodEnd,
        },
      ],
    },
  );
}

/**
 * Reserves credits against the monthly allowance, atomically: the period's counter is raised
 * only if the result stays within the allowance, so concurrent reservations can never overspend
 * (a row lock on PostgreSQL, the write lock on SQLite). A client of an agency has no allowance of
 * its own: it raises the agency's pooled counter within the pool and its own within its cap, in
 * the same transaction, so a reservation counts in both or in neither. Runs in the caller's transaction when there
 * is one, so that the work it pays for and the reservation commit together.
 *
 * @throws BILLING_LIMIT_EXCEEDED with details {allowance, used, requested}
 * @throws BILLING_UNAVAILABLE when the quota cannot be read
 */
export async function reserveCredits(
  ctx: ServiceContext,
  input: { charges: CreditCharge[]; reference: string },
): Promise<Reservation> {
  const requested = total(input.charges);
  const now = ctx.clock.now();
  const period = billingPeriod(ctx.workspace.billingAnchor, now);
  if (requested <= 0) return { reference: input.reference, credits: 0, periodStart: period.start };
  const allowance = ctx.workspace.plan.creditsPerMonth;
  try {
    return await inTransaction(ctx, async (tx) => {
      await boundWaits(tx);
      const key = { workspace_id: tx.workspace.id, period_start: period.start };
      const pool = await agencyPoolOf(tx);
      // A client of an agency draws on the agency's pool first (its row locked first, by every
      // client alike), then within its own cap; a refusal by either rolls both back.
      if (pool !== null) await raisePool(tx, pool, requested, now);
      await tx.db
        .insertInto("credit_usage")
        .values({ ...key, used: 0, updated_at: now.toISOString() })
        .onConflict((oc) => oc.columns(["workspace_id", "period_start"]).doNothing())
        .execute();
      const limit = pool === null ? allowance : pool.cap;
      let raise = tx.db
        .updateTable("credit_usage")
        .set((eb) => ({ used: eb("used", "+", requested), updated_at: now.toISOString() }))
        .where("workspace_id", "=", key.workspace_id)
        .where("period_start", "=", key.period_start);
      if (limit !== null) raise = raise.where((eb) => eb(eb("used", "+", requested), "<=", limit));
      const raised = await raise.executeTakeFirst();
      if (raised.numUpdatedRows === 0n) {
        const row = await tx.db
          .selectFrom("credit_usage")
          .select("used")
          .where("workspace_id", "=", key.workspace_id)
          .where("period_start", "=", key.period_start)
          .executeTakeFirst();
        const used = row?.used ?? 0;
        if (pool !== null && limit !== null) throw capReached(pool, limit, used, requested, period.end);
        throw new ApiError(
          "BILLING_LIMIT_EXCEEDED",
          `This needs ${count(requested, "credit")}, but ${Math.max(0, allowance - used).toLocaleString("en-US")} of the ${count(allowance, "credit")} of the ${tx.workspace.plan.name} plan are left until ${period.end}.`,
          {
            details: [
              { issue: "monthly credit allowance reached", allowance, used, requested, period_end: period.end },
            ],
          },
        );
      }
      await tx.db
        .insertInto("credit_entries")
        .values(
          input.charges
            .filter((charge) => charge.credits > 0)
            .map((charge) => ({
              id: newId("cre"),
              ...key,
              engine: charge.engine,
              credits: charge.credits,
              reference: input.reference,
              created_at: now.toISOString(),
            })),
        )
        .execute();
      afterCommit(tx.db, () => {
        for (const charge of input.charges)
          if (charge.credits > 0) creditsMetric.inc({ engine: charge.engine, movement: "reserved" }, charge.credits);
      });
      return { reference: input.reference, credits: requested, periodStart: period.start };
    });
  } catch (error) {
    unavailable(ctx, error);
  }
}

/**
 * Gives back credits of work that failed, never more than were reserved for `reference` per
 * engine, to the period they were reserved in.
 *
 * @returns the credits actually released.
 */
export async function releaseCredits(
  ctx: ServiceContext,
  input: { charges: CreditCharge[]; reference: string },
): Promise<number> {
  if (total(input.charges) <= 0) return 0;
  const now = ctx.clock.now().toISOString();
  return inTransaction(ctx, async (tx) => {
    const pool = await agencyPoolOf(tx);
    const held = await tx.db
      .selectFrom("credit_entries")
      .select(["engine", "period_start", (eb) => eb.fn.sum<number>("credits").as("credits")])
      .where("workspace_id", "=", tx.workspace.id)
      .where("reference", "=", input.reference)
      .groupBy(["engine", "period_start"])
      .execute();
    let released = 0;
    for (const charge of input.charges) {
      const entry = held.find((h) => h.engine === charge.engine);
      const amount = Math.min(charge.credits, Number(entry?.credits ?? 0));
      if (entry === undefined || amount <= 0) continue;
      await tx.db
        .insertInto("credit_entries")
        .values({
          id: newId("cre"),
          workspace_id: tx.workspace.id,
          period_start: entry.period_start,
          engine: charge.engine,
          credits: -amount,
          reference: input.reference,
          created_at: now,
        })
        .execute();
      afterCommit(tx.db, () => creditsMetric.inc({ engine: charge.engine, movement: "released" }, amount));
      await tx.db
        .updateTable("credit_usage")
        .set((eb) => ({
          used: sql<number>`case when ${eb.ref("used")} >= ${amount} then ${eb.ref("used")} - ${amount} else 0 end`,
          updated_at: now,
        }))
        .where("workspace_id", "=", tx.workspace.id)
        .where("period_start", "=", entry.period_start)
        .execute();
      if (pool !== null) {
        await tx.db
          .updateTable("agency_credit_usage")
          .set((eb) => ({
            used: sql<number>`case when ${eb.ref("used")} >= ${amount} then ${eb.ref("used")} - ${amount} else 0 end`,
            updated_at: now,
          }))
          .where("agency_id", "=", pool.agencyId)
          .where("period_start", "=", entry.period_start)
          .execute();
      }
      released += amount;
    }
    return released;
  });
}
