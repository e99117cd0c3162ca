/**
 * An OAuth error as RFC 6749 §5.2 and RFC 7591 §3.2.2 spell them (`{error, error_description}`),
 * not the API's envelope: OAuth clients read these. `back` is set on an authorization request's
 * error that goes back to the client's redirect URI, once the client and that URI are known good.
 */
export class OAuthFailure extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly back: { redirectUri: string; state: string | null } | null = null,
  ) {
    super(description);
  }
}
