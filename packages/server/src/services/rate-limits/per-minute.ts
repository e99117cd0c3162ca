import { ApiError } from "../../errors/api-error.ts";
import type { WindowCounter } from "./counter.ts";
import type { CounterStore } from "./store.ts";

/** One counter per store and kind: a memory counter keeps its counts in its own instance. */
const counters = new WeakMap<CounterStore, Map<string, WindowCounter>>();

function counterOf(store: CounterStore, kind: string): WindowCounter {
  let byKind = counters.get(store);
  if (byKind === undefined) {
    byKind = new Map();
    counters.set(store, byKind);
  }
  let counter = byKind.get(kind);
  if (counter === undefined) {
    counter = store.counter(kind, 60);
    byKind.set(kind, counter);
  }
  return counter;
}

/**
 * Counts one more `kind` of costly action for `key` (a workspace, an agency) in the current
 * minute, in the shared store, and refuses past `limit` with RATE_LIMIT_EXCEEDED: `refusal` says
 * what is limited, given the seconds until the minute ends.
 */
export async function limitPerMinute(
  store: CounterStore,
  input: { kind: string; key: string; limit: number; refusal: (seconds: number) => string },
): Promise<void> {
  const { count, msBeforeReset } = await counterOf(store, input.kind).hit(input.key);
  if (count <= input.limit) return;
  const seconds = Math.max(1, Math.ceil(msBeforeReset / 1000));
  throw new ApiError("RATE_LIMIT_EXCEEDED", input.refusal(seconds), { retryAfter: seconds });
}
