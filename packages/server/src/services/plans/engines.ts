import { ApiError } from "../../errors/api-error.ts";
import type { ServiceContext } from "../context.ts";
import { planAllowsEngine } from "./catalog.ts";

/**
 * ENGINE_NOT_ALLOWED unless the workspace's plan includes every engine named, naming those it
 * does not and what it does. Checked after validation, wherever a request names engines.
 */
export function checkEnginesInPlan(ctx: ServiceContext, engines: string[], field = "engines"): void {
  const refused = engines.filter((engine) => !planAllowsEngine(ctx.workspace.plan, engine));
  if (refused.length === 0) return;
  throw new ApiError(
    "ENGINE_NOT_ALLOWED",
    `The ${ctx.workspace.plan.name} plan does not include ${refused.join(", ")}; it includes ${ctx.workspace.plan.engines.join(", ")}.`,
    { details: refused.map((engine) => ({ field, issue: `'${engine}' is not in the plan`, engine })) },
  );
}
