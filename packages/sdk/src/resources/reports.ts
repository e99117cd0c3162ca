import type { Sightline } from "../client.ts";
import type { ListReportsQuery } from "../generated/operations.ts";
import type { Report, ReportList } from "../generated/schemas.ts";

/** Generated reports: `sightline.reports`. */
export class Reports {
  constructor(private readonly client: Sightline) {}

  list(query: ListReportsQuery = {}): Promise<ReportList> {
    return this.client.request("listReports", { query });
  }

  /** The report as JSON. */
  retrieve(id: string): Promise<Report> {
    return this.client.request("getReport", { params: { id } });
  }

  /** The report as text: `csv` (its results table) or `html` (a printable page with charts). */
  async download(id: string, format: "csv" | "html"): Promise<string> {
    const body: unknown = await this.client.request("getReport", { params: { id }, query: { format } });
    return body as string;
  }
}
