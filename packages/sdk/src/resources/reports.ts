import type { Sightline } from "../client.ts";
import type { ListReportsQuery } from "../generated/operations.ts";
import type { Report, ReportList, ReportShare, ReportShareList } from "../generated/schemas.ts";

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

  /** The report as a PDF document (A4, charts included). */
  async pdf(id: string): Promise<Uint8Array> {
    const body: unknown = await this.client.request("getReport", { params: { id }, query: { format: "pdf" } });
    return body as Uint8Array;
  }

  /** A link opening the report without an account, for `expires_in_days` (30 by default) or until revoked. */
  share(id: string, options: { expires_in_days?: number } = {}): Promise<ReportShare> {
    return this.client.request("createReportShare", { params: { id }, body: options });
  }

  /** The report's links, newest first, revoked and expired ones included. */
  shares(id: string): Promise<ReportShareList> {
    return this.client.request("listReportShares", { params: { id } });
  }

  /** Takes a link back: it answers 404 from now on. */
  revokeShare(id: string, shareId: string): Promise<ReportShare> {
    return this.client.request("revokeReportShare", { params: { id, share_id: shareId } });
  }
}
