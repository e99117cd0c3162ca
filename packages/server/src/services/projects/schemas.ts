import Type from "typebox";
import { component, ListOf, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { ENGINES } from "../engines/catalog.ts";
import { PROJECT_LIMITS } from "../limits.ts";
import { OVERRIDABLE_CATEGORIES } from "../measurement/citation-category.ts";
import { DomainName, EngineName, PageQuery } from "../schemas.ts";

const limits = PROJECT_LIMITS;

const Domain = DomainName;
const Alias = Type.String({ minLength: 1, maxLength: 200 });
const CaseSensitiveAliases = Type.Array(Alias, {
  maxItems: limits.aliases,
  description: 'Names matched only with exactly this case, e.g. `SAP` (so that "sap your energy" does not count).',
});
const Country = Type.String({
  minLength: 2,
  maxLength: 2,
  description: "ISO 3166-1 alpha-2 country the prompts are asked from, e.g. `US`.",
});
const Language = Type.String({
  minLength: 1,
  maxLength: 35,
  description: "BCP 47 language of the prompts, e.g. `en` or `pt-BR`.",
});

export const CitationCategoryOverrideSchema = component(
  "CitationCategoryOverride",
  Type.Object(
    {
      domain: Domain,
      category: StringEnum(OVERRIDABLE_CATEGORIES, {
        description: "The category its citations get (owned and competitor come from the project's domains).",
      }),
    },
    { additionalProperties: false, description: "A cited domain (and its subdomains) put in a category." },
  ),
);

const CompetitorFields = {
  name: Type.String({ minLength: 1, maxLength: limits.nameLength, description: "The competitor's name." }),
  domains: Type.Array(Domain, { maxItems: limits.domains, description: "Its domains." }),
  aliases: Type.Array(Alias, { maxItems: limits.aliases, description: "Other names it goes by." }),
  case_sensitive_aliases: CaseSensitiveAliases,
};

export const CompetitorSchema = component(
  "Competitor",
  Type.Object(
    {
      ...CompetitorFields,
      // Always sent; optional in the type so that clients' code from before it existed still compiles.
      case_sensitive_aliases: Type.Optional(CompetitorFields.case_sensitive_aliases),
    },
    { additionalProperties: false, description: "A brand measured against this one." },
  ),
);

export const CompetitorInputSchema = component(
  "CompetitorInput",
  Type.Object(
    {
      name: CompetitorFields.name,
      domains: Type.Optional(CompetitorFields.domains),
      aliases: Type.Optional(CompetitorFields.aliases),
      case_sensitive_aliases: Type.Optional(CompetitorFields.case_sensitive_aliases),
    },
    { additionalProperties: false },
  ),
);

const settings = {
  name: Type.String({ minLength: 1, maxLength: limits.nameLength, description: "The brand's name." }),
  primary_domain: Domain,
  other_domains: Type.Array(Domain, {
    maxItems: limits.domains,
    description: "The brand's other domains; citations of any of them count as the brand's.",
  }),
  aliases: Type.Array(Alias, {
    maxItems: limits.aliases,
    description: "Other names the brand goes by (product names, abbreviations).",
  }),
  case_sensitive_aliases: CaseSensitiveAliases,
  exclusions: Type.Array(Type.String({ minLength: 1, maxLength: limits.exclusionLength }), {
    maxItems: limits.exclusions,
    description:
      "Phrases in which the brand's or a competitor's name does not count, e.g. `target audience` or `Delta variant` (matched case-insensitively).",
  }),
  citation_categories: Type.Array(CitationCategoryOverrideSchema, {
    maxItems: limits.citationCategories,
    description:
      "The project's own categories for cited domains, applied before the built-in list; the brand's and competitors' domains are always owned and competitor.",
  }),
  prompts: Type.Array(Type.String({ minLength: 1, maxLength: limits.promptLength }), {
    maxItems: limits.prompts,
    description: "Tracked prompts, asked as a user would ask them; they never name the brand to the engine.",
  }),
  engines: Type.Array(EngineName, {
    minItems: 1,
    maxItems: ENGINES.length,
    description: "Engines analyses use by default. Each must be in the workspace's plan.",
  }),
  country: Nullable(Country),
  language: Nullable(Language),
};

export const ProjectSchema = component(
  "Project",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `prj_`." }),
      object: Type.Literal("project"),
      name: settings.name,
      primary_domain: Type.String({ description: "Normalised primary domain." }),
      other_domains: Type.Array(Type.String()),
      aliases: Type.Array(Type.String()),
      // Always sent; optional in the type so that clients' code from before they existed still compiles.
      case_sensitive_aliases: Type.Optional(Type.Array(Type.String())),
      exclusions: Type.Optional(Type.Array(Type.String())),
      citation_categories: Type.Optional(Type.Array(CitationCategoryOverrideSchema)),
      competitors: Type.Array(CompetitorSchema),
      prompts: Type.Array(Type.String()),
      engines: Type.Array(Type.String()),
      country: Nullable(Type.String()),
      language: Nullable(Type.String()),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { additionalProperties: false, description: "A brand that is analysed and monitored." },
  ),
);

export const ProjectCreateSchema = component(
  "ProjectCreate",
  Type.Object(
    {
      name: settings.name,
      primary_domain: settings.primary_domain,
      other_domains: Type.Optional(settings.other_domains),
      aliases: Type.Optional(settings.aliases),
      case_sensitive_aliases: Type.Optional(settings.case_sensitive_aliases),
      exclusions: Type.Optional(settings.exclusions),
      citation_categories: Type.Optional(settings.citation_categories),
      competitors: Type.Optional(
        Type.Array(CompetitorInputSchema, { maxItems: limits.competitors, description: "Competing brands." }),
      ),
      prompts: Type.Optional(settings.prompts),
      engines: Type.Optional(settings.engines),
      country: Type.Optional(settings.country),
      language: Type.Optional(settings.language),
    },
    { additionalProperties: false },
  ),
);

export const ProjectUpdateSchema = component(
  "ProjectUpdate",
  Type.Object(
    {
      name: Type.Optional(settings.name),
      primary_domain: Type.Optional(settings.primary_domain),
      other_domains: Type.Optional(settings.other_domains),
      aliases: Type.Optional(settings.aliases),
      case_sensitive_aliases: Type.Optional(settings.case_sensitive_aliases),
      exclusions: Type.Optional(settings.exclusions),
      citation_categories: Type.Optional(settings.citation_categories),
      competitors: Type.Optional(
        Type.Array(CompetitorInputSchema, {
          maxItems: limits.competitors,
          description: "Replaces the whole list of competitors.",
        }),
      ),
      prompts: Type.Optional(settings.prompts),
      engines: Type.Optional(settings.engines),
      country: Type.Optional(settings.country),
      language: Type.Optional(settings.language),
    },
    {
      additionalProperties: false,
      description: "Fields to change; fields left out keep their value, arrays are replaced whole.",
    },
  ),
);

export const ProjectListSchema = ListOf("ProjectList", ProjectSchema);

export const ProjectListQuery = Type.Object(PageQuery, { additionalProperties: false });
