import type { Static } from "typebox";
import type { AnswerMeasureSchema, BrandMeasureSchema, CitationFoundSchema } from "./schemas.ts";

/** A tracked brand as the measurement sees it: the project's own, or a competitor. */
export interface BrandSpec {
  name: string;
  aliases: string[];
  domains: string[];
}

export interface MeasuredProject {
  brand: BrandSpec;
  competitors: BrandSpec[];
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
