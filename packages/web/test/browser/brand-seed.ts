import { appCall, type Installation, type Session, signIn, signUp } from "./installation.ts";

export const OWNER = { name: "Mia Marketer", email: "mia@example.com", password: "a long enough password for mia" };
const WORKSPACE_NAME = "Northwind marketing";
export const BRAND = {
  name: "Northwind CRM",
  domain: "northwind.example",
  otherDomains: "northwind.io",
  aliases: "Northwind",
  caseSensitiveAliases: "NWC",
  exclusions: ["Northwind Traders", "northwind passage"],
  citationCategories: [{ domain: "crmforum.example", category: "social" }],
  competitors: [
    { name: "Contoso Sales", domains: "contoso.example", aliases: "Contoso", caseSensitiveAliases: "CS" },
    { name: "Fabrikam Desk", domains: "fabrikam.example", aliases: "Fabrikam", caseSensitiveAliases: "" },
  ],
  prompts: [
    "best CRM for a small agency",
    "CRM with a good Slack integration",
    "cheapest CRM for startups",
    "which CRM is easiest to set up",
    "CRM alternatives for a sales team of ten",
  ],
};
export const SAMPLES = 4;
export const ANSWERS = BRAND.prompts.length * SAMPLES;

/** A competitor of BRAND as the API takes and gives it. */
export function competitorBody(c: (typeof BRAND.competitors)[number]) {
  return {
    name: c.name,
    domains: [c.domains],
    aliases: [c.aliases],
    case_sensitive_aliases: c.caseSensitiveAliases === "" ? [] : [c.caseSensitiveAliases],
  };
}

/** BRAND as the add-brand form creates it (every field), and the fact sheet the edit form fills in. */
const PROJECT = {
  name: BRAND.name,
  primary_domain: BRAND.domain,
  other_domains: [BRAND.otherDomains],
  aliases: [BRAND.aliases],
  case_sensitive_aliases: [BRAND.caseSensitiveAliases],
  exclusions: BRAND.exclusions,
  citation_categories: BRAND.citationCategories,
  competitors: BRAND.competitors.map(competitorBody),
  prompts: BRAND.prompts,
  engines: ["sandbox"],
  country: "US",
  language: "en",
};
const FACTS = {
  founded_year: 2015,
  headquarters: "Seattle, Washington",
  starting_price: { amount: 29, currency: "USD", period: "month" },
  features: ["Slack integration"],
};

/** What a test starts from, besides the brand itself. */
export interface BrandSeed {
  /** A completed analysis: each prompt asked SAMPLES times of the sandbox (ANSWERS answers). */
  analysis?: boolean;
  /** The fact sheet filled in. */
  facts?: boolean;
  /** A daily monitoring schedule, run once by hand until completed (its report made). */
  monitoring?: { samples: number; alertRules: unknown[] };
}

export interface SeededBrand {
  /** A session of the test's own: the owner signed in afresh, through the API. */
  session: Session;
  workspaceId: string;
  brandId: string;
  /** The completed analysis ("" without one). */
  analysisId: string;
  /** An answer of that analysis that names the brand ("" without one). */
  answerId: string;
}

/** Polls `read` until it gives a value, for at most 30 s. */
async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`seeding: ${what} did not happen within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A workspace of its own (all named WORKSPACE_NAME, as the owner's first one) with BRAND in it and
 * what `seed` asks for, made through the dashboard's API with the owner's session.
 */
async function seedBrand(installation: Installation, owner: Session, seed: BrandSeed): Promise<SeededBrand> {
  // The test's own session, signed in meanwhile (awaited last).
  const signingIn = signIn(installation, OWNER);
  signingIn.catch(() => undefined);
  const call = <T>(method: string, path: string, body?: unknown) => appCall<T>(installation, owner, method, path, body);
  const { id: workspaceId } = await call<{ id: string }>("POST", "/workspaces", { name: WORKSPACE_NAME });
  const v1 = `/workspaces/${workspaceId}/v1`;
  const project = { ...PROJECT, ...(seed.facts === true ? { facts: FACTS } : {}) };
  const { id: brandId } = await call<{ id: string }>("POST", `${v1}/projects`, project);
  const analysing = async () => {
    if (seed.analysis !== true) return { analysisId: "", answerId: "" };
    const analysis = await call<{ id: string; status: string }>("POST", `${v1}/analyze`, {
      project_id: brandId,
      samples: SAMPLES,
      wait: 30,
    });
    if (analysis.status !== "completed") throw new Error(`seeding: the analysis is ${analysis.status}`);
    const named = await call<{ data: { id: string }[] }>(
      "GET",
      `${v1}/results?project_id=${brandId}&mentioned=true&status=succeeded&limit=1`,
    );
    const answerId = named.data[0]?.id;
    if (answerId === undefined) throw new Error("seeding: no answer of the analysis names the brand");
    return { analysisId: analysis.id, answerId };
  };
  const monitoring = async (monitor: NonNullable<BrandSeed["monitoring"]>) => {
    const schedule = await call<{ id: string }>("POST", `${v1}/monitoring`, {
      project_id: brandId,
      schedule: { every: "day", at: "08:30" },
      timezone: "Europe/Paris",
      samples: monitor.samples,
      alert_rules: monitor.alertRules,
    });
    await call("POST", `${v1}/monitoring/${schedule.id}/run`);
    await until("the monitoring run", async () => {
      const runs = await call<{ data: { status: string }[] }>("GET", `${v1}/monitoring/${schedule.id}/runs`);
      return runs.data[0]?.status === "completed" ? true : undefined;
    });
  };
  // The analysis and the monitoring run at once: neither reads the other.
  const [{ analysisId, answerId }] = await Promise.all([
    analysing(),
    seed.monitoring === undefined ? undefined : monitoring(seed.monitoring),
  ]);
  return { session: await signingIn, workspaceId, brandId, analysisId, answerId };
}

/**
 * OWNER's session: the installation's first account, signed up with the setup code it printed; or,
 * if the account exists (the sign-up test makes it through the app), signed in.
 */
async function ownerSession(installation: Installation): Promise<Session> {
  const setup = (await (await fetch(`${installation.base}/app/api/setup`)).json()) as { needs_setup: boolean };
  if (!setup.needs_setup) return signIn(installation, OWNER);
  return (await signUp(installation, OWNER, { workspace_name: WORKSPACE_NAME })).session;
}

/**
 * Starts seeding every brand of `seeds`, each in a workspace of its own, and gives each as a promise
 * of the seeded brand, by the same keys: a test waits for its own only (a seed that failed fails it).
 * A few at a time, in the order given (the tests'), so that seeding does not slow down the tests
 * that run meanwhile, and a test's brand is ready when it starts.
 */
export function seedBrands<K extends string>(
  installation: Installation,
  seeds: Record<K, BrandSeed>,
  atOnce = 3,
): Record<K, Promise<SeededBrand>> {
  const owner = ownerSession(installation);
  const lanes: Promise<unknown>[] = Array.from({ length: atOnce }, () => owner);
  const entries = Object.entries(seeds) as [K, BrandSeed][];
  return Object.fromEntries(
    entries.map(([key, seed], index) => {
      const lane = index % atOnce;
      const seeding = Promise.all([owner, lanes[lane]]).then(([session]) => seedBrand(installation, session, seed));
      lanes[lane] = seeding.catch(() => undefined);
      seeding.catch(() => undefined);
      return [key, seeding];
    }),
  ) as Record<K, Promise<SeededBrand>>;
}
