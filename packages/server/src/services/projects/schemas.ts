import Type from "typebox";
import { component, Dictionary, ListOf, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
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

/**
 * What the brand's answers are checked against (opportunities: facts engines get wrong). Each fact
 * is optional; an empty object checks nothing.
 */
export const FactSheetSchema = component(
  "FactSheet",
  Type.Object(
    {
      founded_year: Type.Optional(
        Type.Integer({ minimum: 1600, maximum: 2100, description: "The year the company was founded." }),
      ),
      headquarters: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 120,
          description: "Where the company is headquartered, city first: `Austin, Texas`.",
        }),
      ),
      starting_price: Type.Optional(
        Type.Object(
          {
            amount: Type.Number({ minimum: 0, maximum: 10_000_000, description: "The lowest paid price." }),
            currency: Type.String({ pattern: "^[A-Z]{3}$", description: "ISO 4217, e.g. `USD`." }),
            period: Type.Optional(StringEnum(["month", "year", "once"] as const)),
          },
          { additionalProperties: false, description: "The lowest paid plan's price." },
        ),
      ),
      free_plan: Type.Optional(Type.Boolean({ description: "Whether there is a free plan." })),
      features: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 80 }), {
          maxItems: 20,
          description: "Key features, in a few words each: `Slack integration`, `mobile app`.",
        }),
      ),
    },
    {
      additionalProperties: false,
      description:
        "The brand's fact sheet: answers that state otherwise (a wrong founding year, headquarters or price, a listed feature said to be missing) become opportunities.",
    },
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
  prompt_tags: Dictionary(
    Type.Array(Type.String({ minLength: 1, maxLength: limits.tagLength }), { maxItems: limits.tagsPerPrompt }),
    {
      maxProperties: limits.prompts,
      description: `Tags of the tracked prompts: prompt → up to ${limits.tagsPerPrompt} tags, e.g. \`{"best crm for agencies": ["persona:agency owner", "funnel:consideration"]}\`. A tag is stored lower-case and trimmed, 1–${limits.tagLength} letters, digits, spaces, \`-\`, \`_\` or \`:\`; topic, persona or funnel stage are just tags. Every key must be one of \`prompts\`. Analytics take \`tag=\` to keep the answers to the prompts carrying a tag.`,
    },
  ),
  paused_prompts: Type.Array(Type.String({ minLength: 1, maxLength: limits.promptLength }), {
    maxItems: limits.prompts,
    description:
      "Tracked prompts switched off: monitoring runs and analyses that default to the project's prompts do not ask them; their answers so far still count. Each must be one of `prompts`.",
  }),
  category: Nullable(
    Type.String({
      minLength: 1,
      maxLength: limits.categoryLength,
      description:
        "What the brand sells, as a buyer would say it, e.g. `CRM for small agencies`. Prompt suggestions start from it.",
    }),
  ),
  facts: FactSheetSchema,
  engines: Type.Array(EngineName, {
    minItems: 1,
    maxItems: ENGINES.length,
    description: "Engines analyses use by default. Each must be in the workspace's plan.",
  }),
  country: Nullable(Country),
  countries: Type.Array(Country, {
    maxItems: 10,
    uniqueItems: true,
    description:
      "Countries the brand is tracked in at once (extension, issue 29): each prompt is asked as from each of them, on every engine that can be placed there (an engine that cannot is not asked, and its answer says why). Empty: `country` alone.",
  }),
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
      // Always sent; optional in the type so that clients' code from before they existed still compiles.
      prompt_tags: Type.Optional(
        Dictionary(Type.Array(Type.String()), { description: "Tags of the tracked prompts (prompt → tags)." }),
      ),
      paused_prompts: Type.Optional(
        Type.Array(Type.String(), { description: "Tracked prompts switched off: not asked by monitoring runs." }),
      ),
      category: Type.Optional(Nullable(Type.String({ description: "What the brand sells, as a buyer would say it." }))),
      facts: Type.Optional(FactSheetSchema),
      engines: Type.Array(Type.String()),
      country: Nullable(Type.String()),
      countries: Type.Array(Type.String(), {
        description: "Countries the brand is tracked in at once; empty: `country` alone. Extension.",
      }),
      language: Nullable(Type.String()),
      created_at: Timestamp,
      updated_at: Timestamp,
      deleted_at: Type.Optional(
        Type.String({
          format: "date-time",
          description: "Only on a deleted brand (`deleted=true`): when it was deleted. Extension.",
        }),
      ),
      purge_at: Type.Optional(
        Type.String({
          format: "date-time",
          description:
            "Only on a deleted brand: until when `POST /projects/:id/restore` brings it back; then it and its data are purged. Extension.",
        }),
      ),
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
      prompt_tags: Type.Optional(settings.prompt_tags),
      paused_prompts: Type.Optional(settings.paused_prompts),
      category: Type.Optional(settings.category),
      facts: Type.Optional(settings.facts),
      engines: Type.Optional(settings.engines),
      country: Type.Optional(settings.country),
      countries: Type.Optional(settings.countries),
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
      prompt_tags: Type.Optional(settings.prompt_tags),
      paused_prompts: Type.Optional(settings.paused_prompts),
      category: Type.Optional(settings.category),
      facts: Type.Optional(settings.facts),
      engines: Type.Optional(settings.engines),
      country: Type.Optional(settings.country),
      countries: Type.Optional(settings.countries),
      language: Type.Optional(settings.language),
    },
    {
      additionalProperties: false,
      description:
        "Fields to change; fields left out keep their value, arrays, `prompt_tags` and `facts` are replaced whole. A prompt removed from `prompts` loses its tags and its pause.",
    },
  ),
);

export const ProjectListSchema = ListOf("ProjectList", ProjectSchema);

/** `tag=` of the analytics and results: the answers to the prompts carrying a tag (`prompt_tags`). */
export const TagQuery = Type.String({
  minLength: 1,
  maxLength: limits.tagLength,
  description:
    "Only the answers to the prompts that carry this tag now (the project's `prompt_tags`, case ignored); a tag no prompt carries keeps no answer.",
});

export const ProjectListQuery = Type.Object(
  {
    ...PageQuery,
    deleted: Type.Optional(
      Type.Boolean({
        description:
          "`true`: the deleted brands that can still be restored (with `deleted_at` and `purge_at`) instead of the live ones. Extension.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ProjectDeletedSchema = component(
  "ProjectDeleted",
  Type.Object(
    {
      id: Type.String(),
      object: Type.Literal("project"),
      deleted: Type.Literal(true),
      deleted_at: Timestamp,
      purge_at: Type.String({
        format: "date-time",
        description: "Until when the brand can be restored; then it and its data are purged.",
      }),
    },
    { additionalProperties: false },
  ),
);

const PromptText = Type.String({ minLength: 1, maxLength: limits.promptLength });
const PromptTags = Type.Array(Type.String({ minLength: 1, maxLength: limits.tagLength }), {
  maxItems: limits.tagsPerPrompt,
  description: "The prompt's tags, replacing those it had.",
});

export const PromptAddSchema = component(
  "PromptAdd",
  Type.Object(
    {
      prompt: PromptText,
      tags: Type.Optional(PromptTags),
      paused: Type.Optional(Type.Boolean({ description: "Tracked but not asked by monitoring runs." })),
    },
    { additionalProperties: false },
  ),
);

export const PromptChangeSchema = component(
  "PromptChange",
  Type.Object(
    {
      prompt: Type.String({
        minLength: 1,
        maxLength: limits.promptLength,
        description: "The tracked prompt to change, as it is now (case, width and spacing ignored).",
      }),
      text: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: limits.promptLength,
          description:
            "Its new wording. The answers so far keep the wording they were asked with; only new answers are to the new one. Its tags and pause follow it.",
        }),
      ),
      tags: Type.Optional(PromptTags),
      paused: Type.Optional(Type.Boolean({ description: "Switch the prompt off (`true`) or back on." })),
    },
    { additionalProperties: false },
  ),
);

export const PromptRemoveQuery = Type.Object(
  {
    prompt: Type.String({
      minLength: 1,
      maxLength: limits.promptLength,
      description:
        "The tracked prompt to stop tracking (case, width and spacing ignored). Its answers so far are kept.",
    }),
  },
  { additionalProperties: false },
);
