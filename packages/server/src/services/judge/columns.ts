import Type from "typebox";
import { storedAs } from "../validate.ts";

/** The JSON columns of `judge_verdicts`, read through their schemas. */
export const judgeColumns = {
  meant: storedAs("judge_verdicts.meant", Type.Record(Type.String(), Type.Boolean())),
};
