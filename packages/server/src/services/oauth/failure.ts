/**
 * An OAuth error as RFC 6749 §5.2 and RFC 7591 §3.2.2 spell them (`{error, error_description}`),
 * not the API's envelope: OAuth clients read these.
 */
export class OAuthFailure extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}
