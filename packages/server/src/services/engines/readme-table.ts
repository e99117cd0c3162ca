import { PLAN_NAMES, type PlanName } from "../plan-names.ts";
import { ENGINE_DESCRIPTORS } from "./catalog.ts";
import { variableNames } from "./variables.ts";

export const ENGINE_TABLE_HEADER = ["Engine", "Answers through", "Plans by default", "Key"] as const;

function plans(minimum: PlanName): string {
  const label = minimum.charAt(0).toUpperCase() + minimum.slice(1);
  return minimum === PLAN_NAMES[PLAN_NAMES.length - 1] ? label : `${label} and up`;
}

/** The README's engine table, one row per descriptor: test/engines/engine-descriptors.test.ts holds the README to it. */
export function engineTableRows(): string[][] {
  return ENGINE_DESCRIPTORS.map((descriptor) => [
    `\`${descriptor.name}\``,
    descriptor.vendor,
    plans(descriptor.minimumPlan),
    descriptor.credentials === "none" ? "none" : `\`${variableNames(descriptor).apiKey}\``,
  ]);
}
