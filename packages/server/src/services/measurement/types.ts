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

export interface CitationFound {
  url: string;
  /** Host without `www.`; for redirect URLs (Gemini), the domain the engine names as its title. */
  domain: string;
  title: string | null;
  /** Whether the URL is on one of the brand's domains. */
  brand: boolean;
  /** The competitor whose domain it is on, if any. */
  competitor: string | null;
}

export interface BrandMeasure {
  name: string;
  mentioned: boolean;
  /** 1-based rank among the tracked brands mentioned; null when not mentioned. */
  position: number | null;
  /** How many times its names appear. */
  mentions: number;
}

export interface AnswerMeasure {
  brand: BrandMeasure & {
    /** In [-1, 1] over the sentences that mention the brand; null when not mentioned. */
    sentiment: number | null;
  };
  competitors: BrandMeasure[];
  citations: CitationFound[];
  /** Whether the citations came from the engine's structured sources or from links in the text. */
  citation_source: "engine" | "text" | "none";
  brand_cited: boolean;
  /** 0–100; see score.ts. */
  score: number;
  score_version: string;
}
