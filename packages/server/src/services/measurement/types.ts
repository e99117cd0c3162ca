import type { Static } from "typebox";
import type { CategoryOverride } from "./citation-category.ts";
import type { AnswerMeasureSchema, BrandMeasureSchema, CitationFoundSchema } from "./schemas.ts";

/** A tracked brand as the measurement sees it: the project's own, or a competitor. */
export interface BrandSpec {
  name: string;
  aliases: string[];
  domains: string[];
  /** Aliases matched with their exact case only ("SAP" but not "sap your energy"). */
  case_sensitive_aliases?: string[];
}

export interface MeasuredProject {
  brand: BrandSpec;
  competitors: BrandSpec[];
  /** Phrases in which a tracked name does not count ("Delta variant", "square feet"). */
  exclusions?: string[];
  /** The language the project's prompts are written in (BCP 47), when known. */
  language?: string | null;
  /** The project's own categories for cited domains, applied before the built-in list. */
  citation_categories?: CategoryOverride[];
}

/** An answer to measure; `prompt` is evidence for what kind of product is being asked about. */
export interface AnswerInput {
  text: string;
  citations: SourceCitation[];
  prompt?: string;
}

/** Rulings from outside the rules (a judge), overriding them where given. */
export interface MeasureOptions {
  /** Brand or competitor name → whether it is meant in this answer. */
  verdicts?: ReadonlyMap<string, boolean>;
  /** The brand's tone in [-1, 1], replacing the rules' sentiment. */
  tone?: number;
}

export interface SourceCitation {
  url: string;
  title: string | null;
}

/** A cited source as measured: its domain, and whether it is the brand's or a competitor's. */
export type CitationFound = Static<typeof CitationFoundSchema>;

export type BrandMeasure = Static<typeof BrandMeasureSchema>;

/** One answer, measured (what `results.measure` stores). */
export type AnswerMeasure = Static<typeof AnswerMeasureSchema>;
