import { expect, it } from "vitest";
import { V1_ROUTES } from "../../src/http/v1/routes.ts";
import { dashboard, invite, PASSWORD, signIn, signUp, uniqueEmail } from "../helpers/dashboard.ts";
import { describeEachDialect, routeUrl } from "../helpers/harness.ts";

describeEachDialect(
  "the dashboard's API",
  (h) => {
    it("signs a user up into a workspace they own, on the sign-up plan, and says who they are", async () => {
      const session = await signUp(h, { name: "Ada", workspace_name: "Acme agency" });
      const me = await dashboard(h, "GET", "/app/api/me", { cookie: session.cookie });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual({
        user: session.user,
        workspaces: [{ id: session.workspaceId, name: "Acme agency", plan: "agency", role: "owner", agency: null }],
      });
      const details = await dashboard(h, "GET", `/app/api/workspaces/${session.workspaceId}`, {
        cookie: session.cookie,
      });
      expect(details.json()).toMatchObject({
        plan: "agency",
        role: "owner",
        api_access: true,
        requests_per_minute: 1000,
      });
    });

    it("creates an API key in Settings that works on /v1 within its scopes, shown once, and revokes it", async () => {
      const session = await signUp(h);
      const base = `/app/api/workspaces/${session.workspaceId}/api-keys`;
      const created = await dashboard(h, "POST", base, {
        cookie: session.cookie,
        body: { name: "ci", scopes: ["read", "projects"] },
      });
      expect(created.statusCode, created.body).toBe(201);
      const key = created.json();
      expect(key.key).toMatch(/^sl_live_/);
      expect(Date.parse(key.expires_at) - Date.parse(key.created_at)).toBe(365 * 86_400_000);

      const listed = await dashboard(h, "GET", base, { cookie: session.cookie });
      expect(listed.json().data).toEqual([
        expect.objectContaining({ id: key.id, name: "ci", scopes: ["read", "projects"] }),
      ]);
      expect(listed.body).not.toContain(key.key);

      const api = (operationId: string, body?: unknown) =>
        h.call(operationId, { key: key.key, ...(body === undefined ? {} : { body }) });
      expect((await api("listProjects")).statusCode).toBe(200);
      const project = await api("createProject", { name: "Acme", primary_domain: "acme.com" });
      expect(project.statusCode).toBe(201);
      const analyze = await api("analyze", { project_id: project.json().id, engines: ["sandbox"] });
      expect(analyze.statusCode).toBe(403);
      expect(analyze.json().error.code).toBe("INSUFFICIENT_SCOPE");

      const revoked = await dashboard(h, "DELETE", `${base}/${key.id}`, { cookie: session.cookie });
      expect(revoked.json()).toMatchObject({ id: key.id, status: "revoked" });
      expect((await api("listProjects")).json().error.code).toBe("INVALID_API_KEY");
    });

    it("serves every /v1 route under the workspace, by the member's role", async () => {
      const owner = await signUp(h);
      const v1 = (path: string) => `/app/api/workspaces/${owner.workspaceId}/v1${path}`;
      const created = await dashboard(h, "POST", v1("/projects"), {
        cookie: owner.cookie,
        body: { name: "Acme", primary_domain: "acme.com", prompts: ["best crm"] },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as string;
      expect((await dashboard(h, "GET", v1(`/projects/${id}`), { cookie: owner.cookie })).json().name).toBe("Acme");
      const analysis = await dashboard(h, "POST", v1("/analyze"), {
        cookie: owner.cookie,
        body: { project_id: id, engines: ["sandbox"] },
      });
      expect(analysis.statusCode, analysis.body).toBe(202);
      // Started from the dashboard, and says so (the same route over /v1 says "api").
      expect(analysis.json().trigger).toBe("dashboard");
      const usage = await dashboard(h, "GET", v1("/usage"), { cookie: owner.cookie });
      expect(usage.json().credits.used).toBe(1);
      // The same route tree as the public API: every operation is mounted.
      for (const route of V1_ROUTES) {
        const url = `/app/api/workspaces/${owner.workspaceId}${routeUrl(route, { id: "none", delivery_id: "none" })}`;
        const res = await dashboard(h, route.method, url, {
          cookie: owner.cookie,
          ...(route.method === "POST" || route.method === "PATCH" ? { body: {} } : {}),
        });
        // Mounted: whatever the answer (the ids are made up), it is not "no such endpoint".
        if (res.statusCode === 404) expect(res.json().error.message, url).not.toMatch(/^No endpoint/);
        expect(res.statusCode, `${route.method} ${url}: ${res.body}`).toBeLessThan(500);
      }
    });

    it("invites a viewer, who reads the workspace and can change nothing, through any request", async () => {
      const owner = await signUp(h);
      const email = uniqueEmail("viewer");
      const token = await invite(h, owner, email, "viewer");
      const preview = await dashboard(h, "GET", `/app/api/invitations/${token}`);
      expect(preview.json()).toMatchObject({ email, role: "viewer", invited_by: "Test user", account_exists: false });

      const viewer = await signUp(h, { email, invitation: token });
      expect(viewer.workspaceId).toBe(owner.workspaceId);
      const ws = `/app/api/workspaces/${owner.workspaceId}`;
      expect((await dashboard(h, "GET", `${ws}/members`, { cookie: viewer.cookie })).json().data).toHaveLength(2);
      expect((await dashboard(h, "GET", `${ws}/v1/projects`, { cookie: viewer.cookie })).statusCode).toBe(200);
      const attempts = [
        ["POST", `${ws}/api-keys`, { name: "mine", scopes: ["read"] }],
        ["POST", `${ws}/v1/projects`, { name: "V", primary_domain: "v.com" }],
        ["POST", `${ws}/v1/webhooks`, { url: "https://93.184.216.34/x", events: ["project.created"] }],
        ["POST", `${ws}/invitations`, { email: uniqueEmail(), role: "viewer" }],
        ["PATCH", ws, { name: "Renamed" }],
        ["PATCH", `${ws}/members/${owner.user.id}`, { role: "viewer" }],
        ["DELETE", `${ws}/members/${owner.user.id}`, undefined],
      ] as const;
      for (const [method, url, body] of attempts) {
        const res = await dashboard(h, method, url, { cookie: viewer.cookie, ...(body === undefined ? {} : { body }) });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
        expect(res.json().error.code).toBe("FORBIDDEN");
      }
      expect(await h.count("api_keys", owner.workspaceId)).toBe(0);
      expect(await h.count("projects", owner.workspaceId)).toBe(0);
      // An invitation is used once.
      expect((await dashboard(h, "GET", `/app/api/invitations/${token}`)).statusCode).toBe(404);
    });

    it("keeps a workspace owned: the last owner can be neither demoted nor removed, and cannot leave", async () => {
      const owner = await signUp(h);
      const email = uniqueEmail("admin");
      const admin = await signUp(h, { email, invitation: await invite(h, owner, email, "admin") });
      const members = `/app/api/workspaces/${owner.workspaceId}/members`;
      const demote = await dashboard(h, "PATCH", `${members}/${owner.user.id}`, {
        cookie: owner.cookie,
        body: { role: "admin" },
      });
      expect(demote.statusCode).toBe(409);
      expect((await dashboard(h, "DELETE", `${members}/${owner.user.id}`, { cookie: owner.cookie })).statusCode).toBe(
        409,
      );
      // An admin manages members, not owners.
      const promote = await dashboard(h, "PATCH", `${members}/${admin.user.id}`, {
        cookie: admin.cookie,
        body: { role: "owner" },
      });
      expect(promote.statusCode).toBe(403);
      expect((await dashboard(h, "DELETE", `${members}/${owner.user.id}`, { cookie: admin.cookie })).statusCode).toBe(
        403,
      );
      // With a second owner, the first may leave.
      const made = await dashboard(h, "PATCH", `${members}/${admin.user.id}`, {
        cookie: owner.cookie,
        body: { role: "owner" },
      });
      expect(made.json().role).toBe("owner");
      expect((await dashboard(h, "DELETE", `${members}/${owner.user.id}`, { cookie: owner.cookie })).statusCode).toBe(
        200,
      );
      const me = (await dashboard(h, "GET", "/app/api/me", { cookie: owner.cookie })).json();
      expect(me.workspaces.map((w: { id: string }) => w.id)).not.toContain(owner.workspaceId);
      expect((await dashboard(h, "GET", members, { cookie: owner.cookie })).statusCode).toBe(404);
    });

    it("renames, and deletes a workspace with everything it holds once its name is typed", async () => {
      const owner = await signUp(h, { workspace_name: "Doomed" });
      const ws = `/app/api/workspaces/${owner.workspaceId}`;
      const key = (
        await dashboard(h, "POST", `${ws}/api-keys`, { cookie: owner.cookie, body: { name: "k", scopes: ["read"] } })
      ).json();
      const project = await dashboard(h, "POST", `${ws}/v1/projects`, {
        cookie: owner.cookie,
        body: { name: "P", primary_domain: "p.com" },
      });
      // What else a workspace holds: an engine connected in Settings, a re-measure of a brand.
      const engine = await dashboard(h, "PATCH", `${ws}/engines/chatgpt`, {
        cookie: owner.cookie,
        body: { api_key: "sk-workspace-key-1234" },
      });
      expect(engine.statusCode, engine.body).toBe(200);
      const remeasure = await dashboard(h, "POST", `${ws}/v1/projects/${project.json().id}/remeasure`, {
        cookie: owner.cookie,
        body: {},
      });
      expect(remeasure.statusCode, remeasure.body).toBeLessThan(300);
      expect(
        (await dashboard(h, "PATCH", ws, { cookie: owner.cookie, body: { name: "Doomed too" } })).json().name,
      ).toBe("Doomed too");
      const wrong = await dashboard(h, "DELETE", ws, { cookie: owner.cookie, body: { confirm_name: "Doomed" } });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.details[0].field).toBe("confirm_name");
      expect(await h.count("projects", owner.workspaceId)).toBe(1);
      const deleted = await dashboard(h, "DELETE", ws, { cookie: owner.cookie, body: { confirm_name: "Doomed too" } });
      expect(deleted.json()).toEqual({ id: owner.workspaceId, deleted: true });
      expect(await h.count("workspaces", owner.workspaceId)).toBe(0);
      expect(await h.count("projects", owner.workspaceId)).toBe(0);
      expect(await h.count("workspace_engines", owner.workspaceId)).toBe(0);
      expect(await h.count("remeasures", owner.workspaceId)).toBe(0);
      expect((await h.call("listProjects", { key: key.key })).json().error.code).toBe("INVALID_API_KEY");
      expect((await dashboard(h, "GET", ws, { cookie: owner.cookie })).statusCode).toBe(404);
    });

    it("changes a password (other sessions end) and signs out everywhere", async () => {
      const email = uniqueEmail();
      const first = await signUp(h, { email });
      const second = await signIn(h, email, PASSWORD);
      expect(second.statusCode, second.body).toBe(200);
      const changed = await dashboard(h, "POST", "/app/api/auth/change-password", {
        cookie: first.cookie,
        body: { currentPassword: PASSWORD, newPassword: "another long password", revokeOtherSessions: true },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const secondCookie = (second.headers["set-cookie"] as string[] | string).toString().split(";")[0] ?? "";
      expect((await dashboard(h, "GET", "/app/api/me", { cookie: secondCookie })).statusCode).toBe(401);
      expect((await signIn(h, email, PASSWORD)).statusCode).toBe(401);
      const fresh = await signIn(h, email, "another long password");
      expect(fresh.statusCode).toBe(200);
      const cookie = (fresh.headers["set-cookie"] as string[] | string).toString().split(";")[0] ?? "";
      expect((await dashboard(h, "POST", "/app/api/auth/revoke-sessions", { cookie, body: {} })).statusCode).toBe(200);
      expect((await dashboard(h, "GET", "/app/api/me", { cookie })).statusCode).toBe(401);
    });
  },
  { config: { accounts: { openSignup: true } } },
);
