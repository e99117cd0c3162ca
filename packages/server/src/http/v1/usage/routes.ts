import { UsageQuery, UsageSchema } from "../../../services/usage/schemas.ts";
import { getUsage } from "../../../services/usage/usage.ts";
import { defineRoute } from "../../route.ts";

export const getUsageRoute = defineRoute({
  operationId: "getUsage",
  method: "GET",
  path: "/usage",
  tag: "Usage",
  summary: "Usage this billing period",
  description:
    "Requests (total and by endpoint), credits used, allowed and remaining (total and by engine), and the rate-limit window.",
  scope: "usage",
  query: UsageQuery,
  success: { status: 200, description: "The workspace's usage.", schema: UsageSchema },
  handler: ({ ctx, rate }) => getUsage(ctx, rate),
});
