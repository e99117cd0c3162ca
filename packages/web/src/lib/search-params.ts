import { defaultParseSearch, defaultStringifySearch } from "@tanstack/react-router";

/**
 * The parameters of an OAuth authorization request, which the server hands to the consent page
 * (`/connect`) as the application sent them, and which go back to it unchanged.
 */
export const AUTHORIZATION_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "code_challenge",
  "code_challenge_method",
  "scope",
  "state",
  "resource",
] as const;

const VERBATIM: ReadonlySet<string> = new Set(AUTHORIZATION_PARAMS);

/**
 * The router's search parsing, but for the authorization request's parameters, which stay the
 * strings that came. The default reads values as JSON, so a `state` of `1e3` or of 20 digits would
 * come back as another string and the application would refuse the answer; the sign-in detour
 * (`?redirect=/connect?…`) is built from this too.
 */
export function parseSearch(searchStr: string): Record<string, unknown> {
  const search: Record<string, unknown> = { ...defaultParseSearch(searchStr) };
  for (const [name, value] of new URLSearchParams(searchStr)) {
    if (VERBATIM.has(name)) search[name] = value;
  }
  return search;
}

/** The inverse of `parseSearch`: those parameters written as the strings they are, in place. */
export function stringifySearch(search: Record<string, unknown>): string {
  const out = new URLSearchParams(defaultStringifySearch(search));
  for (const [name, value] of Object.entries(search)) {
    if (VERBATIM.has(name) && typeof value === "string") out.set(name, value);
  }
  const text = out.toString();
  return text === "" ? "" : `?${text}`;
}
