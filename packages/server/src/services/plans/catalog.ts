import { ENGINES, type EngineName } from "../engines/catalog.ts";

export const PLAN_NAMES = ["free", "starter", "growth", "agency"] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface Plan {
  name: PlanName;
  /** Whether keys of this plan may call the API at all (spec: Growth and above). */
  apiAccess: boolean;
  /** Requests per 60-second window, per workspace; null when the plan has no API access. */
  requestsPerMinute: number | null;
  /** Credits per billing month; one credit is one answer from one engine. */
  creditsPerMonth: number;
  /** Built-in engines the plan includes. */
  engines: readonly EngineName[];
  /** Whether it includes every engine, the operator's custom ones too. */
  allEngines: boolean;
}

export type PlanCatalog = Readonly<Record<PlanName, Plan>>;

/** DESIGN.md §2 defaults. */
export const DEFAULT_PLANS: PlanCatalog = {
  free: {
    name: "free",
    apiAccess: false,
    requestsPerMinute: null,
    creditsPerMonth: 100,
    engines: ["sandbox", "chatgpt"],
    allEngines: false,
  },
  starter: {
    name: "starter",
    apiAccess: false,
    requestsPerMinute: null,
    creditsPerMonth: 1_000,
    engines: ["sandbox", "chatgpt", "perplexity"],
    allEngines: false,
  },
  growth: {
    name: "growth",
    apiAccess: true,
    requestsPerMinute: 300,
    creditsPerMonth: 10_000,
    engines: ["sandbox", "chatgpt", "perplexity", "gemini", "google_ai_overview"],
    allEngines: false,
  },
  agency: {
    name: "agency",
    apiAccess: true,
    requestsPerMinute: 1_000,
    creditsPerMonth: 100_000,
    engines: ENGINES,
    allEngines: true,
  },
};

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}

export function planAllowsEngine(plan: Plan, engine: string): boolean {
  return plan.allEngines || (plan.engines as readonly string[]).includes(engine);
}
