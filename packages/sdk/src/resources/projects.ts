import type { Sightline } from "../client.ts";
import type {
  GetCompetitorLeaderboardQuery,
  GetCompetitorSuggestionsQuery,
  GetProjectMetricsQuery,
  GetProjectSearchesQuery,
  GetProjectSourcesQuery,
  GetProjectTrafficPagesQuery,
  GetProjectTrafficQuery,
  GetPromptMetricsQuery,
  ImportProjectTrafficLogsQuery,
  ListOpportunitiesQuery,
  ListProjectsQuery,
  ListRemeasuresQuery,
} from "../generated/operations.ts";
import type {
  BrandSuggestion,
  BrandSuggestionRequest,
  CompetitorInput,
  CompetitorLeaderboard,
  CompetitorSuggestions,
  Opportunities,
  Project,
  ProjectCreate,
  ProjectDeleted,
  ProjectList,
  ProjectMetrics,
  ProjectSearches,
  ProjectSources,
  ProjectUpdate,
  PromptAdd,
  PromptChange,
  PromptMetrics,
  PromptSuggestions,
  PromptSuggestionsRequest,
  Remeasure,
  RemeasureCreate,
  RemeasureList,
  Traffic,
  TrafficAccess,
  TrafficGa4Connect,
  TrafficGa4Connection,
  TrafficGa4ConnectionDeleted,
  TrafficGa4Sync,
  TrafficGa4SyncRequest,
  TrafficImport,
  TrafficPages,
} from "../generated/schemas.ts";
import { paginate } from "../pagination.ts";

/** Brands: `sightline.projects`. */
export class Projects {
  constructor(private readonly client: Sightline) {}

  /**
   * One page of the workspace's brands, newest first.
   * @example const { data, has_more, next_cursor } = await sightline.projects.list({ limit: 50 });
   */
  list(query: ListProjectsQuery = {}): Promise<ProjectList> {
    return this.client.request("listProjects", { query });
  }

  /**
   * Every brand, fetching pages as the loop needs them.
   * @example for await (const project of sightline.projects.listAll()) console.log(project.name);
   */
  listAll(query: Omit<ListProjectsQuery, "cursor"> = {}): AsyncIterable<Project> {
    return paginate((cursor) => this.list({ ...query, ...(cursor === undefined ? {} : { cursor }) }));
  }

  /**
   * Adds a brand. Emits `project.created`.
   * @example await sightline.projects.create({ name: "Acme", primary_domain: "acme.com", competitors: [{ name: "Globex" }] });
   */
  create(body: ProjectCreate): Promise<Project> {
    return this.client.request("createProject", { body });
  }

  /** @example const project = await sightline.projects.retrieve("prj_…"); */
  retrieve(id: string): Promise<Project> {
    return this.client.request("getProject", { params: { id } });
  }

  /**
   * Changes the fields given; emits `project.updated` when something changed.
   * @example await sightline.projects.update("prj_…", { prompts: ["best crm for startups"] });
   */
  update(id: string, body: ProjectUpdate): Promise<Project> {
    return this.client.request("updateProject", { params: { id }, body });
  }

  /**
   * Deletes a brand: gone from every list and figure at once, its schedules stopped, restorable with
   * everything it had until `purge_at` (30 days), then purged. An addition to the spec.
   * @example const { purge_at } = await sightline.projects.delete("prj_…");
   */
  delete(id: string): Promise<ProjectDeleted> {
    return this.client.request("deleteProject", { params: { id } });
  }

  /**
   * Brings a deleted brand back with everything it had (`list({ deleted: true })` lists them).
   * @example await sightline.projects.restore("prj_…");
   */
  restore(id: string): Promise<Project> {
    return this.client.request("restoreProject", { params: { id } });
  }

  /**
   * Adds one tracked prompt to the brand as it is now, without resending the list.
   * @example await sightline.projects.addPrompt("prj_…", { prompt: "best crm for agencies?", tags: ["funnel:awareness"] });
   */
  addPrompt(id: string, body: PromptAdd): Promise<Project> {
    return this.client.request("addPrompt", { params: { id }, body });
  }

  /**
   * Rewords, retags, pauses or resumes one tracked prompt, named by its current wording. Answers so far
   * keep the wording they were asked with.
   * @example await sightline.projects.changePrompt("prj_…", { prompt: "best crm?", paused: true });
   */
  changePrompt(id: string, body: PromptChange): Promise<Project> {
    return this.client.request("changePrompt", { params: { id }, body });
  }

  /**
   * Stops tracking one prompt (its answers so far are kept).
   * @example await sightline.projects.removePrompt("prj_…", "best crm?");
   */
  removePrompt(id: string, prompt: string): Promise<Project> {
    return this.client.request("removePrompt", { params: { id }, query: { prompt } });
  }

  /**
   * Questions a buyer in the brand's `category` would ask an AI assistant, from an engine (`sandbox` by
   * default), none naming the brand or tracked already; each with its funnel stage as a tag. Costs one
   * credit. Track the ones you want by adding them to `prompts` (and their tags to `prompt_tags`).
   * @example
   * const { data } = await sightline.projects.suggestPrompts("prj_…", { engine: "chatgpt", count: 5 });
   * await sightline.projects.update("prj_…", { prompts: [...project.prompts, data[0].prompt] });
   */
  suggestPrompts(id: string, body: PromptSuggestionsRequest = {}): Promise<PromptSuggestions> {
    return this.client.request("suggestPrompts", { params: { id }, body });
  }

  /**
   * A brand proposed from its website before it exists: name, aliases, domains, category, language,
   * country, a fact sheet, competitors and prompts, each with its `source` (a page URL, `sandbox`,
   * an engine or `answers`). Nothing is stored; create the brand with what you keep.
   * @example
   * const proposed = await sightline.projects.suggestFromWebsite({ website: "acme.com" });
   * await sightline.projects.create({ name: proposed.name?.value ?? "Acme", primary_domain: proposed.domains[0].value });
   */
  suggestFromWebsite(body: BrandSuggestionRequest): Promise<BrandSuggestion> {
    return this.client.request("suggestBrand", { body });
  }

  /**
   * What to do next: ranked, explained opportunities with the results they rest on, refreshed after
   * every analysis (wrong facts, warnings, drops, where competitors win, citation and search gaps).
   * @example const { data } = await sightline.projects.opportunities("prj_…", { kind: "citation_gap" });
   */
  opportunities(id: string, query: ListOpportunitiesQuery = {}): Promise<Opportunities> {
    return this.client.request("listOpportunities", { params: { id }, query });
  }

  /**
   * What the brand's own access logs say: AI bot hits per bot and verification, visits referred per
   * engine, and both per day (imported with `sightline traffic import`).
   * @example const { totals, bots } = await sightline.projects.traffic("prj_…", { engine: "chatgpt", verified: true });
   */
  traffic(id: string, query: GetProjectTrafficQuery = {}): Promise<Traffic> {
    return this.client.request("getProjectTraffic", { params: { id }, query });
  }

  /**
   * Pushes a batch of the brand's access-log lines (plain text, or gzipped bytes) and answers what
   * they counted to; the same bytes pushed twice are counted once (`duplicate: true`).
   * @example const counted = await sightline.projects.importTrafficLogs("prj_…", await readFile("access.log.gz"));
   */
  importTrafficLogs(
    id: string,
    lines: string | Uint8Array | Blob,
    options: {
      format?: ImportProjectTrafficLogsQuery["format"];
      contentType?: "text/plain" | "application/x-ndjson";
    } = {},
  ): Promise<TrafficImport> {
    return this.client.request("importProjectTrafficLogs", {
      params: { id },
      query: options.format === undefined ? {} : { format: options.format },
      body: lines,
      ...(options.contentType === undefined ? {} : { contentType: options.contentType }),
    });
  }

  /**
   * Whether AI crawlers may read the brand's domains: robots.txt per AI bot (with the line that
   * decides), llms.txt, and the statuses each bot was served lately.
   * @example const { domains } = await sightline.projects.access("prj_…");
   */
  access(id: string): Promise<TrafficAccess> {
    return this.client.request("getProjectAccess", { params: { id } });
  }

  /**
   * Connects (or replaces) the brand's GA4 property, read with a service account, as a second
   * source of AI referrals; the key is stored encrypted and never answered back.
   * @example await sightline.projects.connectGa4("prj_…", { property_id: "123456789", service_account_key: JSON.parse(keyFile) });
   */
  connectGa4(id: string, body: TrafficGa4Connect): Promise<TrafficGa4Connection> {
    return this.client.request("connectProjectTrafficGa4", { params: { id }, body });
  }

  /** The brand's GA4 connection (without its key), with its last sync and last error. */
  ga4(id: string): Promise<TrafficGa4Connection> {
    return this.client.request("getProjectTrafficGa4", { params: { id } });
  }

  /** Disconnects GA4: the key is deleted; visits already counted stay. */
  disconnectGa4(id: string): Promise<TrafficGa4ConnectionDeleted> {
    return this.client.request("disconnectProjectTrafficGa4", { params: { id } });
  }

  /**
   * Syncs AI referrals from GA4 now, for the last `days` days; syncing again never counts twice.
   * @example const { referrals, engines } = await sightline.projects.syncGa4("prj_…", { days: 30 });
   */
  syncGa4(id: string, body: TrafficGa4SyncRequest = {}): Promise<TrafficGa4Sync> {
    return this.client.request("syncProjectTrafficGa4", { params: { id }, body });
  }

  /**
   * The brand's pages joined page by page: AI bot crawls, citations by engine and AI-referred visits.
   * @example const { data } = await sightline.projects.trafficPages("prj_…", { limit: 20 });
   */
  trafficPages(id: string, query: GetProjectTrafficPagesQuery = {}): Promise<TrafficPages> {
    return this.client.request("getProjectTrafficPages", { params: { id }, query });
  }

  /**
   * The brand's and each competitor's figures over time, per engine and overall, from stored counts.
   * @example const { total, series } = await sightline.projects.metrics("prj_…", { interval: "week", tag: "persona:cto" });
   */
  metrics(id: string, query: GetProjectMetricsQuery = {}): Promise<ProjectMetrics> {
    return this.client.request("getProjectMetrics", { params: { id }, query });
  }

  /**
   * Figures for each prompt × engine in the period (the dashboard's heat map).
   * @example const { data } = await sightline.projects.promptMetrics("prj_…", { engine: "chatgpt" });
   */
  promptMetrics(id: string, query: GetPromptMetricsQuery = {}): Promise<PromptMetrics> {
    return this.client.request("getPromptMetrics", { params: { id }, query });
  }

  /**
   * The domains and URLs engines cite for the brand's prompts: whose they are, how often, and the trend.
   * @example const { domains, urls } = await sightline.projects.sources("prj_…", { limit: 10 });
   */
  sources(id: string, query: GetProjectSourcesQuery = {}): Promise<ProjectSources> {
    return this.client.request("getProjectSources", { params: { id }, query });
  }

  /**
   * The web searches engines ran while answering the brand's prompts (query fan-out): how often, on
   * which engines, and whether each names the brand or a competitor.
   * @example const { data } = await sightline.projects.searches("prj_…", { engine: "chatgpt", limit: 20 });
   */
  searches(id: string, query: GetProjectSearchesQuery = {}): Promise<ProjectSearches> {
    return this.client.request("getProjectSearches", { params: { id }, query });
  }

  /**
   * Brands the period's answers name that the project does not track yet (list items, table rows,
   * bold names, "X vs Y"), with how many answers name each, their visibility and list position.
   * @example const { data } = await sightline.projects.competitorSuggestions("prj_…", { limit: 10 });
   */
  competitorSuggestions(id: string, query: GetCompetitorSuggestionsQuery = {}): Promise<CompetitorSuggestions> {
    return this.client.request("getCompetitorSuggestions", { params: { id }, query });
  }

  /**
   * Starts tracking a brand as a competitor (emits `project.updated`); a name already tracked is refused.
   * @example await sightline.projects.trackCompetitor("prj_…", { name: "Zoho CRM", domains: ["zoho.com"] });
   */
  trackCompetitor(id: string, body: CompetitorInput): Promise<Project> {
    return this.client.request("trackCompetitor", { params: { id }, body });
  }

  /**
   * The brand against its competitors, with the change from the period before and whether it is real.
   * @example const { data } = await sightline.projects.competitors("prj_…");
   */
  competitors(id: string, query: GetCompetitorLeaderboardQuery = {}): Promise<CompetitorLeaderboard> {
    return this.client.request("getCompetitorLeaderboard", { params: { id }, query });
  }

  /**
   * Queues a re-measure of the brand's stored answers under the current measurement and the brand's
   * current settings (optionally only those stored in `[from, to)`). One at a time per brand.
   * @example const { id } = await sightline.projects.remeasure("prj_…", { from: "2026-11-01" });
   */
  remeasure(id: string, body: RemeasureCreate = {}): Promise<Remeasure> {
    return this.client.request("remeasureProject", { params: { id }, body });
  }

  /** @example const { status, done, total } = await sightline.projects.retrieveRemeasure("prj_…", "rem_…"); */
  retrieveRemeasure(id: string, remeasureId: string): Promise<Remeasure> {
    return this.client.request("getRemeasure", { params: { id, remeasure_id: remeasureId } });
  }

  /** @example const { data } = await sightline.projects.listRemeasures("prj_…"); */
  listRemeasures(id: string, query: ListRemeasuresQuery = {}): Promise<RemeasureList> {
    return this.client.request("listRemeasures", { params: { id }, query });
  }

  /**
   * Polls until the re-measure is completed or failed.
   * @example const done = await sightline.projects.waitRemeasure("prj_…", (await sightline.projects.remeasure("prj_…")).id);
   */
  async waitRemeasure(
    id: string,
    remeasureId: string,
    options: { intervalMs?: number; timeoutMs?: number } = {},
  ): Promise<Remeasure> {
    const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
    for (;;) {
      const remeasure = await this.retrieveRemeasure(id, remeasureId);
      if (remeasure.status === "completed" || remeasure.status === "failed") return remeasure;
      if (Date.now() > deadline)
        throw new Error(`remeasure ${remeasureId} still ${remeasure.status} after the timeout`);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1_000));
    }
  }
}
