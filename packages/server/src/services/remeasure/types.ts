import type { Static } from "typebox";
import type { RemeasureSchema } from "./schemas.ts";

/** A re-measure of a brand's stored answers, as the API shows it. */
export type Remeasure = Static<typeof RemeasureSchema>;
