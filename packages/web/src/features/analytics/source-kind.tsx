import { Badge } from "../../components/ui/badge.tsx";
import { CATEGORY_LABELS, type CITATION_CATEGORIES } from "../../generated/labels.ts";

export type SourceKind = "brand" | "competitor" | "other";

export const KIND_COLOR: Record<SourceKind, string> = { brand: "#2f4aa8", competitor: "#c2410c", other: "#71717a" };

/**
 * Whose a cited domain is, as people read it. A site of neither the brand nor a competitor is a
 * third party's, never "Other": that word is the classifier's category of a site of no known kind
 * (CATEGORY_LABEL), and one page showed both (issue 24).
 */
export const KIND_NAME: Record<SourceKind, string> = {
  brand: "Your brand",
  competitor: "Competitor",
  other: "Third party",
};

/** Whose a cited domain is: the brand's own, a competitor's, or a third party's. */
export function SourceKindBadge({ kind, competitor }: { kind: SourceKind; competitor: string | null }) {
  if (kind === "brand") return <Badge variant="success">{KIND_NAME.brand}</Badge>;
  if (kind === "competitor")
    return <Badge variant="warning">{competitor ? `Competitor: ${competitor}` : KIND_NAME.competitor}</Badge>;
  return <Badge variant="muted">{KIND_NAME.other}</Badge>;
}

export type SourceCategory = (typeof CITATION_CATEGORIES)[number];

/** The classifier's categories (docs/analytics-api.md) as people read them: the server's labels. */
export const CATEGORY_LABEL: Record<SourceCategory, string> = CATEGORY_LABELS;

/** What kind of source a cited domain is; owned and competitor are already said by its kind badge. */
export function SourceCategoryBadge({ category }: { category: SourceCategory }) {
  if (category === "owned" || category === "competitor") return null;
  return <Badge variant="outline">{CATEGORY_LABEL[category]}</Badge>;
}
