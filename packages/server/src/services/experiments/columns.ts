import Type from "typebox";
import { storedAs } from "../validate.ts";

/** The JSON columns of `changes`, read through their schemas: lists of strings each. */
const list = (column: string) => storedAs(`changes.${column}`, Type.Array(Type.String()));

export const changeColumns = {
  pages: list("pages"),
  prompts: list("prompts"),
  controlPrompts: list("control_prompts"),
  engines: list("engines"),
};
