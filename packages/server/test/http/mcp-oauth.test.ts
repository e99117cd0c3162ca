import { createHash, randomBytes } from "node:crypto";
import {
  Client as ClientV2,
  type OAuthClientProvider as ProviderV2,
  StreamableHTTPClientTransport as TransportV2,
  UnauthorizedError as UnauthorizedV2,
} from "@modelcontextprotocol/client";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { beforeAll, expect, it } from "vitest";
import { prune } from "../../src/services/retention/prune.ts";
import { dashboard, invite, type Session, signUp, uniqueEmail } from "../helpers/dashboard.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";

const CALLBACK = "http://127.0.0.1:6276/oauth/callback";
const RETENTION = { jobsDays: 7, deliveriesDays: 30, answerTextDays: null };

/**
 * An MCP client's side of OAuth, in memory, as the SDK's own auth drives it: what a desktop
 * assistant keeps on disk. The authorization URL it is told to open is kept for the test to visit
 * as the member's browser would.
 */
class MemoryProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  opened: URL | null = null;

  get redirectUrl(): string {
    return CALLBACK;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Claude (test)",
      redirect_uris: [CALLBACK],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  state(): string {
    return "state-of-the-test";
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL) {
    this.opened = url;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }
}

type Content = { structuredContent?: Record<string, unknown>; isError?: boolean; content?: { text?: string }[] };

/** A tool call's refusal: the API's error, in the result's text. */
function errorOf(result: Content): { code: string; message: string } {
  expect(result.isError).toBe(true);
  return (JSON.parse(result.content?.[0]?.text ?? "{}") as { error: { code: string; message: string } }).error;
}

/** A raw MCP request with an access token, as any client would send it. */
function mcpWith(base: string, token: string): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
}

/**
 * OAuth sign-in for the MCP server (issue 31, ADR 0038), driven by the MCP SDK's own client auth
 * against a listening server: discovery from the 401, registration, PKCE, the member's consent,
 * the code's exchange, a call, a refresh when the access token has expired, revocation. And what
 * a token must never do: read another workspace, carry more than the member's role allows, outlive
 * its revocation.
 */
describeEachDialect("MCP over OAuth sign-in", (h: Harness) => {
  let base: string;
  let owner: Session;
  let projectId: string;
  let otherProjectId: string;
  let otherWorkspaceId: string;

  beforeAll(async () => {
    base = (await h.app.listen({ host: "127.0.0.1", port: 0 })).replace(/\/$/, "");
    owner = await signUp(h, { name: "Olivia Owner", workspace_name: "Acme" });
    const key = await h.key(owner.workspaceId);
    const project = await h.call("createProject", {
      key,
      body: { name: "Acme CRM", primary_domain: "acmecrm.com", prompts: ["best CRM for a small agency"] },
    });
    projectId = project.json().id;
    const other = await h.tenant("growth");
    const otherProject = await h.call("createProject", {
      key: other.key,
      body: { name: "Other Co", primary_domain: "other.example", prompts: ["best other thing"] },
    });
    otherProjectId = otherProject.json().id;
    otherWorkspaceId = other.workspace.id;
  });

  const rows = async (table: "oauth_connections" | "oauth_codes") =>
    (await h.deps.db.selectFrom(table).selectAll().execute()).length;

  /** The member's browser: follows /oauth/authorize to the consent page, consents, returns the code. */
  async function consent(
    session: Session,
    authorizeUrl: URL,
    choice: { workspace_id: string; scopes: string[] },
  ): Promise<{ status: number; body: Record<string, unknown>; code: string | null; back: URL | null }> {
    const start = await fetch(authorizeUrl, { redirect: "manual" });
    expect(start.status).toBe(302);
    const page = new URL(start.headers.get("location") ?? "", base);
    expect(page.pathname).toBe("/connect");
    const params = Object.fromEntries(page.searchParams);
    const preview = await fetch(`${base}/app/api/oauth/authorization?${page.searchParams}`, {
      headers: { cookie: session.cookie },
    });
    expect(preview.status, await preview.clone().text()).toBe(200);
    const decided = await fetch(`${base}/app/api/oauth/authorization`, {
      method: "POST",
      headers: { cookie: session.cookie, origin: base, "content-type": "application/json" },
      body: JSON.stringify({ ...params, decision: "allow", ...choice }),
    });
    const body = (await decided.json()) as Record<string, unknown>;
    if (decided.status !== 200) return { status: decided.status, body, code: null, back: null };
    const back = new URL(body.redirect_to as string);
    return { status: 200, body, code: back.searchParams.get("code"), back };
  }

  /** Connects with the provider, through the whole flow when it holds no token yet. */
  async function signInAndConnect(
    provider: MemoryProvider,
    session: Session,
    choice: { workspace_id: string; scopes: string[] },
  ): Promise<Client> {
    const url = new URL("/mcp", base);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    const client = new Client({ name: "sightline-oauth-test", version: "1.0.0" });
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.opened).not.toBeNull();
    const opened = provider.opened as URL;
    expect(opened.origin + opened.pathname).toBe(`${base}/oauth/authorize`);
    expect(opened.searchParams.get("code_challenge_method")).toBe("S256");
    expect(opened.searchParams.get("resource")).toBe(`${base}/mcp`);
    const consented = await consent(session, opened, choice);
    expect(consented.status, JSON.stringify(consented.body)).toBe(200);
    expect(consented.back?.searchParams.get("state")).toBe("state-of-the-test");
    expect(consented.back?.searchParams.get("iss")).toBe(base);
    await first.finishAuth(consented.code as string);
    const connected = new Client({ name: "sightline-oauth-test", version: "1.0.0" });
    await connected.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    return connected;
  }

  it("publishes the metadata a client discovers from the 401", async () => {
    const refused = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    const resource = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(resource).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    const server = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    expect(server).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
    });
  });

  it("signs in with the SDK's client auth, calls tools, refreshes, and is refused once revoked", async () => {
    const provider = new MemoryProvider();
    const client = await signInAndConnect(provider, owner, {
      workspace_id: owner.workspaceId,
      scopes: ["read", "analyze", "projects"],
    });
    const registered = await h.deps.db
      .selectFrom("oauth_clients")
      .selectAll()
      .where("id", "=", provider.client?.client_id ?? "")
      .executeTakeFirstOrThrow();
    expect(registered).toMatchObject({ name: "Claude (test)", auth_method: "none", secret_hash: null });
    const first = provider.saved as OAuthTokens;
    expect(first).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "read analyze projects" });
    expect(first.access_token).toMatch(/^sl_oat_/);
    expect(first.refresh_token).toMatch(/^sl_ort_/);

    // Stored hashed: neither token is anywhere in the database.
    const row = await h.deps.db.selectFrom("oauth_connections").selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(first.access_token);
    expect(JSON.stringify(row)).not.toContain(first.refresh_token);

    const brand = (await client.callTool({ name: "get_brand", arguments: { project_id: projectId } })) as Content;
    expect(brand.isError ?? false).toBe(false);
    expect(brand.structuredContent).toMatchObject({ id: projectId, name: "Acme CRM" });

    // A token for this workspace cannot read another's brand.
    const foreign = (await client.callTool({
      name: "get_brand",
      arguments: { project_id: otherProjectId },
    })) as Content;
    expect(errorOf(foreign).code).toBe("NOT_FOUND");

    // An hour later the access token has expired: the SDK refreshes it, and the call goes on.
    h.clock.advance(3_601_000);
    const after = (await client.callTool({ name: "list_brands", arguments: {} })) as Content;
    expect(after.isError ?? false).toBe(false);
    const second = provider.saved as OAuthTokens;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);

    // The old access token stopped working when it was replaced.
    expect((await mcpWith(base, first.access_token)).status).toBe(401);

    // Last use is recorded for Settings.
    await h.deps.lastUsed.flush(h.deps.db);
    const listed = await dashboard(h, "GET", `/app/api/workspaces/${owner.workspaceId}/connected-apps`, {
      cookie: owner.cookie,
    });
    expect(listed.statusCode).toBe(200);
    const [app] = listed.json().data;
    expect(app).toMatchObject({
      client: { name: "Claude (test)" },
      user: { id: owner.user.id },
      scopes: ["read", "analyze", "projects"],
      status: "active",
    });
    expect(app.last_used_at).not.toBeNull();

    // Revoked at the token endpoint (RFC 7009), by the client.
    const revoked = await fetch(`${base}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: second.access_token, client_id: provider.client?.client_id ?? "" }),
    });
    expect(revoked.status).toBe(200);
    const refused = await mcpWith(base, second.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`,
    );
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("revoked");
    await client.close();
  });

  it("disconnects from Settings: the token is refused at once, with WWW-Authenticate", async () => {
    const provider = new MemoryProvider();
    const client = await signInAndConnect(provider, owner, { workspace_id: owner.workspaceId, scopes: ["read"] });
    const listed = await dashboard(h, "GET", `/app/api/workspaces/${owner.workspaceId}/connected-apps`, {
      cookie: owner.cookie,
    });
    const tokens = provider.saved as OAuthTokens;
    expect((await mcpWith(base, tokens.access_token)).status).toBe(200);
    const id = listed.json().data.find((c: { status: string }) => c.status === "active").id as string;
    const removed = await dashboard(h, "DELETE", `/app/api/workspaces/${owner.workspaceId}/connected-apps/${id}`, {
      cookie: owner.cookie,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ id, status: "revoked" });
    const refused = await mcpWith(base, tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain(
      `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    // The SDK's client is refused too: it cannot get back in without the member.
    await expect(client.callTool({ name: "list_brands", arguments: {} })).rejects.toThrow();
    // The refresh token died with it.
    const refreshed = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token as string,
        client_id: provider.client?.client_id ?? "",
      }),
    });
    expect(refreshed.status).toBe(400);
    await client.close();
  });

  it("never grants more than the member's role: a viewer cannot grant analyze", async () => {
    const email = uniqueEmail("viewer");
    const token = await invite(h, owner, email, "viewer");
    const viewer = await signUp(h, { name: "Vic Viewer", email, invitation: token });
    expect(viewer.workspaceId).toBe(owner.workspaceId);
    const provider = new MemoryProvider();
    const client = new Client({ name: "sightline-oauth-test", version: "1.0.0" });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL("/mcp", base), { authProvider: provider })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const opened = provider.opened as URL;

    const preview = await fetch(`${base}/app/api/oauth/authorization?${opened.searchParams}`, {
      headers: { cookie: viewer.cookie },
    });
    const shown = (await preview.json()) as { workspaces: { id: string; role: string; grantable_scopes: string[] }[] };
    expect(shown.workspaces.find((w) => w.id === owner.workspaceId)).toMatchObject({
      role: "viewer",
      grantable_scopes: ["read"],
    });

    const connections = await rows("oauth_connections");
    const codes = await rows("oauth_codes");
    const refused = await consent(viewer, opened, { workspace_id: owner.workspaceId, scopes: ["read", "analyze"] });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: "FORBIDDEN" } });
    expect((refused.body.error as { message: string }).message).toContain("'analyze'");
    expect(await rows("oauth_codes")).toBe(codes);

    // What a viewer can grant works, and only reads.
    const granted = await consent(viewer, opened, { workspace_id: owner.workspaceId, scopes: ["read"] });
    expect(granted.status).toBe(200);
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", base), { authProvider: provider });
    await transport.finishAuth(granted.code as string);
    const connected = new Client({ name: "sightline-oauth-test", version: "1.0.0" });
    await connected.connect(new StreamableHTTPClientTransport(new URL("/mcp", base), { authProvider: provider }));
    expect(await rows("oauth_connections")).toBe(connections + 1);
    const run = (await connected.callTool({
      name: "run_analysis",
      arguments: { project_id: projectId, engines: ["chatgpt"], samples: 1 },
    })) as Content;
    expect(errorOf(run).code).toBe("INSUFFICIENT_SCOPE");

    // Nobody can consent for a workspace they are not a member of.
    const foreign = await consent(viewer, opened, { workspace_id: otherWorkspaceId, scopes: ["read"] });
    expect(foreign.status).toBe(404);
    await connected.close();

    // A member who leaves takes their connections' access with them: refused at /mcp, shown as such.
    const tokens = provider.saved as OAuthTokens;
    const removed = await dashboard(h, "DELETE", `/app/api/workspaces/${owner.workspaceId}/members/${viewer.user.id}`, {
      cookie: owner.cookie,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const gone = await mcpWith(base, tokens.access_token);
    expect(gone.status).toBe(401);
    expect(((await gone.json()) as { error: { message: string } }).error.message).toContain("revoked");
    const listed = await dashboard(h, "GET", `/app/api/workspaces/${owner.workspaceId}/connected-apps`, {
      cookie: owner.cookie,
    });
    expect(listed.json().data.find((c: { user: { id: string } }) => c.user.id === viewer.user.id)).toMatchObject({
      status: "revoked",
      scopes: [],
    });
    const refreshed = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token as string,
        client_id: provider.client?.client_id ?? "",
      }),
    });
    expect(await refreshed.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("signs in with the SDK's next client (the Inspector's), which checks the issuer and RFC 9207's iss", async () => {
    const provider = new MemoryProvider();
    const url = new URL("/mcp", base);
    const first = new TransportV2(url, { authProvider: provider as unknown as ProviderV2 });
    await expect(new ClientV2({ name: "sightline-oauth-v2", version: "1.0.0" }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedV2,
    );
    const consented = await consent(owner, provider.opened as URL, {
      workspace_id: owner.workspaceId,
      scopes: ["read"],
    });
    expect(consented.status).toBe(200);
    // The whole callback, so that the client checks its `iss` against the metadata's issuer: another
    // issuer's answer is refused before the code is spent; this server's is taken.
    const callback = consented.back?.searchParams as URLSearchParams;
    const forged = new URLSearchParams(callback);
    forged.set("iss", "https://mix-up.example");
    await expect(first.finishAuth(forged)).rejects.toThrow();
    await first.finishAuth(callback);
    const client = new ClientV2({ name: "sightline-oauth-v2", version: "1.0.0" });
    await client.connect(new TransportV2(url, { authProvider: provider as unknown as ProviderV2 }));
    const brand = (await client.callTool({ name: "get_brand", arguments: { project_id: projectId } })) as Content;
    expect(brand.isError ?? false).toBe(false);
    expect(brand.structuredContent).toMatchObject({ id: projectId });
    await client.close();
  });

  it("holds a connection to the member's role as it is now: made a viewer, it reads only", async () => {
    const email = uniqueEmail("member");
    const member = await signUp(h, { name: "Mo Member", email, invitation: await invite(h, owner, email, "member") });
    const provider = new MemoryProvider();
    const client = await signInAndConnect(provider, member, {
      workspace_id: owner.workspaceId,
      scopes: ["read", "analyze"],
    });
    const demoted = await dashboard(h, "PATCH", `/app/api/workspaces/${owner.workspaceId}/members/${member.user.id}`, {
      cookie: owner.cookie,
      body: { role: "viewer" },
    });
    expect(demoted.statusCode, demoted.body).toBe(200);
    h.clock.advance(h.deps.keyCache.ttlMs);
    const run = (await client.callTool({
      name: "run_analysis",
      arguments: { project_id: projectId, engines: ["chatgpt"], samples: 1 },
    })) as Content;
    expect(errorOf(run).code).toBe("INSUFFICIENT_SCOPE");
    const read = (await client.callTool({ name: "get_brand", arguments: { project_id: projectId } })) as Content;
    expect(read.isError ?? false).toBe(false);
    const listed = await dashboard(h, "GET", `/app/api/workspaces/${owner.workspaceId}/connected-apps`, {
      cookie: owner.cookie,
    });
    expect(listed.json().data.find((c: { user: { id: string } }) => c.user.id === member.user.id)).toMatchObject({
      status: "active",
      scopes: ["read"],
    });
    await client.close();
  });

  it("revokes a connection whose spent refresh token comes back (someone else holds it)", async () => {
    const provider = new MemoryProvider();
    const client = await signInAndConnect(provider, owner, { workspace_id: owner.workspaceId, scopes: ["read"] });
    await client.close();
    const clientId = provider.client?.client_id ?? "";
    const refreshWith = (token: string) =>
      fetch(`${base}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: clientId }),
      });
    const stolen = (provider.saved as OAuthTokens).refresh_token as string;
    const rotated = await refreshWith(stolen);
    expect(rotated.status).toBe(200);
    const fresh = (await rotated.json()) as { access_token: string; refresh_token: string };
    const replayed = await refreshWith(stolen);
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toMatchObject({ error: "invalid_grant" });
    // Both holders are out: the fresh tokens are refused too.
    expect((await mcpWith(base, fresh.access_token)).status).toBe(401);
    expect((await refreshWith(fresh.refresh_token)).status).toBe(400);
  });

  it("refuses what OAuth 2.1 forbids, in OAuth's own terms", async () => {
    const register = async (body: unknown) =>
      fetch(`${base}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (const bad of [
      { redirect_uris: [] },
      { redirect_uris: ["http://attacker.example/cb"] },
      { redirect_uris: ["javascript:alert(1)"] },
      { redirect_uris: ["https://ok.example/cb#frag"] },
      { redirect_uris: ["https://ok.example/cb"], token_endpoint_auth_method: "private_key_jwt" },
      { redirect_uris: ["https://ok.example/cb"], grant_types: ["client_credentials"] },
    ]) {
      const response = await register(bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect((await response.json()) as object, JSON.stringify(bad)).toHaveProperty("error");
    }
    // The Inspector's registration: a native app on a loopback port, no secret, an empty scope.
    const inspector = await register({
      client_name: "MCP Inspector",
      redirect_uris: ["http://127.0.0.1:6276/oauth/callback"],
      token_endpoint_auth_method: "none",
      application_type: "native",
      scope: "",
    });
    expect(inspector.status).toBe(201);
    const client = (await inspector.json()) as { client_id: string; redirect_uris: string[] };
    expect(client.redirect_uris).toEqual(["http://127.0.0.1:6276/oauth/callback"]);

    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const authorize = (params: Record<string, string>) =>
      fetch(`${base}/oauth/authorize?${new URLSearchParams(params)}`, { redirect: "manual" });
    const good = {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: "http://127.0.0.1:6276/oauth/callback",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s",
    };
    // No PKCE: the consent page says so; nothing goes back to a redirect URI from the authorize
    // address itself, or anyone's registered URI would be one redirect away (an open redirect).
    const noPkce = await authorize({ ...good, code_challenge: "" });
    expect(new URL(noPkce.headers.get("location") ?? "", base).pathname).toBe("/connect");
    const noPkceShown = await fetch(
      `${base}/app/api/oauth/authorization?${new URLSearchParams({ ...good, code_challenge: "" })}`,
      { headers: { cookie: owner.cookie } },
    );
    expect(noPkceShown.status).toBe(400);
    expect(((await noPkceShown.json()) as { error: { message: string } }).error.message).toContain("PKCE");
    const implicit = await authorize({ ...good, response_type: "token", redirect_uri: "https://attacker.example/cb" });
    expect(new URL(implicit.headers.get("location") ?? "", base).origin).toBe(base);
    // Another port of the same loopback redirect is the same native app (RFC 8252 §7.3).
    const otherPort = await authorize({ ...good, redirect_uri: "http://127.0.0.1:7000/oauth/callback" });
    expect(new URL(otherPort.headers.get("location") ?? "", base).pathname).toBe("/connect");
    // A redirect URI the client did not register is never redirected to: the page says so.
    const foreign = await authorize({ ...good, redirect_uri: "https://attacker.example/cb" });
    expect(new URL(foreign.headers.get("location") ?? "", base).pathname).toBe("/connect");
    const shown = await fetch(
      `${base}/app/api/oauth/authorization?${new URLSearchParams({ ...good, redirect_uri: "https://attacker.example/cb" })}`,
      { headers: { cookie: owner.cookie } },
    );
    expect(shown.status).toBe(400);
    expect(((await shown.json()) as { error: { message: string } }).error.message).toContain("redirect_uri");

    // A code is good once, with its verifier; a second use revokes what the first opened.
    const consented = await consent(owner, new URL(`${base}/oauth/authorize?${new URLSearchParams(good)}`), {
      workspace_id: owner.workspaceId,
      scopes: ["read"],
    });
    const exchange = (extra: Record<string, string>) =>
      fetch(`${base}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: consented.code as string,
          redirect_uri: good.redirect_uri,
          client_id: client.client_id,
          ...extra,
        }),
      });
    const noRedirect = await exchange({ code_verifier: verifier, redirect_uri: "" });
    expect(await noRedirect.json()).toMatchObject({ error: "invalid_grant" });
    const wrongVerifier = await exchange({ code_verifier: randomBytes(32).toString("base64url") });
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toMatchObject({ error: "invalid_grant" });
    const exchanged = await exchange({ code_verifier: verifier });
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get("cache-control")).toBe("no-store");
    const tokens = (await exchanged.json()) as { access_token: string };
    const again = await exchange({ code_verifier: verifier });
    expect(again.status).toBe(400);
    const connection = await h.deps.db
      .selectFrom("oauth_connections")
      .select("revoked_at")
      .where("client_id", "=", client.client_id)
      .executeTakeFirstOrThrow();
    expect(connection.revoked_at).not.toBeNull();

    // An access token opens /mcp only, never /v1.
    const v1 = await h.app.inject({
      method: "GET",
      url: "/v1/projects",
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(v1.statusCode).toBe(401);
    expect(v1.json().error.message).toContain("/mcp only");

    const unsupported = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "password", client_id: client.client_id }),
    });
    expect(unsupported.status).toBe(400);
    expect(await unsupported.json()).toMatchObject({ error: "unsupported_grant_type" });
    const unknownClient = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", client_id: "cli_nobody" }),
    });
    expect(unknownClient.status).toBe(401);
    expect(await unknownClient.json()).toMatchObject({ error: "invalid_client" });
    // Credentials that do not decode are a client that cannot be told, not a server error.
    const garbled = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from("%zz:x").toString("base64")}`,
      },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "x" }),
    });
    expect(garbled.status).toBe(401);
    expect(await garbled.json()).toMatchObject({ error: "invalid_client" });
    const noToken = await fetch(`${base}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: client.client_id }),
    });
    expect(noToken.status).toBe(400);
    expect(await noToken.json()).toMatchObject({ error: "invalid_request" });

    // A day after their ten minutes, codes are deleted by retention; until then a reuse is caught.
    const codes = await rows("oauth_codes");
    expect(codes).toBeGreaterThan(0);
    expect((await prune(h.deps, h.clock.now(), RETENTION)).oauthCodes).toBe(0);
    h.clock.advance(86_400_000 + 660_000);
    expect((await prune(h.deps, h.clock.now(), RETENTION)).oauthCodes).toBe(codes);
    expect(await rows("oauth_codes")).toBe(0);
  });
});
