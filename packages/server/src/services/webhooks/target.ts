import { type ErrorDetail, validationError } from "../../errors/api-error.ts";
import { type HostResolver, isIpLiteral, isPublicAddress } from "../../lib/addresses.ts";

export interface TargetPolicy {
  /** SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: local development and tests only. */
  allowPrivate: boolean;
  resolver: HostResolver;
}

/**
 * Checks a subscription's URL when it is created or changed: http(s), no credentials, and a host
 * whose every address is public. The same check runs again on the address actually connected to
 * at each delivery (transport.ts), so a name that later resolves elsewhere is caught there.
 */
export async function checkTargetUrl(raw: string, policy: TargetPolicy, field = "url"): Promise<string> {
  const fail = (issue: string): never => {
    const details: ErrorDetail[] = [{ field, issue }];
    throw validationError(details);
  };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail("must be an absolute http or https URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") fail("must use http or https");
  if (url.username !== "" || url.password !== "") fail("must not carry credentials");
  if (url.hash !== "") fail("must not have a fragment");
  if (url.port === "0") fail("must not use port 0");
  if (policy.allowPrivate) return url.toString();

  const host = url.hostname;
  let addresses: string[];
  if (isIpLiteral(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await policy.resolver.resolve(host);
    } catch {
      return fail(`host '${host}' does not resolve`);
    }
  }
  if (addresses.length === 0) fail(`host '${host}' does not resolve`);
  const blocked = addresses.find((address) => !isPublicAddress(address));
  if (blocked !== undefined) {
    fail(
      `points to ${blocked}, which is not a public address (loopback, private, link-local and reserved ranges are refused)`,
    );
  }
  return url.toString();
}
