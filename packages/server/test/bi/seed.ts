import { Readable } from "node:stream";
import { expect } from "vitest";
import { importTrafficLogs } from "../../src/services/traffic/import.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import type { Harness, Tenant } from "../helpers/harness.ts";

export interface Seeded {
  tenant: Tenant;
  projectId: string;
}

const AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) HumanBrowser/123.4";

/** A combined-format access log: an AI bot's hits and a visit ChatGPT referred. */
function accessLog(path: string): string {
  const line = (ip: string, time: string, referrer: string, agent: string) =>
    `${ip} - - [${time}] "GET ${path} HTTP/1.1" 200 512 "${referrer}" "${agent}"`;
  return [
    line("198.51.100.9", "20/Nov/2026:08:00:00 +0000", "-", "Mozilla/5.0; compatible; GPTBot/1.2"),
    line("198.51.100.5", "20/Nov/2026:09:00:00 +0000", "-", "Mozilla/5.0 (compatible; ClaudeBot/1.0)"),
    line("203.0.113.77", "20/Nov/2026:12:00:00 +0000", "https://chatgpt.com/", AGENT),
    "",
  ].join("\n");
}

/**
 * A workspace with a brand, its answers (a real analysis on the offline sandbox engine, through the
 * API) and a day of traffic: what every BI view shows. The worker must be running.
 */
export async function seedWorkspace(h: Harness, name: string): Promise<Seeded> {
  const tenant = await h.tenant("growth");
  return { tenant, projectId: await seedBrand(h, { workspaceId: tenant.workspace.id, key: tenant.key }, name) };
}

/**
 * A brand with its answers and a day of traffic in an existing workspace (an agency's client or
 * pitch), through the API with one of its keys; returns the brand's id. The worker must be running.
 */
export async function seedBrand(
  h: Harness,
  workspace: { workspaceId: string; key: string },
  name: string,
): Promise<string> {
  const created = await h.call("createProject", {
    key: workspace.key,
    body: {
      name,
      primary_domain: `${name.toLowerCase()}.example.com`,
      competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }],
      prompts: [`best CRM like ${name}?`, "which CRM integrates with Slack?"],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const projectId = created.json().id as string;
  const analysis = await h.call("analyze", {
    key: workspace.key,
    body: { project_id: projectId, engines: ["sandbox"], samples: 3, wait: 60 },
  });
  expect(analysis.statusCode, analysis.body).toBe(200);
  const ctx = await workspaceContext(h.deps, workspace.workspaceId);
  await importTrafficLogs(ctx, projectId, { body: Readable.from([accessLog(`/${name}`)]), source: "api" });
  return projectId;
}

/** What the app itself counts of a workspace, for each view. */
export async function appCounts(h: Harness, workspaceId: string): Promise<Record<string, number>> {
  const db = h.deps.db;
  const answers = await db
    .selectFrom("results")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.sum<number>("citation_count").as("citations")])
    .where("workspace_id", "=", workspaceId)
    .where("status", "=", "succeeded")
    .executeTakeFirstOrThrow();
  const count = async (table: "projects" | "traffic_bot_hits" | "traffic_referrals") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("workspace_id", "=", workspaceId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    brands: await count("projects"),
    answers: Number(answers.n),
    citations: Number(answers.citations),
    traffic_bot_hits: await count("traffic_bot_hits"),
    traffic_referrals: await count("traffic_referrals"),
  };
}
