import { expect, it } from "vitest";
import { dashboard, invite, ORIGIN, PASSWORD, signIn, signUp, uniqueEmail } from "../helpers/dashboard.ts";
import { describeEachDialect, randomAddress } from "../helpers/harness.ts";

describeEachDialect(
  "the dashboard's API refuses",
  (h) => {
    it("to show a session token to any script: none in sign-in or session lists", async () => {
      const email = uniqueEmail();
      await signUp(h, { email });
      const signedIn = await signIn(h, email, PASSWORD);
      const cookie = String(signedIn.headers["set-cookie"]).split(";")[0] ?? "";
      const token = decodeURIComponent(cookie.split("=")[1] ?? "").split(".")[0] ?? "";
      expect(token.length).toBeGreaterThan(10);
      const answers = [
        signedIn,
        await dashboard(h, "GET", "/app/api/auth/list-sessions", { cookie }),
        await dashboard(h, "GET", "/app/api/auth/get-session", { cookie }),
      ];
      expect(answers[1]?.json()).toHaveLength(2);
      for (const answer of answers) {
        expect(answer.statusCode).toBe(200);
        expect(answer.body).not.toContain(token);
        expect(answer.body).not.toContain('"token"');
      }
    });

    it("a cross-site form post, a request without an origin, and one the browser marks cross-site", async () => {
      const session = await signUp(h);
      const url = `/app/api/workspaces/${session.workspaceId}/v1/projects`;
      const attacks = [
        // A form on another site posting to us with the victim's cookie.
        h.app.inject({
          method: "POST",
          url,
          headers: {
            cookie: session.cookie,
            origin: "https://evil.example",
            "content-type": "application/x-www-form-urlencoded",
          },
          payload: "name=Evil&primary_domain=evil.example",
        }),
        dashboard(h, "POST", url, {
          cookie: session.cookie,
          origin: null,
          body: { name: "E", primary_domain: "e.com" },
        }),
        dashboard(h, "POST", url, {
          cookie: session.cookie,
          headers: { "sec-fetch-site": "cross-site" },
          body: { name: "E", primary_domain: "e.com" },
        }),
        dashboard(h, "POST", `/app/api/workspaces/${session.workspaceId}/api-keys`, {
          cookie: session.cookie,
          origin: "https://evil.example",
          body: { name: "stolen", scopes: ["read"] },
        }),
        dashboard(h, "POST", "/app/api/auth/revoke-sessions", {
          cookie: session.cookie,
          origin: "https://evil.example",
          body: {},
        }),
      ];
      for (const res of await Promise.all(attacks)) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().error.code).toBe("FORBIDDEN");
      }
      expect(await h.count("projects", session.workspaceId)).toBe(0);
      expect(await h.count("api_keys", session.workspaceId)).toBe(0);
      expect((await dashboard(h, "GET", "/app/api/me", { cookie: session.cookie })).statusCode).toBe(200);
    });

    it("another workspace's resources: NOT_FOUND, as if they did not exist", async () => {
      const a = await signUp(h);
      const b = await signUp(h);
      const bProject = await dashboard(h, "POST", `/app/api/workspaces/${b.workspaceId}/v1/projects`, {
        cookie: b.cookie,
        body: { name: "B's brand", primary_domain: "b.example.com" },
      });
      const bKey = await dashboard(h, "POST", `/app/api/workspaces/${b.workspaceId}/api-keys`, {
        cookie: b.cookie,
        body: { name: "b", scopes: ["read"] },
      });
      const projectId = bProject.json().id as string;
      for (const [method, url] of [
        ["GET", `/app/api/workspaces/${b.workspaceId}`],
        ["GET", `/app/api/workspaces/${b.workspaceId}/members`],
        ["GET", `/app/api/workspaces/${b.workspaceId}/api-keys`],
        ["GET", `/app/api/workspaces/${b.workspaceId}/v1/projects`],
        ["GET", `/app/api/workspaces/${b.workspaceId}/v1/projects/${projectId}`],
        // B's ids through A's own workspace.
        ["GET", `/app/api/workspaces/${a.workspaceId}/v1/projects/${projectId}`],
        ["DELETE", `/app/api/workspaces/${a.workspaceId}/api-keys/${bKey.json().id}`],
      ] as const) {
        const res = await dashboard(h, method, url, { cookie: a.cookie });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
        expect(res.json().error.code).toBe("NOT_FOUND");
      }
      const keys = await dashboard(h, "GET", `/app/api/workspaces/${b.workspaceId}/api-keys`, { cookie: b.cookie });
      expect(keys.json().data[0].status).toBe("active");
    });

    it("requests without a session: UNAUTHENTICATED", async () => {
      const session = await signUp(h);
      for (const url of [
        "/app/api/me",
        `/app/api/workspaces/${session.workspaceId}`,
        `/app/api/workspaces/${session.workspaceId}/v1/projects`,
      ]) {
        const res = await dashboard(h, "GET", url);
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe("UNAUTHENTICATED");
        const forged = await dashboard(h, "GET", url, { cookie: "sightline.session_token=forged.signature" });
        expect(forged.statusCode).toBe(401);
      }
    });

    it("the 11th wrong password in a minute, per account and per address", async () => {
      const email = uniqueEmail();
      await signUp(h, { email });
      // One account, from eleven addresses.
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++)
        statuses.push((await signIn(h, email, "wrong password!", randomAddress())).statusCode);
      expect(statuses).toEqual([...Array(10).fill(401), 429]);
      // Even the right password, for that account, until the minute is over.
      expect((await signIn(h, email, PASSWORD, randomAddress())).statusCode).toBe(429);
      // One address, against eleven accounts.
      const address = randomAddress();
      const fromOne: number[] = [];
      for (let i = 0; i < 11; i++)
        fromOne.push((await signIn(h, uniqueEmail(), "wrong password!", address)).statusCode);
      expect(fromOne.slice(0, 10).every((status) => status === 401)).toBe(true);
      expect(fromOne[10]).toBe(429);
    });

    it("a session or an invitation past its expiry", async () => {
      const owner = await signUp(h);
      const email = uniqueEmail();
      const token = await invite(h, owner, email, "member");
      h.clock.advance(8 * 86_400_000);
      expect((await dashboard(h, "GET", `/app/api/invitations/${token}`)).statusCode).toBe(404);
      const late = await dashboard(h, "POST", "/app/api/signup", {
        body: { name: "Late", email, password: PASSWORD, invitation: token },
      });
      expect(late.statusCode).toBe(404);
      // Sessions expire on the database's clock; an expired one is refused on both dialects.
      await h.deps.db
        .updateTable("sessions")
        .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
        .where("user_id", "=", owner.user.id)
        .execute();
      expect((await dashboard(h, "GET", "/app/api/me", { cookie: owner.cookie })).statusCode).toBe(401);
    });

    it("an invitation accepted by another address than the one invited", async () => {
      const owner = await signUp(h);
      const token = await invite(h, owner, uniqueEmail("invited"), "admin");
      const other = await signUp(h);
      const res = await dashboard(h, "POST", `/app/api/invitations/${token}/accept`, {
        cookie: other.cookie,
        body: {},
      });
      expect(res.statusCode).toBe(403);
      const signup = await dashboard(h, "POST", "/app/api/signup", {
        body: { name: "Other", email: uniqueEmail("other"), password: PASSWORD, invitation: token },
      });
      expect(signup.statusCode).toBe(400);
      expect(await h.count("workspaces")).toBeGreaterThan(0);
      const members = await dashboard(h, "GET", `/app/api/workspaces/${owner.workspaceId}/members`, {
        cookie: owner.cookie,
      });
      expect(members.json().data).toHaveLength(1);
    });

    it("sign-up through the authentication library's own route", async () => {
      const res = await dashboard(h, "POST", "/app/api/auth/sign-up/email", {
        body: { name: "Sneaky", email: uniqueEmail(), password: PASSWORD },
      });
      expect(res.statusCode).toBe(403);
      expect(await h.deps.db.selectFrom("users").select("id").where("name", "=", "Sneaky").execute()).toHaveLength(0);
      expect(ORIGIN).toBe("http://localhost:8080");
    });
  },
  { config: { accounts: { openSignup: true } } },
);

describeEachDialect("a new installation", (h) => {
  it("lets the first account create the first workspace, and nobody else sign up uninvited", async () => {
    expect((await dashboard(h, "GET", "/app/api/setup")).json()).toEqual({
      needs_setup: true,
      open_signup: false,
      email_delivery: false,
    });
    const first = await signUp(h, { workspace_name: "First" });
    expect((await dashboard(h, "GET", "/app/api/me", { cookie: first.cookie })).json().workspaces).toEqual([
      { id: first.workspaceId, name: "First", plan: "agency", role: "owner", agency: null },
    ]);
    expect((await dashboard(h, "GET", "/app/api/setup")).json().needs_setup).toBe(false);
    const second = await dashboard(h, "POST", "/app/api/signup", {
      body: { name: "Second", email: uniqueEmail(), password: PASSWORD },
    });
    expect(second.statusCode).toBe(403);
    expect(second.json().error.message).toContain("invitation");
    expect(await h.deps.db.selectFrom("users").select("id").execute()).toHaveLength(1);
  });
});
