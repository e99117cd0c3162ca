import type { Harness, Tenant } from "./harness.ts";

export interface RouteInput {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
}

async function project(h: Harness, tenant: Tenant): Promise<string> {
  const res = await h.call("createProject", {
    key: tenant.key,
    body: { name: `Fixture ${Math.random()}`, primary_domain: "fixture.example.com" },
  });
  return res.json().id;
}

/**
 * A valid request for every route, owned by `tenant`: the shared security suite sends it with
 * wrong credentials and expects refusals, then with right ones and expects success. A route
 * without an entry here fails the suite, so new routes cannot skip it.
 */
export const ROUTE_FIXTURES: Record<string, (h: Harness, tenant: Tenant) => Promise<RouteInput>> = {
  listProjects: async () => ({ query: { limit: 5 } }),
  createProject: async () => ({ body: { name: "Secure brand", primary_domain: "secure.example.com" } }),
  getProject: async (h, t) => ({ params: { id: await project(h, t) } }),
  updateProject: async (h, t) => ({ params: { id: await project(h, t) }, body: { name: "Renamed" } }),
  getUsage: async () => ({}),
};
