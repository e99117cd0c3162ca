/**
 * Where an engine a workspace added itself may be reached: the same outbound rules as webhooks (no
 * private, loopback or link-local address unless the operator allows them), checked when its address
 * is saved and again at every connection. Implemented by webhooks/ and wired where the process is
 * assembled, so that the engines depend on no delivery code.
 */
export interface EngineOutbound {
  /** The address, normalised; VALIDATION_ERROR on `field` when the rules refuse it. */
  checkUrl(raw: string, field: string): Promise<string>;
  /** The `fetch` such an engine is asked through. */
  fetch(): typeof fetch;
}
