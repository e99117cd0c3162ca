import Type from "typebox";
import { component, Patterned } from "../lib/schema.ts";
import { ANALYSIS_LIMITS, PROJECT_LIMITS } from "./limits.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./pagination.ts";

/** Shapes more than one feature's schemas use. */

/**
 * An engine's name. Which names exist depends on the server (the operator's custom engines too),
 * so the service checks them; the OpenAPI document lists this server's names as the component's
 * `enum`, so that a generated client sends only valid ones.
 */
export const EngineName = component(
  "EngineName",
  Type.String({ maxLength: 40, description: "An engine this server knows." }),
);

/** Engines a request picks for a run. */
export function EngineList(description: string) {
  return Type.Array(EngineName, { minItems: 1, maxItems: 32, description });
}

/**
 * What the server takes as a domain (`lib/domains.ts` then normalises it): a host name of two
 * labels or more, bare (`acme.com`, `www.acme.com`, `bücher.de`) or as an http(s) URL.
 */
const HOST = "(?:[A-Za-z0-9\\u00a1-\\uffff-]{1,63}\\.)+[A-Za-z0-9\\u00a1-\\uffff-]{2,63}\\.?";
const DOMAIN_PATTERN = `^(?:${HOST}|[Hh][Tt][Tt][Pp][Ss]?://${HOST}(?::[0-9]{1,5})?(?:[/?#][^\\s]*)?)$`;

export const DomainName = Patterned(DOMAIN_PATTERN, "must be a domain name such as example.com", {
  maxLength: 300,
  description: "A domain such as `acme.com`; URLs are accepted and reduced to their host, `www.` is dropped.",
});

/** Prompts a request asks in a run, as long and as many as a project may track. */
export function PromptList(description: string) {
  return Type.Array(Type.String({ minLength: 1, maxLength: PROJECT_LIMITS.promptLength }), {
    minItems: 1,
    maxItems: ANALYSIS_LIMITS.prompts,
    description,
  });
}

export const PageQuery = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
      description: `Page size, 1 to ${MAX_PAGE_SIZE}.`,
    }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: "The `next_cursor` of the previous page." })),
};
