import type { Sightline } from "../client.ts";
import type { Usage } from "../generated/schemas.ts";

/** API usage: `sightline.usage`. */
export class UsageResource {
  constructor(private readonly client: Sightline) {}

  /**
   * Requests, credits and the rate-limit window of the current billing period.
   * @example const { credits } = await sightline.usage.retrieve(); console.log(credits.remaining);
   */
  retrieve(): Promise<Usage> {
    return this.client.request("getUsage");
  }
}
