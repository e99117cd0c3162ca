import Type from "typebox";
import { storedAs } from "../validate.ts";
import { AnalysisSummarySchema, EngineFailuresSchema } from "./schemas.ts";

/** The JSON columns of `analyses`, read through their schemas. */
export const analysisColumns = {
  engines: storedAs("analyses.engines", Type.Array(Type.String())),
  prompts: storedAs("analyses.prompts", Type.Array(Type.String())),
  errors: storedAs("analyses.errors", EngineFailuresSchema),
  countries: storedAs("analyses.countries", Type.Array(Type.String())),
  personas: storedAs(
    "analyses.personas",
    Type.Array(Type.Object({ id: Type.String(), version: Type.Integer() }, { additionalProperties: false })),
  ),
  summary: storedAs("analyses.summary", AnalysisSummarySchema),
};
