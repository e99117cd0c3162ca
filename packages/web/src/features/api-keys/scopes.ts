import { SCOPE_LABELS, SCOPES as SCOPE_NAMES } from "../../generated/labels.ts";
import type { Scope } from "../../lib/types.ts";

/** The API's eight scopes, in the order of the spec, with what each grants in plain words (the server's labels). */
export const SCOPES: readonly { scope: Scope; label: string; grants: string }[] = SCOPE_NAMES.map((scope) => ({
  scope,
  ...SCOPE_LABELS[scope],
}));
