import type { CompleteResult, GetPromptResult, ListPromptsResult, Prompt } from "@modelcontextprotocol/sdk/types.js";
import { getProjectRoute, listProjectsRoute } from "../http/v1/projects/routes.ts";
import type { Authenticated } from "../services/auth/authenticate.ts";
import type { Deps } from "../services/context.ts";
import { GLOSSARY } from "../services/glossary/metrics.ts";
import { GLOSSARY_URI } from "./resources.ts";
import { runRoute } from "./run-route.ts";

type Admission = { auth: Authenticated; requestId: string };

/** A prompt's argument that names no brand of the workspace, or a prompt that does not exist. */
export class PromptArgumentError extends Error {}

interface Brand {
  id: string;
  name: string;
}

const BRAND_ARGUMENT = {
  name: "brand",
  description: "The brand's name as in Sightline (or its id, `prj_…`).",
  required: true,
};

const figure = (id: keyof typeof GLOSSARY) => GLOSSARY[id].name.toLowerCase();

/** The day `days` before `now`, as the API's `from` (UTC midnight). */
function daysBefore(now: Date, days: number): string {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - days));
  return day.toISOString();
}

interface PromptSpec extends Prompt {
  /** The request to the assistant, for a brand found in the workspace, as of `now`. */
  text(brand: Brand, now: Date): string;
}

const PROMPTS: PromptSpec[] = [
  {
    name: "weekly_visibility_summary",
    title: "Weekly visibility summary for a brand",
    description:
      "How the brand appeared in AI answers over the last 7 days against the 7 before: what moved, where, and why.",
    arguments: [BRAND_ARGUMENT],
    text: (brand, now) => {
      const from = daysBefore(now, 7);
      const to = daysBefore(now, 0);
      return [
        `Write a weekly summary of how ${brand.name} appears in AI engines' answers, for its marketing team.`,
        "",
        `1. Call get_metrics with project_id "${brand.id}", from "${from}", to "${to}" and interval "day". It compares the 7 days with the 7 before.`,
        `2. Give its ${figure("visibility")}, ${figure("share_of_voice")}, ${figure("average_position")}, ${figure("sentiment")} and ${figure("citation_rate")}, each with its change, and say which changes are statistically real (the answer says so); call the others noise.`,
        "3. Name the engines where it rose or fell most.",
        `4. For the biggest move, call list_results with project_id "${brand.id}" and that engine over the same days, and quote one or two answers that show it.`,
        "5. End with one thing to do next week; list_opportunities has the ranked list.",
        "",
        `Use the figures' names and scales from the glossary (resource ${GLOSSARY_URI}); percentages in the API are fractions (0.47 is 47%).`,
      ].join("\n");
    },
  },
  {
    name: "what_to_fix_first",
    title: "What should we fix first for a brand?",
    description:
      "The three actions most likely to raise the brand's visibility in AI answers, with the evidence for each.",
    arguments: [BRAND_ARGUMENT],
    text: (brand) =>
      [
        `What should ${brand.name} fix first to be named more often in AI engines' answers?`,
        "",
        `1. Call list_opportunities with project_id "${brand.id}". It ranks what to do by ${figure("opportunity_impact")} (\`impact\`).`,
        "2. Take the top three. For each, say in one sentence what to do (the page to write or fix, the site to be cited on, the claim to correct), the figures it rests on, and quote one answer it cites (get_result with its result ids).",
        `3. Say how to know whether it worked: record_change with project_id "${brand.id}" once it is done measures its effect against prompts it should not move.`,
        "",
        "Keep it to what the data shows; say so where an opportunity rests on few answers.",
      ].join("\n"),
  },
];

const BY_NAME = new Map(PROMPTS.map((prompt) => [prompt.name, prompt]));

export function listPrompts(): ListPromptsResult {
  return { prompts: PROMPTS.map(({ text: _text, ...prompt }) => prompt) };
}

async function brands(deps: Deps, admission: Admission, signal: AbortSignal): Promise<Brand[]> {
  const page = await runRoute(deps, listProjectsRoute, { query: { limit: 100 } }, admission, signal, null, "prompt");
  return (page.json.data as Brand[]).map(({ id, name }) => ({ id, name }));
}

/** The prompt's messages for a brand of the workspace: the request, and the brand's settings beside it. */
export async function getPrompt(
  deps: Deps,
  name: string,
  args: Record<string, string> | undefined,
  admission: Admission,
  signal: AbortSignal,
): Promise<GetPromptResult> {
  const prompt = BY_NAME.get(name);
  if (prompt === undefined)
    throw new PromptArgumentError(
      `Unknown prompt '${name}'; the prompts are ${PROMPTS.map((p) => p.name).join(", ")}.`,
    );
  const asked = (args?.brand ?? "").trim();
  if (asked === "") throw new PromptArgumentError("The prompt needs `brand`: the brand's name or id.");
  const all = await brands(deps, admission, signal);
  const brand =
    all.find((b) => b.id === asked) ?? all.find((b) => b.name.toLocaleLowerCase() === asked.toLocaleLowerCase());
  if (brand === undefined) {
    const names = all.map((b) => b.name).join(", ");
    throw new PromptArgumentError(
      `No brand '${asked}' in this workspace; ${names === "" ? "it has no brands yet" : `its brands are ${names}`}.`,
    );
  }
  const settings = await runRoute(
    deps,
    getProjectRoute,
    { params: { id: brand.id } },
    admission,
    signal,
    null,
    "prompt",
  );
  return {
    description: `${prompt.title}: ${brand.name}`,
    messages: [
      { role: "user", content: { type: "text", text: prompt.text(brand, deps.clock.now()) } },
      {
        role: "user",
        content: {
          type: "resource",
          resource: { uri: `sightline://brands/${brand.id}`, mimeType: "application/json", text: settings.text },
        },
      },
    ],
  };
}

/** Completes a prompt's `brand` argument with the workspace's brand names that start with what is typed. */
export async function completeBrand(
  deps: Deps,
  value: string,
  admission: Admission,
  signal: AbortSignal,
): Promise<CompleteResult> {
  const typed = value.toLocaleLowerCase();
  const names = (await brands(deps, admission, signal))
    .map((b) => b.name)
    .filter((n) => n.toLocaleLowerCase().startsWith(typed));
  return { completion: { values: names.slice(0, 100), total: names.length, hasMore: names.length > 100 } };
}
