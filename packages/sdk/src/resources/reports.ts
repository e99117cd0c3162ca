import type { Sightline } from "../client.ts";
import type { ListReportsQuery } from "../generated/operations.ts";
import type { Report, ReportList } from "../generated/schemas.ts";

/** Generated reports: `sightline.reports`. */
export class Reports {
  constructor(private readonly client: Sightline) {}

  list(query: ListReportsQuery = {}): Promise<ReportList> {
    return this.client.request("listReports", { query });
  }

  /** The report as JSON. For CSV or HTML, GET /v1/reports/:id?format=csv|html directly. */
  retrieve(id: string): Promise<Report> {
    return this.client.request("getReport", { params: { id } });
  }
}
