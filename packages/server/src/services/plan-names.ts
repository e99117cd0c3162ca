/**
 * The plans, smallest first. Their names are shared by the plan catalog and the engines (an engine
 * names the smallest plan that includes it), so they live below both.
 */
export const PLAN_NAMES = ["free", "starter", "growth", "agency"] as const;

export type PlanName = (typeof PLAN_NAMES)[number];
