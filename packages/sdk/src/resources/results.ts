import type { Sightline } from "../client.ts";
import type { ListResultsQuery } from "../generated/operations.ts";
import type { Result, ResultList } from "../generated/schemas.ts";
import { paginate } from "../pagination.ts";

/** Scored results: `sightline.results`. */
export class Results {
  constructor(private readonly client: Sightline) {}

  /** @example const page = await sightline.results.list({ project_id: "prj_…", engine: "chatgpt", from: "2026-11-01" }); */
  list(query: ListResultsQuery = {}): Promise<ResultList> {
    return this.client.request("listResults", { query });
  }

  listAll(query: Omit<ListResultsQuery, "cursor"> = {}): AsyncIterable<Result> {
    return paginate((cursor) => this.list({ ...query, ...(cursor === undefined ? {} : { cursor }) }));
  }

  retrieve(id: string): Promise<Result> {
    return this.client.request("getResult", { params: { id } });
  }
}
