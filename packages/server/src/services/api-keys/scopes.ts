/** The spec's eight scopes, exactly. */
export const SCOPES = ["read", "analyze", "projects", "results", "reports", "monitoring", "webhooks", "usage"] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Whether a key holding `granted` may call an endpoint governed by `required`.
 * `read` opens every GET endpoint and nothing that creates, spends or deletes.
 */
export function scopeAllows(granted: readonly Scope[], required: Scope, method: string): boolean {
  if (granted.includes(required)) return true;
  return method === "GET" && granted.includes("read");
}
