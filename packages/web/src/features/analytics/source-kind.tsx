import { Badge } from "../../components/ui/badge.tsx";
import { CATEGORY_LABELS, type CITATION_CATEGORIES } from "../../generated/labels.ts";

export type SourceKind = "brand" | "competitor" | "other";

export const KIND_COLOR: Record<SourceKind, string> = { brand: "#2f4aa8", competitor: "#c2410c", other: "#71717a" };

/** Whose a cited domain is: the brand's own, a competitor's, or anyone else's. */
export function SourceKindBadge({ kind, competitor }: { kind: SourceKind; competitor: string | null }) {
  if (kind === "brand") return <Badge variant="success">Your brand</Badge>;
  if (kind === "competitor")
    return <Badge variant="warning">{competitor ? `Competitor: ${competitor}` : "Competitor"}</Badge>;
  return <Badge variant="muted">Other</Badge>;
}

export type SourceCategory = (typeof CITATION_CATEGORIES)[number];

/** The classifier's categories (docs/analytics-api.md) as people read them: the server's labels. */
export const CATEGORY_LABEL: Record<SourceCategory, string> = CATEGORY_LABELS;

/** What kind of source a cited domain is; owned and competitor are already said by its kind badge. */
export function SourceCategoryBadge({ category }: { category: SourceCategory }) {
  if (category === "owned" || category === "competitor") return null;
  return <Badge variant="outline">{CATEGORY_LABEL[category]}</Badge>;
}
