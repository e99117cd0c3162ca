import Type from "typebox";
import { Dictionary } from "../../lib/schema.ts";
import { storedAs } from "../validate.ts";
import { CitationCategoryOverrideSchema, CompetitorSchema, FactSheetSchema } from "./schemas.ts";

/** The JSON columns of `projects`, read through their schemas. */
export const projectColumns = {
  otherDomains: storedAs("projects.other_domains", Type.Array(Type.String())),
  aliases: storedAs("projects.aliases", Type.Array(Type.String())),
  caseSensitiveAliases: storedAs("projects.case_sensitive_aliases", Type.Array(Type.String())),
  exclusions: storedAs("projects.exclusions", Type.Array(Type.String())),
  citationCategories: storedAs("projects.citation_categories", Type.Array(CitationCategoryOverrideSchema)),
  // Entries stored before case-sensitive aliases existed lack them (read as []).
  competitors: storedAs("projects.competitors", Type.Array(CompetitorSchema)),
  prompts: storedAs("projects.prompts", Type.Array(Type.String())),
  promptTags: storedAs("projects.prompt_tags", Dictionary(Type.Array(Type.String()))),
  pausedPrompts: storedAs("projects.paused_prompts", Type.Array(Type.String())),
  facts: storedAs("projects.facts", FactSheetSchema),
  engines: storedAs("projects.engines", Type.Array(Type.String())),
  countries: storedAs("projects.countries", Type.Array(Type.String())),
};
