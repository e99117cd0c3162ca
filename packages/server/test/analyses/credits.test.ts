import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/errors/api-error.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { releaseCredits, reserveCredits } from "../../src/services/usage/credits.ts";
import { billingPeriod } from "../../src/services/usage/period.ts";
import { getUsage } from "../../src/services/usage/usage.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";

async function freeWorkspace(h: Harness): Promise<ServiceContext> {
  const ws = await h.workspace("free"); // 100 credits a month
  return workspaceContext(h.deps, ws.id);
}

async function ledger(h: Harness, workspaceId: string) {
  const entries = await h.deps.db
    .selectFrom("credit_entries")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .execute();
  const usage = await h.deps.db
    .selectFrom("credit_usage")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .execute();
  return { entries: entries.length, used: usage.reduce((sum, row) => sum + Number(row.used), 0) };
}

describeEachDialect("credits", (h) => {
  it("reserves within the allowance and reports it by engine", async () => {
    const ctx = await freeWorkspace(h);
    const reservation = await reserveCredits(ctx, {
      charges: [
        { engine: "sandbox", credits: 30 },
        { engine: "chatgpt", credits: 10 },
      ],
      reference: "ana_one",
    });
    expect(reservation.credits).toBe(40);
    const usage = await getUsage(ctx, null);
    expect(usage.credits).toEqual({
      allowance: 100,
      used: 40,
      remaining: 60,
      by_engine: { chatgpt: 10, sandbox: 30 },
      judge: 0,
    });
  });

  it("refuses past the allowance with BILLING_LIMIT_EXCEEDED and its details, writing nothing", async () => {
    const ctx = await freeWorkspace(h);
    await reserveCredits(ctx, { charges: [{ engine: "sandbox", credits: 95 }], reference: "ana_a" });
    const before = await ledger(h, ctx.workspace.id);
    const error = await reserveCredits(ctx, { charges: [{ engine: "sandbox", credits: 6 }], reference: "ana_b" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "BILLING_LIMIT_EXCEEDED", status: 403 });
    expect((error as ApiError).details?.[0]).toMatchObject({ allowance: 100, used: 95, requested: 6 });
    expect(await ledger(h, ctx.workspace.id)).toEqual(before);
    // The last five still fit.
    await reserveCredits(ctx, { charges: [{ engine: "sandbox", credits: 5 }], reference: "ana_c" });
    expect((await getUsage(ctx, null)).credits.remaining).toBe(0);
  });

  it("never grants more than the allowance to concurrent reservations", async () => {
    const ctx = await freeWorkspace(h);
    const attempts = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        reserveCredits(ctx, { charges: [{ engine: "sandbox", credits: 3 }], reference: `ana_${i}` }),
      ),
    );
    const granted = attempts.filter((a) => a.status === "fulfilled").length;
    const refused = attempts.filter((a) => a.status === "rejected");
    expect(granted).toBe(33); // 33 × 3 = 99 ≤ 100 < 34 × 3
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "BILLING_LIMIT_EXCEEDED" });
    expect((await ledger(h, ctx.workspace.id)).used).toBe(99);
  });

  it("releases what failed work reserved, never more", async () => {
    const ctx = await freeWorkspace(h);
    await reserveCredits(ctx, {
      charges: [
        { engine: "sandbox", credits: 8 },
        { engine: "chatgpt", credits: 2 },
      ],
      reference: "ana_partial",
    });
    expect(await releaseCredits(ctx, { charges: [{ engine: "chatgpt", credits: 2 }], reference: "ana_partial" })).toBe(
      2,
    );
    expect(await releaseCredits(ctx, { charges: [{ engine: "chatgpt", credits: 2 }], reference: "ana_partial" })).toBe(
      0,
    );
    expect(await releaseCredits(ctx, { charges: [{ engine: "sandbox", credits: 50 }], reference: "ana_partial" })).toBe(
      8,
    );
    expect(await releaseCredits(ctx, { charges: [{ engine: "sandbox", credits: 1 }], reference: "ana_unknown" })).toBe(
      0,
    );
    const usage = await getUsage(ctx, null);
    expect(usage.credits).toMatchObject({ used: 0, remaining: 100, by_engine: {} });
  });

  it("starts each billing period afresh, on the workspace's anchor day", async () => {
    const ctx = await freeWorkspace(h);
    const start = h.clock.now();
    try {
      await reserveCredits(ctx, { charges: [{ engine: "sandbox", credits: 100 }], reference: "ana_month1" });
      await expect(
        reserveCredits(ctx, { charges: [{ engine: "sandbox", credits: 1 }], reference: "ana_more" }),
      ).rejects.toMatchObject({ code: "BILLING_LIMIT_EXCEEDED" });
      const period = billingPeriod(ctx.workspace.billingAnchor, h.clock.now());
      h.clock.set(new Date(period.end));
      await reserveCredits(ctx, { charges: [{ engine: "sandbox", credits: 100 }], reference: "ana_month2" });
      const usage = await getUsage(ctx, null);
      expect(usage.period.start).toBe(period.end);
      expect(usage.credits.used).toBe(100);
    } finally {
      h.clock.set(start);
    }
  });

  it("answers BILLING_UNAVAILABLE when the quota store cannot be used, writes nothing, and recovers without a restart", async () => {
    const ctx = await freeWorkspace(h);
    await reserveCredits(ctx, { charges: [{ engine: "sandbox", credits: 1 }], reference: "ana_before" });
    const before = await ledger(h, ctx.workspace.id);
    const blocker = await holdQuotaStore(h);
    try {
      const error = await reserveCredits(ctx, {
        charges: [{ engine: "sandbox", credits: 1 }],
        reference: "ana_during",
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "BILLING_UNAVAILABLE", status: 503 });
      expect((error as ApiError).retryAfter).toBeGreaterThan(0);
    } finally {
      await blocker.release();
    }
    expect(await ledger(h, ctx.workspace.id)).toEqual(before);
    await reserveCredits(ctx, { charges: [{ engine: "sandbox", credits: 1 }], reference: "ana_after" });
    expect((await ledger(h, ctx.workspace.id)).used).toBe(2);
  }, 20_000);
});

/**
 * A real fault, from outside the service: another connection takes the quota table's lock and
 * keeps it. On PostgreSQL the reservation gives up on lock_timeout; on SQLite on busy_timeout.
 */
async function holdQuotaStore(h: Harness): Promise<{ release(): Promise<void> }> {
  const config = h.database.config;
  if (config.dialect === "postgres") {
    const client = new pg.Client({ connectionString: config.url });
    await client.connect();
    await client.query("begin");
    await client.query("lock table credit_usage in access exclusive mode");
    return {
      release: async () => {
        await client.query("rollback");
        await client.end();
      },
    };
  }
  const other = new BetterSqlite3(config.path);
  other.pragma("busy_timeout = 0");
  other.prepare("begin immediate").run();
  return {
    release: async () => {
      other.prepare("rollback").run();
      other.close();
    },
  };
}

describe("billing periods", () => {
  const at = (iso: string) => new Date(iso);
  it("run from the anchor's day of month to the same day the next month", () => {
    expect(billingPeriod("2026-03-15", at("2026-11-21T12:00:00Z"))).toEqual({
      start: "2026-11-15T00:00:00.000Z",
      end: "2026-12-15T00:00:00.000Z",
    });
    expect(billingPeriod("2026-03-15", at("2026-11-14T23:59:59Z"))).toEqual({
      start: "2026-10-15T00:00:00.000Z",
      end: "2026-11-15T00:00:00.000Z",
    });
    expect(billingPeriod("2026-03-15", at("2026-11-15T00:00:00Z")).start).toBe("2026-11-15T00:00:00.000Z");
  });

  it("clamp an anchor on the 29th to 31st to the end of shorter months", () => {
    expect(billingPeriod("2026-01-31", at("2027-02-28T10:00:00Z"))).toEqual({
      start: "2027-02-28T00:00:00.000Z",
      end: "2027-03-31T00:00:00.000Z",
    });
    expect(billingPeriod("2026-01-31", at("2028-02-29T10:00:00Z")).start).toBe("2028-02-29T00:00:00.000Z");
    expect(billingPeriod("2026-01-31", at("2027-04-15T00:00:00Z"))).toEqual({
      start: "2027-03-31T00:00:00.000Z",
      end: "2027-04-30T00:00:00.000Z",
    });
  });

  it("cross the year boundary", () => {
    expect(billingPeriod("2026-05-20", at("2027-01-05T00:00:00Z"))).toEqual({
      start: "2026-12-20T00:00:00.000Z",
      end: "2027-01-20T00:00:00.000Z",
    });
  });
});
