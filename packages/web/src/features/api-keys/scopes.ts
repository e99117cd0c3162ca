import type { Scope } from "../../lib/types.ts";

/** The API's eight scopes, in the order of the spec, with what each grants in plain words. */
export const SCOPES: readonly { scope: Scope; label: string; grants: string }[] = [
  {
    scope: "read",
    label: "Read",
    grants: "Read-only access to every GET endpoint. Grants nothing that creates, spends or deletes.",
  },
  { scope: "analyze", label: "Analyze", grants: "Run AI visibility analyses" },
  { scope: "projects", label: "Projects", grants: "Create and list projects (brands)" },
  { scope: "results", label: "Results", grants: "Read analysis results" },
  { scope: "reports", label: "Reports", grants: "Access generated reports" },
  { scope: "monitoring", label: "Monitoring", grants: "Manage monitoring schedules" },
  { scope: "webhooks", label: "Webhooks", grants: "Create and manage webhooks" },
  { scope: "usage", label: "Usage", grants: "View usage statistics" },
];
