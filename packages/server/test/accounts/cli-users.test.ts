import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliInProcess } from "../helpers/cli-io.ts";
import { dashboard, ORIGIN, PASSWORD, signIn } from "../helpers/dashboard.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { useHarness } from "../helpers/harness.ts";

describe.each(DIALECTS)("sightline user [%s]", (dialect) => {
  let db: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    env = { DATABASE_URL: db.url, SIGHTLINE_PUBLIC_URL: ORIGIN };
  });
  afterAll(async () => db.drop());

  it("gives a CLI-made workspace an owner, who sets a password through the printed link", async () => {
    const ws = await runCliInProcess(
      ["workspace", "create", "--name", "From the CLI", "--plan", "growth", "--quiet"],
      env,
    );
    expect(ws.code, ws.stderr).toBe(0);
    const workspaceId = ws.stdout.trim();
    const created = await runCliInProcess(
      ["user", "create", "--workspace", workspaceId, "--email", "Owner@Example.com", "--role", "owner", "--json"],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const output = JSON.parse(created.stdout);
    expect(output).toMatchObject({ user: { email: "owner@example.com" }, role: "owner" });
    expect(output.password_link).toMatch(
      /^http:\/\/localhost:8080\/app\/api\/auth\/reset-password\/[\w-]+\?callbackURL=/,
    );

    const again = await runCliInProcess(["user", "reset-link", "--email", "owner@example.com"], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("/app/api/auth/reset-password/");

    const unknown = await runCliInProcess(["user", "reset-link", "--email", "nobody@example.com"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No account has the e-mail address nobody@example.com");
    const badRole = await runCliInProcess(
      ["user", "create", "--workspace", workspaceId, "--email", "x@example.com", "--role", "boss"],
      env,
    );
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain("--role must be one of viewer, member, admin, owner");
  });
});

describe.each(DIALECTS)("a CLI-made owner signs in [%s]", (dialect) => {
  const h = useHarness(dialect);

  it("after setting a password with the link the CLI printed", async () => {
    const ws = await runCliInProcess(["workspace", "create", "--name", "Agency", "--plan", "agency", "--quiet"], {
      DATABASE_URL: h.database.url,
    });
    const workspaceId = ws.stdout.trim();
    const created = await runCliInProcess(
      ["user", "create", "--workspace", workspaceId, "--email", "boss@example.com", "--role", "owner", "--json"],
      { DATABASE_URL: h.database.url, SIGHTLINE_PUBLIC_URL: ORIGIN },
    );
    const link = new URL(JSON.parse(created.stdout).password_link as string);
    // The link redirects to the dashboard's reset page with a token; the page posts it with the new password.
    const opened = await h.app.inject({ method: "GET", url: link.pathname + link.search });
    expect(opened.statusCode).toBe(302);
    const token = new URL(String(opened.headers.location)).searchParams.get("token");
    expect(token).toBeTruthy();
    const reset = await dashboard(h, "POST", "/app/api/auth/reset-password", {
      body: { token, newPassword: PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    // Used once.
    const replay = await dashboard(h, "POST", "/app/api/auth/reset-password", {
      body: { token, newPassword: "yet another one!" },
    });
    expect(replay.statusCode).toBe(400);
    const signedIn = await signIn(h, "boss@example.com", PASSWORD);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const cookie = String(signedIn.headers["set-cookie"]).split(";")[0] ?? "";
    const me = await dashboard(h, "GET", "/app/api/me", { cookie });
    expect(me.json().workspaces).toEqual([
      { id: workspaceId, name: "Agency", plan: "agency", role: "owner", agency: null },
    ]);
    // The installation counts as set up: nobody else signs up uninvited.
    expect((await dashboard(h, "GET", "/app/api/setup")).json().needs_setup).toBe(false);
  });
});
