import { type Selectable, sql, type Updateable } from "kysely";
import type {
  EventsTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from "../../db/tables.ts";
import { newId } from "../../lib/ids.ts";
import { webhookDeliveries, webhookDuration } from "../../lib/metrics.ts";
import type { Redactor } from "../../lib/redact.ts";
import type { Deps } from "../context.ts";
import { envelopeBody } from "../events/types.ts";
import type { BatchJobHandler, ClaimedJob, JobOutcome } from "../jobs/types.ts";
import { signPayload } from "./signature.ts";
import type { WebhookResponse, WebhookTransport } from "./transport.ts";
import { RETRY_SCHEDULE_MS, retryDelayMs } from "./types.ts";

const DONE: JobOutcome = { status: "succeeded" };

/** An attempt's error until its outcome is recorded: what stays if its worker dies in between. */
export const UNFINISHED_ATTEMPT =
  "no answer recorded yet: the attempt is in flight, or its worker stopped after sending it (the receiver may have received it)";

type AttemptOutcome = Pick<
  Selectable<WebhookAttemptsTable>,
  "id" | "status_code" | "latency_ms" | "response_excerpt" | "error"
>;

/** Deliveries claimed and sent together, and batches in flight at once per worker. */
const BATCH_SIZE = 100;
const BATCHES_IN_FLIGHT = 4;

type Delivery = Selectable<WebhookDeliveriesTable>;
type Endpoint = Selectable<WebhookEndpointsTable>;

/** One attempt ready to go: everything it needs was read and checked. */
interface Attempt {
  index: number;
  job: ClaimedJob;
  delivery: Delivery;
  endpoint: Endpoint;
  event: Selectable<EventsTable>;
  secret: string;
  manual: boolean;
}

/**
 * The `webhook.deliver` jobs, run in batches: one attempt at each claimed delivery. A batch reads
 * its deliveries, subscriptions and events in three statements, numbers its attempts in one, sends
 * them over kept-alive connections, then logs every attempt in one insert and marks the successes
 * in one update (failures, rare, are updated one by one). The body is the event's envelope, byte
 * for byte the same on every attempt; the timestamp and signature are those of the attempt. 2xx
 * succeeds; 410 turns the subscription off; anything else (3xx included: redirects are not
 * followed) is retried on the schedule until the last attempt. A manual redelivery is one attempt.
 *
 * Order: within a batch, the attempts to one subscription start in the order of their events, and
 * batches are claimed in the order their jobs came due. A retry waits for its turn in the schedule
 * and does not hold back later events, so receivers must not rely on arrival order (the
 * envelope's `created_at` gives the events' order).
 */
export function deliverWebhooks(deps: Deps, transport: WebhookTransport): BatchJobHandler {
  return {
    size: BATCH_SIZE,
    inFlight: BATCHES_IN_FLIGHT,
    async run(jobs) {
      const outcomes: JobOutcome[] = new Array(jobs.length).fill(DONE);
      // A delivery named twice in a batch (a manual resend beside its scheduled retry) is sent
      // twice, in separate rounds, so that each attempt gets its own number.
      let pending = jobs.map((job, index) => ({ job, index }));
      while (pending.length > 0) {
        const seen = new Set<string>();
        const round: typeof pending = [];
        const later: typeof pending = [];
        for (const item of pending) {
          const id = deliveryIdOf(item.job);
          (seen.has(id) ? later : round).push(item);
          seen.add(id);
        }
        await deliverRound(deps, transport, round, outcomes);
        pending = later;
      }
      return outcomes;
    },
  };
}

function deliveryIdOf(job: ClaimedJob): string {
  return String(job.payload.delivery_id);
}

async function deliverRound(
  deps: Deps,
  transport: WebhookTransport,
  items: { job: ClaimedJob; index: number }[],
  outcomes: JobOutcome[],
): Promise<void> {
  const now = () => deps.clock.now().toISOString();
  const update = (delivery: Delivery, values: Updateable<WebhookDeliveriesTable>) =>
    deps.db
      .updateTable("webhook_deliveries")
      .set({ ...values, updated_at: now() })
      .where("workspace_id", "=", delivery.workspace_id)
      .where("id", "=", delivery.id);

  const deliveries = byId(
    await deps.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where(
        "id",
        "in",
        items.map((item) => deliveryIdOf(item.job)),
      )
      .execute(),
  );
  const live = items.flatMap((item) => {
    const delivery = deliveries.get(deliveryIdOf(item.job));
    const manual = item.job.payload.manual === true;
    if (delivery === undefined || (!manual && delivery.status !== "pending")) return [];
    return [{ ...item, delivery, manual }];
  });
  if (live.length === 0) return;
  const endpoints = byId(
    await deps.db
      .selectFrom("webhook_endpoints")
      .selectAll()
      .where("id", "in", unique(live.map((item) => item.delivery.endpoint_id)))
      .execute(),
  );
  const events = byId(
    await deps.db
      .selectFrom("events")
      .selectAll()
      .where("id", "in", unique(live.map((item) => item.delivery.event_id)))
      .execute(),
  );

  const secrets = new Map<string, string | Error>();
  const ready: Attempt[] = [];
  for (const item of live) {
    const { delivery, manual, index } = item;
    // Each row belongs to the delivery's own workspace, or it is as good as missing.
    const endpoint = sameWorkspace(endpoints.get(delivery.endpoint_id), delivery);
    if (endpoint === undefined || !endpoint.active) {
      if (!manual) {
        await update(delivery, { status: "canceled", next_attempt_at: null }).where("status", "=", "pending").execute();
      }
      continue;
    }
    const event = sameWorkspace(events.get(delivery.event_id), delivery);
    if (event === undefined) {
      outcomes[index] = { status: "dead", error: `event ${delivery.event_id} is missing` };
      continue;
    }
    let secret = secrets.get(endpoint.id);
    if (secret === undefined) {
      try {
        secret = deps.secrets.decrypt(endpoint.secret_ciphertext);
      } catch (error) {
        secret = error as Error;
      }
      secrets.set(endpoint.id, secret);
    }
    if (secret instanceof Error) {
      // The server's secret key changed or differs between hosts: no attempt can be signed, and
      // retrying will not help. Say so on the delivery rather than leave it pending.
      if (!manual) await update(delivery, { status: "failed", next_attempt_at: null }).execute();
      outcomes[index] = { status: "dead", error: `cannot decrypt the subscription's secret: ${secret.message}` };
      continue;
    }
    ready.push({ ...item, endpoint, event, secret });
  }
  if (ready.length === 0) return;

  // Number the attempts atomically (shown to receivers and in the attempt log): a manual resend
  // and a scheduled retry never share one. The retry schedule follows the job's own attempts, so
  // manual resends do not use it up.
  const counted = await deps.db
    .updateTable("webhook_deliveries")
    .set((eb) => ({ attempt_count: eb("attempt_count", "+", 1), updated_at: now() }))
    .where(
      "id",
      "in",
      ready.map((attempt) => attempt.delivery.id),
    )
    .returning(["id", "attempt_count"])
    .execute();
  const numbers = new Map(counted.map((row) => [row.id, row.attempt_count]));

  // Per subscription, in the order of the events; the transport's connection pool keeps that
  // order when it queues them.
  ready.sort((a, b) => a.event.created_at.localeCompare(b.event.created_at) || a.event.id.localeCompare(b.event.id));

  // Every attempt is in the log before it is sent, as one that may have reached the receiver: a
  // worker killed mid-batch leaves each request it may have made on record, with this error.
  const logged = ready.map((attempt) => ({
    id: newId("wha"),
    delivery_id: attempt.delivery.id,
    attempt: numbers.get(attempt.delivery.id) ?? 1,
    status_code: null,
    latency_ms: 0,
    response_excerpt: null,
    error: UNFINISHED_ATTEMPT,
    created_at: now(),
  }));
  await deps.db.insertInto("webhook_attempts").values(logged).execute();

  const responses = await Promise.all(
    ready.map((attempt) => send(deps, transport, attempt, numbers.get(attempt.delivery.id) ?? 1)),
  );

  const results: AttemptOutcome[] = [];
  const succeeded: Delivery[] = [];
  const redactors = new Map<string, Redactor>();
  for (const [k, attempt] of ready.entries()) {
    const response = responses[k] as WebhookResponse;
    // The receiver's answer is stored and shown in the delivery log: scrub it first, of this
    // subscription's own secret too (a receiver echoing its headers or config, say).
    let redactor = redactors.get(attempt.endpoint.id);
    if (redactor === undefined) {
      redactor = deps.redactor.with([attempt.secret]);
      redactors.set(attempt.endpoint.id, redactor);
    }
    const scrub = (text: string | null) => (text === null ? null : (redactor as Redactor).scrub(text));
    const status = response.statusCode;
    countAttempt(status, response.latencyMs);
    results.push({
      id: (logged[k] as { id: string }).id,
      status_code: status,
      latency_ms: response.latencyMs,
      response_excerpt: scrub(response.excerpt),
      error: scrub(response.error ?? (status !== null && status >= 300 ? `HTTP ${status}` : null)),
    });
    if (status !== null && status >= 200 && status < 300) succeeded.push(attempt.delivery);
  }
  await completeAttempts(deps, results);
  if (succeeded.length > 0) {
    await deps.db
      .updateTable("webhook_deliveries")
      .set({ status: "succeeded", delivered_at: now(), next_attempt_at: null, updated_at: now() })
      .where(
        "id",
        "in",
        succeeded.map((delivery) => delivery.id),
      )
      .execute();
  }
  for (const [k, attempt] of ready.entries()) {
    const response = responses[k] as WebhookResponse;
    const outcome = await afterFailure(deps, attempt, response, update);
    if (outcome !== null) outcomes[attempt.index] = outcome;
  }
}

/** One attempt in `/metrics`: what the receiver answered and how long it took. */
function countAttempt(status: number | null, latencyMs: number): void {
  const outcome =
    status === null
      ? "network_error"
      : status >= 200 && status < 300
        ? "succeeded"
        : status === 410
          ? "gone"
          : "http_error";
  webhookDeliveries.inc({ outcome });
  webhookDuration.observe(latencyMs / 1000);
}

/** Records the outcomes of a batch's attempts, logged before they were sent, in one statement. */
async function completeAttempts(deps: Deps, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  // Typed, so that PostgreSQL does not read every parameter as text.
  const column = <K extends keyof Omit<AttemptOutcome, "id">>(name: K, type: "integer" | "text") =>
    sql<AttemptOutcome[K]>`case id ${sql.join(
      outcomes.map((outcome) => sql`when ${outcome.id} then cast(${outcome[name]} as ${sql.raw(type)})`),
      sql` `,
    )} end`;
  await deps.db
    .updateTable("webhook_attempts")
    .set({
      status_code: column("status_code", "integer"),
      latency_ms: column("latency_ms", "integer"),
      response_excerpt: column("response_excerpt", "text"),
      error: column("error", "text"),
    })
    .where(
      "id",
      "in",
      outcomes.map((outcome) => outcome.id),
    )
    .execute();
}

function send(deps: Deps, transport: WebhookTransport, attempt: Attempt, number: number): Promise<WebhookResponse> {
  const body = envelopeBody(attempt.event);
  const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
  return transport.send({
    url: attempt.endpoint.url,
    body,
    headers: {
      "x-webhook-id": attempt.event.id,
      "x-webhook-event": attempt.event.type,
      "x-webhook-timestamp": String(timestamp),
      "x-webhook-signature": signPayload(attempt.secret, timestamp, body),
      "x-webhook-delivery": attempt.delivery.id,
      "x-webhook-attempt": String(number),
    },
  });
}

/** What a failed attempt changes: nothing for a success or a manual resend. */
async function afterFailure(
  deps: Deps,
  attempt: Attempt,
  response: WebhookResponse,
  update: (delivery: Delivery, values: Updateable<WebhookDeliveriesTable>) => { execute(): Promise<unknown> },
): Promise<JobOutcome | null> {
  const { delivery, endpoint, job } = attempt;
  const status = response.statusCode;
  if (status !== null && status >= 200 && status < 300) return null;
  const now = deps.clock.now().toISOString();
  if (status === 410) {
    const reason = `The receiver answered 410 Gone on ${now}; set active to true to resume.`;
    await deps.db
      .updateTable("webhook_endpoints")
      .set({ active: false, disabled_reason: reason, updated_at: now })
      .where("workspace_id", "=", delivery.workspace_id)
      .where("id", "=", endpoint.id)
      .execute();
    await update(delivery, { status: "failed", next_attempt_at: null }).execute();
    deps.logger.warn(
      { endpoint: endpoint.id, workspace: delivery.workspace_id },
      "webhook subscription disabled: receiver answered 410",
    );
    return null;
  }
  const error = response.error ?? `HTTP ${status}`;
  // A failed manual resend is logged as an attempt and changes nothing else.
  if (attempt.manual) return null;
  if (job.attempt >= RETRY_SCHEDULE_MS.length) {
    await update(delivery, { status: "failed", next_attempt_at: null }).execute();
    return { status: "dead", error: `last attempt failed: ${error}` };
  }
  const delayMs = retryDelayMs(job.attempt + 1);
  await update(delivery, { next_attempt_at: new Date(deps.clock.now().getTime() + delayMs).toISOString() }).execute();
  return { status: "retry", delayMs, error };
}

function byId<Row extends { id: string }>(rows: Row[]): Map<string, Row> {
  return new Map(rows.map((row) => [row.id, row]));
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function sameWorkspace<Row extends { workspace_id: string }>(
  row: Row | undefined,
  delivery: Delivery,
): Row | undefined {
  return row !== undefined && row.workspace_id === delivery.workspace_id ? row : undefined;
}
