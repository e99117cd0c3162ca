import { BRAND_SUGGESTION_LIMIT, suggestBrand } from "../../../services/websites/brand-suggestions.ts";
import { PAGE_LIMITS } from "../../../services/websites/fetcher.ts";
import { WEBSITE_BUDGET_MS } from "../../../services/websites/read.ts";
import { BrandSuggestionRequestSchema, BrandSuggestionSchema } from "../../../services/websites/schemas.ts";
import { defineRoute } from "../../route.ts";

export const suggestBrandRoute = defineRoute({
  operationId: "suggestBrand",
  method: "POST",
  path: "/brand-suggestions",
  tag: "Projects",
  summary: "Suggest a brand from its website",
  description: `Reads a few pages of the brand's website (the home page, then its about, pricing and product pages; \`robots.txt\` respected; public addresses only, as for webhooks; at most ${PAGE_LIMITS.maxBytes / 1024} KiB and ${PAGE_LIMITS.timeoutMs / 1000} s a page, ${PAGE_LIMITS.maxRedirects} redirects, ${WEBSITE_BUDGET_MS / 1000} s in all; nothing on them is run) and proposes a brand to create with \`POST /v1/projects\`: its name, aliases, domains, category, language, country, a fact sheet, competitors and 10–20 prompts across the funnel stages. Every suggestion has its \`source\`: the page it was read on, \`sandbox\` (simulated by the offline sandbox), the engine that was asked, or \`answers\` (when a brand of the workspace already has this domain). Competitors and prompts come from \`engine\` (\`sandbox\` by default): one credit for the sandbox, two for another engine; an engine that fails falls back to the sandbox, said in \`notices\`. Nothing is stored. A site that cannot be read (unreachable, not public, disallowed by robots.txt, not a web page) is a \`VALIDATION_ERROR\` on \`website\` with the reason. At most ${BRAND_SUGGESTION_LIMIT.perWorkspacePerMinute} a minute per workspace. An addition to the specification.`,
  scope: "projects",
  extension: true,
  body: BrandSuggestionRequestSchema,
  success: { status: 200, description: "The proposed brand.", schema: BrandSuggestionSchema },
  errors: ["ENGINE_NOT_ALLOWED", "ENGINE_FAILURE", "BILLING_LIMIT_EXCEEDED", "BILLING_UNAVAILABLE"],
  handler: ({ ctx, body }) => suggestBrand(ctx, body),
});
