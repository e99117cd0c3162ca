import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, launchChromium } from "../../../server/test/helpers/browser.ts";
import { appCall, type Installation, type Session, sessionPage, signUp, startInstallation } from "./installation.ts";
import { expectNoSidewaysScroll } from "./screens.ts";

const OWNER = {
  name: "Paula Planner",
  email: "paula@northwind.example.com",
  password: "a long enough phrase for paula",
};
const OPTIONS = { locale: "en-US", reducedMotion: "reduce", timezoneId: "UTC" } as const;
/** Where this test's screenshots go, to be looked at. */
const SHOTS = "/tmp/conv-shots";
const BRAND = "Northwind CRM";
const COMPETITORS = ["Contoso Sales", "Fabrikam Desk"];
const PROMPTS = ["best CRM for a small agency", "CRM pricing for small teams", "which CRM is easiest to set up"];
const PERSONA = {
  name: "Cautious CFO",
  role: "Chief financial officer",
  size: "50–200 employees",
  constraints: "We can't use Salesforce; under $50 a seat",
  location: "Austin, Texas",
};
const SCRIPT = {
  name: "Shortlist, then a constraint",
  opening: "Which CRM suits a small agency?",
  followUps: ["We can't use {top_competitor_named}; what else?", "Which of those is cheapest for {team}?"],
  variable: { name: "team", value: "a team of ten" },
};
const SAMPLES = 3;

interface Turn {
  turn: number;
  prompt: string;
  status: "succeeded" | "failed" | "not_asked";
  text: string | null;
  error: string | null;
  mentioned: boolean;
  mentions: { name: string; brand: boolean; start: number; end: number }[];
}
interface Conversation {
  id: string;
  status: "running" | "completed" | "stopped";
  engine: string;
  entry_turn: number | null;
  drop_turn: number | null;
  survived: boolean | null;
  persona_id: string | null;
  country: string | null;
  turns?: Turn[];
}

/**
 * Issue 29's screens in a real Chromium against `sightline all` (API, worker and the built app in
 * one process) on SQLite: a persona and a second country are added to a brand on the Audiences
 * tab, a three-turn conversation script (its first follow-up built on the competitor the answer
 * named first) is written on the Conversations tab, and an analysis on the sandbox engine is run
 * from the dashboard and followed until it finishes. Its conversations are listed; one is opened
 * and read turn by turn, question then answer, the tracked names highlighted where the server
 * measured them; the script's figures per engine and the comparisons by persona and by country
 * show the groups. At 1280 and 390 px, axe clean on each screen, only 127.0.0.1 asked.
 */
describe("personas, countries and conversations in a browser", () => {
  let browser: Browser;
  let installation: Installation;
  let session: Session;
  let workspaceId: string;
  let brandId: string;
  const contexts: BrowserContext[] = [];

  const brandUrl = (path = "") => `${installation.base}/w/${workspaceId}/brands/${brandId}${path}`;
  const v1 = <T>(method: string, path: string, body?: unknown) =>
    appCall<T>(installation, session, method, `/workspaces/${workspaceId}/v1${path}`, body);

  async function open(width: number) {
    const opened = await sessionPage(browser, installation, session, { ...OPTIONS, viewport: { width, height: 900 } });
    contexts.push(opened.context);
    return opened;
  }

  async function shot(page: Page, name: string) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  /** axe, the screen's width and a screenshot at each width, back at the first one after. */
  async function fits(page: Page, name: string, widths: readonly number[] = [1280, 390]) {
    const first = page.viewportSize()?.width ?? 1280;
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      await page.mouse.move(0, 0);
      if (Number(await page.evaluate("document.documentElement.scrollWidth")) > width) {
        console.log(
          `${name} at ${width} px is wider than the screen:`,
          await page.evaluate(`[...document.querySelectorAll("body *")]
            .filter((el) => el.getBoundingClientRect().right > ${width} + 1)
            .slice(-3)
            .map((el) => el.tagName + "." + String(el.className).slice(0, 60))`),
        );
      }
      await expectNoSidewaysScroll(page, width, name);
      await expectAccessible(page, `${name} at ${width} px`);
      await page.evaluate("window.scrollTo(0, 0)");
      await shot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: first, height: 900 });
  }

  /** Picks an option of one of the app's selects (Radix): its trigger by label, then the option by name. */
  async function choose(scope: Page | Locator, page: Page, label: string, option: string) {
    await scope.getByLabel(label, { exact: true }).click();
    await page.getByRole("option", { name: option, exact: true }).click();
  }

  beforeAll(async () => {
    [browser, installation] = await Promise.all([launchChromium(), startInstallation("sqlite")]);
    ({ session, workspaceId } = await signUp(installation, OWNER, { workspace_name: "Northwind marketing" }));
    ({ id: brandId } = await v1<{ id: string }>("POST", "/projects", {
      name: BRAND,
      primary_domain: "northwind.example",
      competitors: [
        { name: COMPETITORS[0], domains: ["contoso.example"] },
        { name: COMPETITORS[1], domains: ["fabrikam.example"] },
      ],
      prompts: PROMPTS,
      engines: ["sandbox"],
      country: "US",
    }));
  }, 120_000);

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await installation?.stop();
    console.log(`screenshots in ${SHOTS}`);
  });

  it("adds a persona and a country, writes a script, runs an analysis and reads its conversations and comparisons", async () => {
    const { page, problems } = await open(1280);
    const nav = page.getByRole("navigation", { name: "Brand" });

    // Audiences, empty: what to do next, said in words.
    await page.goto(brandUrl("/audiences"));
    const audiencesTab = nav.getByRole("link", { name: "Audiences" });
    await audiencesTab.waitFor();
    expect(await audiencesTab.getAttribute("class")).toContain("bg-accent");
    await page.getByText("No personas yet").waitFor();
    const countries = page.getByRole("region", { name: "Countries", exact: true });
    const tracked = countries.getByRole("list", { name: "Countries the brand is tracked in" });
    await tracked.getByText("United States (US)").waitFor();
    await tracked.getByText("the brand's country").waitFor();
    await countries.getByText(/Engines that cannot be placed in a country .* are not asked there/).waitFor();
    await page.getByText(`No answers for ${BRAND} in this period`).waitFor();
    await fits(page, "audiences-empty");

    // A persona: the form's own check first, then saved, showing what the engines receive.
    await page.getByRole("button", { name: "Add a persona" }).click();
    const personaDialog = page.getByRole("dialog", { name: "Add a persona" });
    await personaDialog.getByRole("button", { name: "Add persona" }).click();
    await personaDialog.getByText("Give the persona a name people recognise").waitFor();
    await personaDialog.getByLabel("Name", { exact: true }).fill(PERSONA.name);
    await personaDialog.getByLabel("Role").fill(PERSONA.role);
    await personaDialog.getByLabel("Company size").fill(PERSONA.size);
    await personaDialog.getByLabel("Constraints").fill(PERSONA.constraints);
    await expectAccessible(page, "the persona form");
    await shot(page, "persona-form-1280");
    await personaDialog.getByRole("button", { name: "Add persona" }).click();
    await personaDialog.waitFor({ state: "detached" });
    const personas = page.getByRole("list", { name: "Personas" });
    const persona = personas.getByRole("listitem").filter({ hasText: PERSONA.name });
    await persona.getByText("Switched on", { exact: true }).waitFor();
    await persona.getByText("Version 1").waitFor();
    const { data: saved } = await v1<{ data: { id: string; context: string }[] }>(
      "GET",
      `/projects/${brandId}/personas`,
    );
    expect(saved).toHaveLength(1);
    const personaId = saved[0]?.id ?? "";
    expect(saved[0]?.context).toContain(PERSONA.constraints);
    await persona.getByText(saved[0]?.context ?? "", { exact: true }).waitFor();
    // Edited, it is a new version, and the engines receive the new text; switched off and on again.
    await persona.getByRole("button", { name: `Edit persona: ${PERSONA.name}` }).click();
    const editDialog = page.getByRole("dialog", { name: `Edit “${PERSONA.name}”` });
    await editDialog.getByLabel("Location").fill(PERSONA.location);
    await editDialog.getByRole("button", { name: "Save persona" }).click();
    await editDialog.waitFor({ state: "detached" });
    await persona.getByText("Version 2").waitFor();
    await persona.getByText(new RegExp(`Location: ${PERSONA.location}\\.`)).waitFor();
    const toggle = persona.getByRole("switch", { name: `Ask as “${PERSONA.name}” in analyses` });
    await toggle.click();
    await persona.getByText("Switched off", { exact: true }).waitFor();
    await toggle.click();
    await persona.getByText("Switched on", { exact: true }).waitFor();

    // A country, chosen by its name: the brand's own country is kept beside it.
    await choose(countries, page, "Add a country", "Germany (DE)");
    await countries.getByRole("button", { name: "Add country" }).click();
    await countries.getByRole("button", { name: "Remove Germany (DE)" }).waitFor();
    await countries.getByRole("button", { name: "Remove United States (US)" }).waitFor();
    const project = await v1<{ countries: string[] }>("GET", `/projects/${brandId}`);
    expect(project.countries).toEqual(["US", "DE"]);
    await fits(page, "audiences-set-up");

    // Conversations, empty.
    await nav.getByRole("link", { name: "Conversations" }).click();
    await page.waitForURL(/\/conversations$/);
    await page.getByText("No conversation scripts yet").waitFor();
    await page.getByText("No conversations yet").waitFor();
    await fits(page, "conversations-empty");

    // A script of three turns: the form's checks next to their fields, then saved.
    await page.getByRole("button", { name: "New script" }).click();
    const scriptDialog = page.getByRole("dialog", { name: "New conversation script" });
    await scriptDialog.getByLabel("Name", { exact: true }).fill(SCRIPT.name);
    await scriptDialog.getByLabel("Opening question").fill("Who beats {top_competitor_named}?");
    await scriptDialog.getByLabel("Follow-up 1", { exact: true }).fill(SCRIPT.followUps[0] ?? "");
    await scriptDialog.getByRole("button", { name: "Add a follow-up" }).click();
    await scriptDialog.getByLabel("Follow-up 2", { exact: true }).fill(SCRIPT.followUps[1] ?? "");
    await scriptDialog.getByRole("button", { name: "Create script" }).click();
    await scriptDialog.getByText(/The opening question has no previous answer/).waitFor();
    await scriptDialog.getByText(/\{team\} is not a placeholder/).waitFor();
    expect(await scriptDialog.getByLabel("Opening question").getAttribute("aria-invalid")).toBe("true");
    await expectAccessible(page, "the script form with its errors");
    await shot(page, "script-form-errors-1280");
    await scriptDialog.getByLabel("Opening question").fill(SCRIPT.opening);
    await scriptDialog.getByRole("button", { name: "Add a variable" }).click();
    await scriptDialog.getByLabel("Variable 1 name").fill(SCRIPT.variable.name);
    await scriptDialog.getByLabel("Variable 1 value").fill(SCRIPT.variable.value);
    await choose(scriptDialog, page, "Asked as", PERSONA.name);
    await scriptDialog.getByRole("button", { name: "Create script" }).click();
    await scriptDialog.waitFor({ state: "detached" });
    const script = page.getByRole("list", { name: "Conversation scripts" }).getByRole("listitem").first();
    await script.getByRole("heading", { name: SCRIPT.name }).waitFor();
    await script.getByText(`Asked as ${PERSONA.name}`).waitFor();
    await script.getByText(SCRIPT.followUps[0] ?? "").waitFor();
    await script.getByText(/No finished conversation of this script/).waitFor();
    const { data: scripts } = await v1<{ data: { turns: string[]; variables: Record<string, string> }[] }>(
      "GET",
      `/projects/${brandId}/conversation-scripts`,
    );
    expect(scripts[0]?.turns).toEqual([SCRIPT.opening, ...SCRIPT.followUps]);
    expect(scripts[0]?.variables).toEqual({ [SCRIPT.variable.name]: SCRIPT.variable.value });

    // An analysis on the sandbox, from the dashboard: the persona, both countries and the script counted.
    await page.getByRole("button", { name: "Run analysis now" }).first().click();
    const run = page.getByRole("dialog");
    await run.getByLabel("Samples").fill(String(SAMPLES));
    const single = PROMPTS.length * SAMPLES * 2;
    const turns = SAMPLES * 3;
    const credits = single + turns;
    await run
      .getByText(
        `${PROMPTS.length} prompts × 1 engine × ${SAMPLES} samples × 2 countries = ${single} answers, plus ${SAMPLES} conversations (${turns} turns): ${credits} credits.`,
      )
      .waitFor();
    await expectAccessible(page, "run analysis dialog with conversations");
    await shot(page, "run-analysis-1280");
    await run.getByRole("button", { name: "Start analysis" }).click();
    await run.getByRole("button", { name: `Spend ${credits} credits and start` }).click();
    await page.waitForURL(/\/analyses\/ana_[^/?]+/);
    await page
      .locator("#analysis-title")
      .getByText(/^Completed/)
      .waitFor({ timeout: 120_000 });
    await page.getByText(`Each prompt asked as ${PERSONA.name} from United States (US), Germany (DE).`).waitFor();
    await page.getByText(`${SAMPLES} conversations held:`).waitFor();
    await fits(page, "analysis-done", [1280]);
    await page.getByRole("link", { name: "read them" }).click();
    await page.waitForURL(/\/conversations$/);

    // The script's figures per engine, and the conversations held.
    const { data: held } = await v1<{ data: Conversation[] }>("GET", `/projects/${brandId}/conversations`);
    expect(held).toHaveLength(SAMPLES);
    expect(held.every((c) => c.status !== "running" && c.engine === "sandbox" && c.persona_id === personaId)).toBe(
      true,
    );
    const figures = script.getByRole("region", { name: "Sandbox (offline): figures of the script" });
    const completed = held.filter((c) => c.status === "completed").length;
    if (completed > 0) {
      await figures.getByText(completed === 1 ? "· 1 conversation" : `· ${completed} conversations`).waitFor();
      await figures.getByText("Survived to the final answer").waitFor();
      await figures.getByRole("rowheader", { name: /^Turn 3 · Follow-up 2/ }).waitFor();
    }
    const recent = page.getByRole("region", { name: "Recent conversations" });
    expect(await recent.getByRole("link", { name: SCRIPT.name }).count()).toBe(SAMPLES);
    await fits(page, "conversations");

    // One conversation, turn by turn: the one where the brand did most, else the one naming most.
    const fulls = await Promise.all(
      held.map((c) => v1<Conversation>("GET", `/projects/${brandId}/conversations/${c.id}`)),
    );
    const mentionsOf = (c: Conversation) => (c.turns ?? []).reduce((sum, t) => sum + t.mentions.length, 0);
    const full =
      fulls.find((c) => c.status === "completed" && c.entry_turn !== null && c.drop_turn !== null) ??
      fulls.find((c) => c.status === "completed" && c.entry_turn !== null) ??
      [...fulls].sort((a, b) => mentionsOf(b) - mentionsOf(a))[0];
    if (full === undefined) throw new Error("no conversation");
    const chosen = full;
    console.log(
      "conversations:",
      held.map((c) => `${c.status} entry=${c.entry_turn} drop=${c.drop_turn} survived=${c.survived}`).join("; "),
    );
    await page.goto(brandUrl(`/conversations/${chosen.id}`));
    await page.getByRole("heading", { name: SCRIPT.name }).waitFor();
    await page.getByRole("list", { name: "Highlighted names" }).waitFor();
    const turnItems = page.getByRole("list", { name: "Turns" }).locator(":scope > li");
    await turnItems.first().waitFor();
    expect(await turnItems.count()).toBe(3);
    for (const turn of full.turns ?? []) {
      const item = page.getByRole("region", { name: turn.turn === 1 ? /^Turn 1/ : new RegExp(`^Turn ${turn.turn} `) });
      await item.getByText(turn.prompt, { exact: true }).waitFor();
      if (turn.status === "not_asked") {
        await item.getByText("Not asked.").first().waitFor();
        continue;
      }
      if (turn.status === "failed") {
        await item.getByText("The engine did not answer.").waitFor();
        continue;
      }
      // Every tracked name the server found in prose is highlighted, the brand and competitors apart.
      const brandMarks = await item.locator("mark.mention-brand").allInnerTexts();
      const competitorMarks = await item.locator("mark.mention-competitor").allInnerTexts();
      const expected = (brand: boolean) =>
        turn.mentions.filter((m) => m.brand === brand).map((m) => turn.text?.slice(m.start, m.end) ?? "");
      expect(brandMarks.every((m) => expected(true).includes(m))).toBe(true);
      expect(competitorMarks.every((m) => expected(false).includes(m))).toBe(true);
      expect(brandMarks.length + competitorMarks.length).toBeLessThanOrEqual(turn.mentions.length);
      if (turn.mentions.length > 0) expect(brandMarks.length + competitorMarks.length).toBeGreaterThan(0);
      await item.getByText(turn.mentioned ? `${BRAND} at position` : `${BRAND} not named.`).waitFor();
      if (full.entry_turn === turn.turn) await item.getByText(`${BRAND} enters the conversation here`).waitFor();
      if (full.drop_turn === turn.turn)
        await item.getByText(`${BRAND} drops out here: not named from this turn on`).waitFor();
    }
    if (mentionsOf(full) > 0) expect(await page.locator(".answer-prose mark").count()).toBeGreaterThan(0);
    // The second turn names the competitor the first answer named first.
    const second = full.turns?.[1];
    if (second && second.status !== "not_asked") expect(COMPETITORS.some((c) => second.prompt.includes(c))).toBe(true);
    await fits(page, "conversation");

    // A conversation that stopped, if one did: its turns not asked, and why.
    const stopped = held.find((c) => c.status === "stopped");
    if (stopped) {
      await page.goto(brandUrl(`/conversations/${stopped.id}`));
      await page.getByText("Not asked.").first().waitFor();
      await fits(page, "conversation-stopped", [390]);
    }

    // The comparisons: the persona, and both countries, each a group with its interval and n.
    await page.goto(brandUrl("/audiences"));
    const byPersona = page.getByRole("region", { name: "By persona", exact: true });
    await byPersona.getByRole("rowheader", { name: new RegExp(`^${PERSONA.name}`) }).waitFor();
    await byPersona
      .getByText(/n = \d+\)/)
      .first()
      .waitFor();
    const byCountry = page.getByRole("region", { name: "By country", exact: true });
    await byCountry.getByRole("rowheader", { name: /^United States \(US\)/ }).waitFor();
    await byCountry.getByRole("rowheader", { name: /^Germany \(DE\)/ }).waitFor();
    const breakdown = await v1<{ groups: { key: string | null; answers: number }[] }>(
      "GET",
      `/projects/${brandId}/breakdown?by=country`,
    );
    expect(breakdown.groups.map((g) => [g.key, g.answers])).toEqual(
      expect.arrayContaining([
        ["DE", PROMPTS.length * SAMPLES],
        ["US", PROMPTS.length * SAMPLES],
      ]),
    );
    await fits(page, "audiences-compared");

    // Deleted, the persona is no longer asked as; the answers asked as it keep counting under its name.
    await persona.getByRole("button", { name: `Delete persona: ${PERSONA.name}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete persona" }).click();
    await page.getByText("No personas yet").waitFor();
    await byPersona.getByRole("rowheader", { name: new RegExp(`^${PERSONA.name}`) }).waitFor();
    expect(problems).toEqual([]);
  }, 240_000);
});
