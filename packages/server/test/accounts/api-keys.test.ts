import pino from "pino";
import { expect, it } from "vitest";
import { createRuntime } from "../../src/app/runtime.ts";
import { buildHttpApp } from "../../src/http/app.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "../../src/services/api-keys/api-keys.ts";
import { hashKey } from "../../src/services/api-keys/format.ts";
import { setWorkspacePlan } from "../../src/services/workspaces/workspaces.ts";
import { describeEachDialect } from "../helpers/harness.ts";

describeEachDialect("API keys", (h) => {
  it("creates sl_live_ keys with at least 128 random bits, stored only as a SHA-256 hash", async () => {
    const ws = await h.workspace();
    const created = await createApiKey(h.deps, {
      workspaceId: ws.id,
      name: "CI",
      scopes: ["projects", "read", "projects"],
    });
    expect(created.key).toMatch(/^sl_live_[0-9A-Za-z]{32}$/); // 32 × log2(62) ≈ 190 bits
    expect(created.scopes).toEqual(["read", "projects"]);
    expect(Date.parse(created.expires_at) - Date.parse(created.created_at)).toBe(365 * 24 * 3600 * 1000);

    const row = await h.deps.db
      .selectFrom("api_keys")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashKey(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key.slice(8));
    expect(row.start).toBe(created.key.slice(0, 12));

    const listed = await listApiKeys(h.deps, ws.id);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.key.slice(12));
    expect(listed[0]).not.toHaveProperty("key");
    expect(listed[0]).not.toHaveProperty("key_hash");
  });

  it("refuses keys with no scope, unknown scopes or no name, and keys for unknown workspaces", async () => {
    const ws = await h.workspace();
    await expect(createApiKey(h.deps, { workspaceId: ws.id, name: "x", scopes: [] })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
    await expect(createApiKey(h.deps, { workspaceId: ws.id, name: "x", scopes: ["admin"] })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
    await expect(createApiKey(h.deps, { workspaceId: ws.id, name: " ", scopes: ["read"] })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
    await expect(createApiKey(h.deps, { workspaceId: "ws_nope", name: "x", scopes: ["read"] })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await h.count("api_keys", ws.id)).toBe(0);
  });

  it("honours a revocation made by another process within the cache lifetime (5 s at most)", async () => {
    const t = await h.tenant();
    // A second runtime on the same database stands for another process, with its own cache.
    const other = await createRuntime({ database: h.database.config }, pino({ level: "silent" }), { clock: h.clock });
    try {
      expect((await h.call("listProjects", { key: t.key })).statusCode).toBe(200);
      const keyId = (await listApiKeys(h.deps, t.workspace.id))[0]?.id ?? "";
      await revokeApiKey(other.deps, { keyId });

      h.clock.advance(h.deps.keyCache.ttlMs);
      expect(h.deps.keyCache.ttlMs).toBeLessThanOrEqual(5_000);
      const res = await h.call("listProjects", { key: t.key });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.message).toContain("revoked");
    } finally {
      await other.close();
    }
  });

  it("sees a plan change made in this process at once", async () => {
    const t = await h.tenant("growth");
    expect((await h.call("listProjects", { key: t.key })).statusCode).toBe(200);
    await setWorkspacePlan(h.deps, { workspaceId: t.workspace.id, plan: "starter" });
    expect((await h.call("listProjects", { key: t.key })).json().error.code).toBe("PLAN_REQUIRED");
    await setWorkspacePlan(h.deps, { workspaceId: t.workspace.id, plan: "agency" });
    expect((await h.call("listProjects", { key: t.key })).statusCode).toBe(200);
  });

  it("records last use in batches, not with a write per request", async () => {
    const t = await h.tenant();
    await h.deps.lastUsed.flush(h.deps.db); // start from an empty batch
    for (let i = 0; i < 20; i++) {
      h.clock.advance(1_000);
      expect((await h.call("listProjects", { key: t.key })).statusCode).toBe(200);
    }
    const before = await listApiKeys(h.deps, t.workspace.id);
    expect(before[0]?.last_used_at).toBeNull();
    expect(h.deps.lastUsed.pendingCount).toBe(1);

    await h.deps.lastUsed.flush(h.deps.db);
    const after = await listApiKeys(h.deps, t.workspace.id);
    expect(after[0]?.last_used_at).toBe(h.clock.now().toISOString());
  });

  it("shows status active, revoked and expired in listings", async () => {
    const ws = await h.workspace();
    const a = await createApiKey(h.deps, { workspaceId: ws.id, name: "a", scopes: ["read"] });
    const b = await createApiKey(h.deps, { workspaceId: ws.id, name: "b", scopes: ["read"] });
    await revokeApiKey(h.deps, { keyId: b.id });
    const again = await revokeApiKey(h.deps, { keyId: b.id });
    expect(again.status).toBe("revoked");
    const statuses = Object.fromEntries((await listApiKeys(h.deps, ws.id)).map((k) => [k.name, k.status]));
    expect(statuses).toEqual({ a: "active", b: "revoked" });
    const start = h.clock.now();
    try {
      h.clock.set(Date.parse(a.expires_at));
      expect((await listApiKeys(h.deps, ws.id)).find((k) => k.id === a.id)?.status).toBe("expired");
    } finally {
      h.clock.set(start);
    }
  });

  it("never logs the key", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "trace" }, { write: (line: string) => lines.push(line) });
    const app = await buildHttpApp(h.deps, { publicUrl: "http://localhost", bodyLimitBytes: 1 << 20, logger });
    try {
      const t = await h.tenant();
      await app.inject({ method: "GET", url: "/v1/projects", headers: { authorization: t.authorization } });
      await app.inject({ method: "GET", url: "/v1/projects", headers: { authorization: `Bearer ${t.key}x` } });
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(lines.join("\n")).not.toContain(t.key.slice(8));
    } finally {
      await app.close();
    }
  });
});
