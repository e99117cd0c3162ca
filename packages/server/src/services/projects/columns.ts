import Type from "typebox";
import { storedAs } from "../validate.ts";
import { CitationCategoryOverrideSchema, CompetitorSchema } from "./schemas.ts";

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
  engines: storedAs("projects.engines", Type.Array(Type.String())),
};
