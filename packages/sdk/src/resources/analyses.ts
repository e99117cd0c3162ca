import type { Sightline } from "../client.ts";
import type { ListAnalysesQuery } from "../generated/operations.ts";
import type { Analysis, AnalysisList, AnalyzeRequest } from "../generated/schemas.ts";
import { paginate } from "../pagination.ts";

/** Analyses: `sightline.analyses`. */
export class Analyses {
  constructor(private readonly client: Sightline) {}

  /**
   * Queues an analysis (POST /v1/analyze). One credit per answer (prompts × engines × samples).
   * @example const analysis = await sightline.analyses.create({ project_id: "prj_…", engines: ["chatgpt", "perplexity"], samples: 3 });
   */
  create(body: AnalyzeRequest): Promise<Analysis> {
    return this.client.request("analyze", { body });
  }

  retrieve(id: string): Promise<Analysis> {
    return this.client.request("getAnalysis", { params: { id } });
  }

  list(query: ListAnalysesQuery = {}): Promise<AnalysisList> {
    return this.client.request("listAnalyses", { query });
  }

  listAll(query: Omit<ListAnalysesQuery, "cursor"> = {}): AsyncIterable<Analysis> {
    return paginate((cursor) => this.list({ ...query, ...(cursor === undefined ? {} : { cursor }) }));
  }

  /**
   * Polls until the analysis is completed or failed.
   * @example const done = await sightline.analyses.wait((await sightline.analyses.create({ project_id })).id);
   */
  async wait(id: string, options: { intervalMs?: number; timeoutMs?: number } = {}): Promise<Analysis> {
    const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
    for (;;) {
      const analysis = await this.retrieve(id);
      if (analysis.status === "completed" || analysis.status === "failed") return analysis;
      if (Date.now() > deadline) throw new Error(`analysis ${id} still ${analysis.status} after the timeout`);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1_000));
    }
  }
}
