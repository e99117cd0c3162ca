/**
 * Plain objects keyed by outside strings (prompts, tags, brand and engine names, categories, HTTP
 * header values) answer for keys they do not hold: `tags["valueOf"]` is Object.prototype's function,
 * and `tags["__proto__"] = […]` sets the object's prototype instead of adding a key. Such objects are
 * therefore built with `Object.fromEntries` or from a Map (every key an own property, `__proto__`
 * too, as `JSON.parse` makes them), and read with `ownValue`.
 */

/** What `record` itself holds under `key`; never what it inherits (`constructor`, `toString`…). */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
