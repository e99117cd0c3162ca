import Type from "typebox";
import { component, Dictionary, Nullable, Timestamp } from "../../lib/schema.ts";

const Counts = (description: string) => Dictionary(Type.Integer({ minimum: 0 }), { description });

export const UsageSchema = component(
  "Usage",
  Type.Object(
    {
      object: Type.Literal("usage"),
      workspace_id: Type.String(),
      plan: Type.String({ description: "The workspace's plan." }),
      period: Type.Object(
        { start: Timestamp, end: Timestamp },
        {
          additionalProperties: false,
          description: "The current billing period, [start, end), anchored on the workspace's billing date.",
        },
      ),
      requests: Type.Object(
        {
          total: Type.Integer({ minimum: 0, description: "API requests this period, refused ones included." }),
          by_endpoint: Counts("Requests by endpoint, e.g. `GET /v1/projects`."),
        },
        {
          additionalProperties: false,
          description:
            "Request counts are written every second; the last second of other API processes may be missing.",
        },
      ),
      credits: Type.Object(
        {
          allowance: Type.Integer({ minimum: 0, description: "Credits the plan includes per period." }),
          used: Type.Integer({ minimum: 0, description: "Credits reserved or spent this period." }),
          remaining: Type.Integer({ minimum: 0 }),
          by_engine: Counts("Credits used by answers, by engine."),
          judge: Type.Integer({
            minimum: 0,
            description:
              "Credits used by calls to the judge engine (`SIGHTLINE_JUDGE_ENGINE`), one per call; included in `used`, not in `by_engine`.",
          }),
        },
        {
          additionalProperties: false,
          description:
            "One credit is one answer from one engine (one prompt × one engine × one sample), or one call to the judge.",
        },
      ),
      rate_limit: Type.Object(
        {
          enabled: Type.Boolean({ description: "False when the operator turned rate limits off." }),
          limit: Nullable(Type.Integer({ description: "Requests allowed per window." })),
          remaining: Nullable(Type.Integer({ description: "Requests left in the current window." })),
          reset: Nullable(Type.Integer({ description: "Unix time (seconds) at which the window resets." })),
          window_seconds: Nullable(Type.Integer()),
        },
        { additionalProperties: false, description: "The rate-limit window as of this request." },
      ),
    },
    { additionalProperties: false, description: "API usage for the current billing period." },
  ),
);

export const UsageQuery = Type.Object({}, { additionalProperties: false });
