import Type from "typebox";
import { AnswerMeasureSchema } from "../measurement/schemas.ts";
import { storedAs } from "../validate.ts";

/** The JSON columns of `results`, read through their schemas. */
export const resultColumns = {
  measure: storedAs("results.measure", AnswerMeasureSchema),
  error: storedAs(
    "results.error",
    Type.Object({ code: Type.Literal("ENGINE_FAILURE"), message: Type.String() }, { additionalProperties: false }),
  ),
  searches: storedAs("results.searches", Type.Array(Type.String())),
};
