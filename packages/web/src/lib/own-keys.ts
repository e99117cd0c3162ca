/**
 * Objects keyed by what people type (prompts, tags) read and written through their own keys only:
 * a prompt called `valueOf` has no tags until it is given some, and one called `__proto__` keeps
 * them (`record[key] = …` would set the object's prototype instead).
 */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `record` with `key` set to `value`, or removed when `value` is undefined; a new object. */
export function withKey<T>(record: Readonly<Record<string, T>> | undefined, key: string, value: T | undefined) {
  const kept = Object.entries(record ?? {}).filter(([k]) => k !== key);
  return Object.fromEntries(value === undefined ? kept : [...kept, [key, value]]) as Record<string, T>;
}
