import type { Static, TSchema } from "typebox";
import type { Route } from "../http/route.ts";

type In<S> = S extends TSchema ? Static<S> : undefined;

/** A tool's arguments, split back into the parts of its REST route's request and checked by them. */
interface ToolInput<P, Q, B> {
  params: In<P>;
  query: In<Q>;
  body: In<B>;
}

/** A path parameter as the tool takes it: `id` of `/projects/:id` is `project_id`. */
interface Renamed {
  as: string;
  description: string;
}

export interface ToolSpec<P, Q, B> {
  /** snake_case and stable: clients and models call the tool by it. */
  name: string;
  title: string;
  description: string;
  /**
   * The REST route the tool stands for. Its scope is the tool's scope (`read` too when it is a
   * GET), its request schemas validate the tool's arguments and its response schema is the tool's
   * output schema and serializer: one contract, two transports.
   */
  route: Route;
  /** The parts of the route's request the tool takes: each one the route's own schema object. */
  params?: P;
  query?: Q;
  body?: B;
  rename?: Record<string, Renamed>;
  /**
   * What the tool changes of the arguments before its route runs them (the route's own handler,
   * through the runner, as every door does): an analysis waits less here than over HTTP.
   */
  prepare?(input: ToolInput<P, Q, B>): ToolInput<P, Q, B>;
  /**
   * The answer for people, as text after the JSON (which stays the first block, as the protocol
   * asks of a structured result): the figures by their glossary names, engines by their names.
   * Given the structured content, which the route's response schema shaped.
   */
  readable?(answer: Record<string, unknown>): string;
}

/** A tool with its types erased, as the server sees it (every typed tool is one: `run` is a method). */
export type Tool = ToolSpec<TSchema | undefined, TSchema | undefined, TSchema | undefined>;

const PARTS = ["params", "query", "body"] as const;
export type Part = (typeof PARTS)[number];

/** The parts a tool takes, in the order their arguments are published. */
export function partsOf(tool: Tool): [Part, TSchema][] {
  return PARTS.flatMap((part) => {
    const schema = tool[part];
    return schema === undefined ? [] : [[part, schema] as [Part, TSchema]];
  });
}

/**
 * Declares a tool over a REST route. A part that is not the route's own schema, or an argument
 * name that two parts share, is a programming error, refused when the module loads.
 */
export function defineTool<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
>(spec: ToolSpec<P, Q, B>): Tool {
  const tool: Tool = spec;
  const names = new Set<string>();
  for (const [part, schema] of partsOf(tool)) {
    if (schema !== tool.route[part]) {
      throw new Error(`MCP tool ${tool.name}: its ${part} schema is not the one of ${tool.route.operationId}`);
    }
    for (const name of Object.keys((schema as { properties?: object }).properties ?? {})) {
      const published = part === "params" ? (tool.rename?.[name]?.as ?? name) : name;
      if (names.has(published)) throw new Error(`MCP tool ${tool.name}: two arguments named ${published}`);
      names.add(published);
    }
  }
  return tool;
}
