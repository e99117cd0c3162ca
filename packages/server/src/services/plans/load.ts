import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import Type, { type Static } from "typebox";
import { parse as parseYaml } from "yaml";
import { ENGINES, type EngineName, isEngineName } from "../engines/catalog.ts";
import { PLAN_NAMES, type PlanName } from "../plan-names.ts";
import { DEFAULT_PLANS, type Plan, type PlanCatalog } from "./catalog.ts";

const PlanOverride = Type.Object(
  {
    api_access: Type.Optional(Type.Boolean()),
    requests_per_minute: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
    credits_per_month: Type.Optional(Type.Integer({ minimum: 0 })),
    engines: Type.Optional(
      Type.Union([Type.Literal("all"), Type.Array(Type.String({ pattern: "^[a-z][a-z0-9_]{0,39}$" }))]),
    ),
  },
  { additionalProperties: false },
);

const CatalogFile = Type.Object(
  Object.fromEntries(PLAN_NAMES.map((name) => [name, Type.Optional(PlanOverride)])) as Record<
    PlanName,
    ReturnType<typeof Type.Optional<typeof PlanOverride>>
  >,
  { additionalProperties: false },
);

const validate = new Ajv({ allErrors: true, strict: false }).compile<Static<typeof CatalogFile>>(CatalogFile);

/**
 * Reads a plan catalog override (JSON, or YAML when the file ends in .yaml/.yml). Each of the four
 * plans may override any of its fields; plans and fields left out keep DESIGN.md's defaults.
 * Throws an Error whose message says what is wrong and where.
 */
export function loadPlanCatalog(path: string, customEngines: string[] = []): PlanCatalog {
  const text = readFileSync(path, "utf8");
  let data: unknown;
  try {
    data = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new Error(`cannot be parsed: ${(error as Error).message.split("\n")[0]}`);
  }
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
    throw new Error(`is not a valid plan catalog: ${problems.join("; ")}`);
  }
  const catalog = { ...DEFAULT_PLANS } as Record<PlanName, Plan>;
  for (const name of PLAN_NAMES) {
    const override = data[name];
    if (override === undefined) continue;
    const base = DEFAULT_PLANS[name];
    const unknownEngine =
      override.engines === undefined || override.engines === "all"
        ? undefined
        : override.engines.find((engine) => !isEngineName(engine) && !customEngines.includes(engine));
    if (unknownEngine !== undefined) {
      throw new Error(
        `is not a valid plan catalog: /${name}/engines names '${unknownEngine}', which is no engine of this server`,
      );
    }
    const apiAccess = override.api_access ?? base.apiAccess;
    const requestsPerMinute =
      override.requests_per_minute === undefined ? base.requestsPerMinute : override.requests_per_minute;
    if (apiAccess && requestsPerMinute === null) {
      throw new Error(`is not a valid plan catalog: /${name} has API access but no requests_per_minute`);
    }
    catalog[name] = {
      name,
      apiAccess,
      requestsPerMinute,
      creditsPerMonth: override.credits_per_month ?? base.creditsPerMonth,
      engines:
        override.engines === undefined
          ? base.engines
          : override.engines === "all"
            ? ENGINES
            : (override.engines as EngineName[]),
      allEngines: override.engines === undefined ? base.allEngines : override.engines === "all",
    };
  }
  return catalog;
}
