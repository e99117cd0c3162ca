import { ENGINE_DESCRIPTORS, ENGINES, type EngineName } from "../engines/catalog.ts";
import { PLAN_NAMES, type PlanName } from "../plan-names.ts";

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

const rank = (plan: PlanName): number => PLAN_NAMES.indexOf(plan);

/**
 * The built-in engines whose descriptor's `minimumPlan` is `plan` or smaller: the smaller plans'
 * engines first, then the plan's own, each in catalog order (what ENGINE_NOT_ALLOWED lists).
 */
function enginesFrom(plan: PlanName): EngineName[] {
  return ENGINE_DESCRIPTORS.filter((engine) => rank(engine.minimumPlan) <= rank(plan))
    .sort((a, b) => rank(a.minimumPlan) - rank(b.minimumPlan))
    .map((engine) => engine.name);
}

/** DESIGN.md §2 defaults; which engines each plan includes comes from the engines' descriptors. */
export const DEFAULT_PLANS: PlanCatalog = {
  free: {
    name: "free",
    apiAccess: false,
    requestsPerMinute: null,
    creditsPerMonth: 100,
    engines: enginesFrom("free"),
    allEngines: false,
  },
  starter: {
    name: "starter",
    apiAccess: false,
    requestsPerMinute: null,
    creditsPerMonth: 1_000,
    engines: enginesFrom("starter"),
    allEngines: false,
  },
  growth: {
    name: "growth",
    apiAccess: true,
    requestsPerMinute: 300,
    creditsPerMonth: 10_000,
    engines: enginesFrom("growth"),
    allEngines: false,
  },
  agency: {
    name: "agency",
    apiAccess: true,
    requestsPerMinute: 1_000,
    creditsPerMonth: 100_000,
    // Every engine, the operator's custom ones too: whatever a descriptor's minimumPlan says.
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
