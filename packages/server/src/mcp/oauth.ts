import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AddressLimit } from "../http/address-limits.ts";
import { SCOPES } from "../services/api-keys/scopes.ts";
import type { Deps } from "../services/context.ts";
import { authenticateClient, clientCredentials, registerClient } from "../services/oauth/clients.ts";
import { OAuthFailure } from "../services/oauth/failure.ts";
import { serverBase as baseFor, exchangeCode, refresh, revokeToken } from "../services/oauth/grants.ts";
import { AuthorizationQuery } from "../services/oauth/schemas.ts";

/** The authorization request's parameters Sightline reads; the consent page receives these only. */
const AUTHORIZATION_PARAMS = Object.keys(AuthorizationQuery.properties);

/** Where the dashboard asks the member to consent (packages/web, routes/connect.tsx). */
const CONSENT_PAGE = "/connect";

function serverBase(deps: Deps, request: FastifyRequest): string {
  return baseFor(deps, request.host);
}

/** Where a client learns how to sign in, named in `WWW-Authenticate` on a 401 from /mcp (RFC 9728). */
export function resourceMetadataUrl(deps: Deps, request: FastifyRequest): string {
  return `${serverBase(deps, request)}/.well-known/oauth-protected-resource/mcp`;
}

function protectedResource(base: string) {
  return {
    resource: `${base}/mcp`,
    authorization_servers: [base],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Sightline",
    resource_documentation: `${base}/docs`,
  };
}

function authorizationServer(base: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    revocation_endpoint: `${base}/oauth/revoke`,
    scopes_supported: [...SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
    revocation_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/docs`,
  };
}

/** Anyone's page may read the metadata and call the token endpoints (browser-based MCP clients). */
function cors(reply: FastifyReply): FastifyReply {
  return reply
    .header("access-control-allow-origin", "*")
    .header("access-control-allow-methods", "GET, POST, OPTIONS")
    .header("access-control-allow-headers", "authorization, content-type, mcp-protocol-version")
    .header("access-control-max-age", "600");
}

function oauthError(reply: FastifyReply, failure: OAuthFailure): FastifyReply {
  if (failure.status === 401) reply.header("www-authenticate", 'Basic realm="Sightline"');
  return cors(reply)
    .code(failure.status)
    .header("cache-control", "no-store")
    .type("application/json; charset=utf-8")
    .send({ error: failure.error, error_description: failure.description });
}

/** A form (RFC 6749 §3.2) or JSON body, as strings; the last value of a repeated field wins. */
function formOf(body: unknown): Record<string, string> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return {};
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === "string") form[name] = value;
  return form;
}

/**
 * OAuth 2.1 sign-in for the MCP server (ADR 0038): the metadata of RFC 9728 and RFC 8414, dynamic
 * client registration (RFC 7591), the authorization endpoint (which hands the member to the
 * dashboard's consent page), the token endpoint (code with PKCE, refresh with rotation) and
 * revocation (RFC 7009). The consent itself is a dashboard route (http/dashboard/routes/oauth.ts).
 */
export function registerOAuthRoutes(app: FastifyInstance, deps: Deps): void {
  // Registrations are counted per address: open registration must not fill the database. Token
  // and revocation requests per client, since a remote connector's vendor sends every member's
  // from the same few addresses; codes and tokens are 238 random bits, nothing to guess at.
  const registrations = new AddressLimit(deps.counters, "oauth-register", 20, 60);
  const tokenRequests = deps.counters.counter("oauth-token", 60);
  const TOKEN_REQUESTS_PER_CLIENT = 120;
  const waitFor = async (request: FastifyRequest): Promise<number> => {
    if (request.url.startsWith("/oauth/register")) return registrations.wait(request);
    const form = formOf(request.body);
    let client = form.client_id;
    try {
      client = clientCredentials(request.headers.authorization, form).clientId;
    } catch {
      // Malformed credentials: counted by address, and refused below.
    }
    const count = await tokenRequests.hit(client === undefined || client === "" ? `address ${request.ip}` : client);
    return count.count <= TOKEN_REQUESTS_PER_CLIENT ? 0 : Math.max(1, Math.ceil(count.msBeforeReset / 1000));
  };
  const limited = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const wait = await waitFor(request);
    if (wait === 0) return false;
    reply.header("retry-after", String(wait));
    oauthError(reply, new OAuthFailure("temporarily_unavailable", `Too many requests; retry in ${wait} s.`, 429));
    return true;
  };

  app.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 16 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    const metadata = (path: string, build: (base: string) => object, suffix: (base: string) => string) => {
      for (const url of [path, `${path}/*`]) {
        scope.get(url, async (request, reply) => {
          const base = serverBase(deps, request);
          const rest = (request.params as { "*"?: string })["*"];
          // A client inserts the path of what it looks up after the well-known prefix (RFC 8414 §3.1).
          if (rest !== undefined && `/${rest.replace(/\/$/, "")}` !== suffix(base))
            return cors(reply).code(404).send({ error: "not_found", error_description: "No metadata here." });
          return cors(reply).header("cache-control", "public, max-age=300").header("vary", "Host").send(build(base));
        });
        scope.options(url, async (_request, reply) => cors(reply).code(204).send());
      }
    };
    const pathOf = (base: string) => new URL(base).pathname.replace(/\/$/, "");
    metadata("/.well-known/oauth-protected-resource", protectedResource, (base) => `${pathOf(base)}/mcp`);
    metadata("/.well-known/oauth-authorization-server", authorizationServer, pathOf);

    // The member's browser arrives here from the client, and goes on to the consent page, behind
    // sign-in, which checks the request and shows what is wrong with it. Nothing is redirected back
    // from here: an error answered to the redirect URI at once would make this address an open
    // redirect to whatever URI anyone registered (RFC 9700 §4.11.2).
    scope.get("/oauth/authorize", async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const params = new URLSearchParams();
      for (const name of AUTHORIZATION_PARAMS) {
        const value = query[name];
        if (typeof value === "string") params.set(name, value);
      }
      return reply
        .header("cache-control", "no-store")
        .redirect(`${serverBase(deps, request)}${CONSENT_PAGE}?${params}`);
    });

    const post = (url: string, handle: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => {
      scope.options(url, async (_request, reply) => cors(reply).code(204).send());
      scope.post(url, async (request, reply) => {
        if (await limited(request, reply)) return reply;
        try {
          return await handle(request, reply);
        } catch (error) {
          if (error instanceof OAuthFailure) return oauthError(reply, error);
          throw error;
        }
      });
    };

    post("/oauth/register", async (request, reply) => {
      const registered = await registerClient(deps, request.body);
      return cors(reply).code(201).header("cache-control", "no-store").send(registered);
    });

    post("/oauth/token", async (request, reply) => {
      const form = formOf(request.body);
      const client = await authenticateClient(deps, clientCredentials(request.headers.authorization, form));
      const grant = form.grant_type;
      const tokens =
        grant === "authorization_code"
          ? await exchangeCode(deps, client, form)
          : grant === "refresh_token"
            ? await refresh(deps, client, form)
            : null;
      if (tokens === null)
        throw new OAuthFailure("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.");
      return cors(reply).header("cache-control", "no-store").header("pragma", "no-cache").send(tokens);
    });

    post("/oauth/revoke", async (request, reply) => {
      const form = formOf(request.body);
      const client = await authenticateClient(deps, clientCredentials(request.headers.authorization, form));
      await revokeToken(deps, client, form.token);
      return cors(reply).code(200).header("cache-control", "no-store").send({});
    });
  });
}
