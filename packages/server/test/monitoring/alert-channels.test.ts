import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningWorker } from "../../src/app/worker.ts";
import { defaultEngineConfig } from "../../src/config/engines.ts";
import type { HostResolver } from "../../src/lib/addresses.ts";
import { smtpMailer } from "../../src/services/accounts/mailer.ts";
import { runAnalysisHandler } from "../../src/services/analyses/run.ts";
import { RUN_ANALYSIS_JOB } from "../../src/services/analyses/types.ts";
import { ChatCompletionsAdapter } from "../../src/services/engines/adapters/chat-completions.ts";
import { claimJobs, completeJob } from "../../src/services/jobs/store.ts";
import { closeMonitoringRun } from "../../src/services/monitoring/runs.ts";
import { NOTIFY_JOB } from "../../src/services/notifications/queue.ts";
import { HttpTransport } from "../../src/services/webhooks/transport.ts";
import { type FakeChatCompletions, startFakeChatCompletions } from "../helpers/fake-vendors/index.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";
import { Receiver } from "../helpers/receiver.ts";
import { SmtpSink } from "../helpers/smtp-sink.ts";

/** The token part of the Slack-compatible URLs below: it must never be shown, stored in clear or logged. */
const SLACK_TOKEN = "xoxSecretToken9f8e7d6c5b4a";
const FROM = "Sightline alerts <alerts@sightline.test>";

const ENGINES = {
  ...defaultEngineConfig(),
  custom: [{ name: "scripted", baseUrl: "http://127.0.0.1:9", model: "scripted-1", apiKey: null }],
};

/** An OpenAI-compatible engine answering from a local fake vendor; the test decides whether answers name the brand. */
class ScriptedVendor {
  #fake: FakeChatCompletions | undefined;
  async start(h: Harness) {
    this.#fake = await startFakeChatCompletions({ flavour: "plain" });
    h.deps.engines.use(
      new ChatCompletionsAdapter(
        { name: "scripted", apiKey: "test-key", baseUrl: this.#fake.url, model: "scripted-1" },
        5_000,
      ),
      8,
    );
  }
  set mentionBrand(mention: boolean) {
    this.#fake?.setAnswer({
      text: mention ? "The best options are Acme CRM and HubSpot." : "Most teams pick HubSpot; Pipedrive is also good.",
      citations: [],
    });
  }
  async stop() {
    await this.#fake?.stop();
  }
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function brand(h: Harness, t: Tenant) {
  const res = await h.call("createProject", {
    key: t.key,
    body: {
      name: "Acme CRM",
      primary_domain: "acmecrm.com",
      competitors: [{ name: "HubSpot" }],
      prompts: ["best CRM?", "CRM for agencies?"],
      engines: ["scripted"],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

async function schedule(h: Harness, t: Tenant, projectId: string, channels: Record<string, unknown>) {
  return h.call("createMonitoring", {
    key: t.key,
    body: {
      project_id: projectId,
      samples: 5,
      schedule: { every: "day" },
      alert_rules: [{ type: "visibility_drop", points: 30, channels }],
    },
  });
}

function notifications(h: Harness, workspaceId: string) {
  return h.deps.db
    .selectFrom("notifications")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .orderBy("channel")
    .orderBy("recipient")
    .execute();
}

/** Waits until no job is running: outcomes (and next run times) are recorded. */
async function settled(h: Harness) {
  await until(
    () => h.deps.db.selectFrom("jobs").select("id").where("status", "=", "running").execute(),
    (running) => running.length === 0,
  );
}

/** The signed link in a message: its path on this server. */
function linkPath(text: string): string {
  const match = /http:\/\/localhost:8080(\/app\/l\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no signed link in ${text}`);
  return match[1];
}

/** The same token with one character of its payload changed. */
function tampered(path: string): string {
  const at = "/app/l/".length + 2;
  const swapped = path[at] === "A" ? "B" : "A";
  return `${path.slice(0, at)}${swapped}${path.slice(at + 1)}`;
}

describeEachDialect(
  "alert channels",
  (h) => {
    const engine = new ScriptedVendor();
    const smtp = new SmtpSink();
    const slack = new Receiver();
    const logs: string[] = [];
    let worker: RunningWorker;
    beforeAll(async () => {
      await engine.start(h);
      await smtp.start();
      await slack.start();
      h.deps.mailer = smtpMailer(smtp.url, FROM);
      // Every line services and the worker log, to look for the Slack URL in.
      h.deps.logger = pino(
        { level: "debug" },
        new Writable({
          write(chunk, _encoding, done) {
            logs.push(String(chunk));
            done();
          },
        }),
      );
      worker = await h.startWorker(undefined, { pollIntervalMs: 20 });
    });
    afterAll(async () => {
      await worker.stop(1_000);
      await slack.stop();
      await smtp.stop();
      await engine.stop();
    });

    /** Two runs: the brand named in every answer, then in none. The drop rule fires on the second. */
    async function fire(t: Tenant, scheduleId: string) {
      for (const mention of [true, false]) {
        engine.mentionBrand = mention;
        const run = await h.call("runMonitoring", { key: t.key, params: { id: scheduleId } });
        expect(run.statusCode, run.body).toBe(202);
        await until(
          () =>
            h.deps.db
              .selectFrom("monitoring_runs")
              .select("status")
              .where("id", "=", run.json().id)
              .executeTakeFirstOrThrow(),
          (row) => row.status === "completed",
        );
        h.clock.advance(1_000);
      }
    }

    it("e-mails and posts to Slack when a rule fires: figure, interval, change and a signed link", async () => {
      const t = await h.tenant("agency");
      const project = await brand(h, t);
      const slackUrl = `${slack.url}/services/T0001/B0001/${SLACK_TOKEN}`;
      const created = await schedule(h, t, project.id, {
        email: ["Ops@Example.com", "cmo@example.com", "ops@example.com"],
        slack: slackUrl,
      });
      expect(created.statusCode, created.body).toBe(201);
      const rule = created.json().alert_rules[0];
      expect(rule.channels.email).toEqual(["ops@example.com", "cmo@example.com"]);
      expect(rule.channels.slack).toBe(`${slack.url}/services/T…/…5b4a`);
      expect(created.body).not.toContain(SLACK_TOKEN);

      await fire(t, created.json().id);
      const [mail] = await smtp.waitFor("ops@example.com", 1);
      await smtp.waitFor("cmo@example.com", 1);
      await slack.waitFor(1, `/services/T0001/B0001/${SLACK_TOKEN}`);

      // The e-mail: multipart text and HTML, the brand, the rule, the figure with its interval and n,
      // the change against the previous run and whether it is real, and a signed link.
      expect(mail?.from?.value[0]?.address).toBe("alerts@sightline.test");
      expect(mail?.subject).toBe("Alert: Acme CRM — Visibility drops by 30 points or more, when statistically real");
      const text = mail?.text ?? "";
      expect(text).toContain(
        "Acme CRM: Visibility drops by 30 points or more, when statistically real: from 100% to 0% across engines (\u2212100 pts).",
      );
      expect(text).toContain("Engine: All engines together");
      expect(text).toContain("Figure: Visibility 0% (0–28%, n = 10)");
      expect(text).toContain(
        "Change: \u2212100 pts since the previous run (from 100%): statistically real, the two 95% intervals do not overlap.",
      );
      expect(mail?.html).toContain("Visibility 0% (0–28%, n = 10)");
      const path = linkPath(text);
      expect(mail?.html).toContain(`http://localhost:8080${path}`);

      // Following the link leads to the brand's monitoring page; a link altered on the way does not.
      const followed = await h.app.inject({ method: "GET", url: path });
      expect(followed.statusCode).toBe(302);
      expect(followed.headers.location).toBe(`/w/${t.workspace.id}/brands/${project.id}/monitoring`);
      for (const bad of [tampered(path), `${path}x`, "/app/l/L3cvd3NfeC9icmFuZHMvcHJqX3g.forged"]) {
        const refused = await h.app.inject({ method: "GET", url: bad });
        expect(refused.statusCode, bad).toBe(404);
        expect(refused.headers.location).toBeUndefined();
      }

      // Slack: a JSON body its incoming webhooks take, text for notifications and Block Kit blocks.
      const post = slack.on(`/services/T0001/B0001/${SLACK_TOKEN}`)[0] ?? expect.fail("no Slack post");
      expect(post.headers["content-type"]).toBe("application/json");
      const body = JSON.parse(post.body);
      expect(body.text).toContain(
        "Acme CRM: Visibility drops by 30 points or more, when statistically real: from 100% to 0%",
      );
      expect(body.blocks.map((b: { type: string }) => b.type)).toEqual([
        "header",
        "section",
        "section",
        "actions",
        "context",
      ]);
      expect(body.blocks[1].text.type).toBe("mrkdwn");
      const fields = body.blocks[2].fields.map((f: { type: string; text: string }) => {
        expect(f.type).toBe("mrkdwn");
        return f.text;
      });
      expect(fields).toContain("*Figure*\nVisibility 0% (0–28%, n = 10)");
      expect(fields.join("\n")).toContain("\u2212100 pts since the previous run (from 100%): statistically real");
      const button = body.blocks[3].elements[0];
      expect(button).toMatchObject({ type: "button", text: { type: "plain_text", text: "Open in Sightline" } });
      expect(linkPath(button.url)).toBe(path);

      await until(
        () => notifications(h, t.workspace.id),
        (rows) => rows.length === 3 && rows.every((row) => row.status === "sent"),
      );
      // The URL is stored encrypted and never shown: not by the schedule, the alert, nor its event.
      const alerts = await h.call("listAlerts", { key: t.key, query: { schedule_id: created.json().id } });
      const read = await h.call("getMonitoring", { key: t.key, params: { id: created.json().id } });
      const events = await h.deps.db
        .selectFrom("events")
        .select("data")
        .where("workspace_id", "=", t.workspace.id)
        .execute();
      const stored = await h.deps.db
        .selectFrom("monitoring_schedules")
        .select("alert_rules")
        .where("id", "=", created.json().id)
        .executeTakeFirstOrThrow();
      for (const seen of [alerts.body, read.body, JSON.stringify(events), stored.alert_rules]) {
        expect(seen).not.toContain(SLACK_TOKEN);
      }
      expect(alerts.json().data[0].rule.channels.slack).toBe(rule.channels.slack);
    });

    it("keeps the Slack URL when its masked form is sent back, and refuses a masked URL it does not hold", async () => {
      const t = await h.tenant("agency");
      const project = await brand(h, t);
      const created = (
        await schedule(h, t, project.id, { slack: `${slack.url}/services/T1/B1/${SLACK_TOKEN}` })
      ).json();
      const masked = created.alert_rules[0].channels.slack as string;
      const kept = await h.call("updateMonitoring", {
        key: t.key,
        params: { id: created.id },
        body: {
          alert_rules: [
            { type: "visibility_below", threshold: 0.4, channels: { slack: masked } },
            { type: "brand_disappeared" },
          ],
        },
      });
      expect(kept.statusCode, kept.body).toBe(200);
      const row = await h.deps.db
        .selectFrom("monitoring_schedules")
        .select("alert_rules")
        .where("id", "=", created.id)
        .executeTakeFirstOrThrow();
      const rules = JSON.parse(row.alert_rules);
      expect(h.deps.secrets.decrypt(rules[0].channels.slack.ciphertext)).toBe(
        `${slack.url}/services/T1/B1/${SLACK_TOKEN}`,
      );
      expect(rules[1].channels).toBeUndefined();

      const forged = await h.call("updateMonitoring", {
        key: t.key,
        params: { id: created.id },
        body: {
          alert_rules: [
            { type: "brand_disappeared", channels: { slack: "https://hooks.slack.com/services/T…/…abcd" } },
          ],
        },
      });
      expect(forged.statusCode).toBe(400);
      expect(forged.json().error.details[0].field).toBe("alert_rules[0].channels.slack");
    });

    it("refuses bad addresses, and e-mail channels on a server without SMTP", async () => {
      const t = await h.tenant("agency");
      const project = await brand(h, t);
      const bad = await schedule(h, t, project.id, { email: ["ops@example.com", "not an address"] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details[0].field).toBe("alert_rules[0].channels.email[1]");
      // A domain needs a dot and a top-level domain of two letters or more.
      for (const address of ["maya@example", "maya@example.c", "maya@.com", "maya@exa mple.com"]) {
        const refused = await schedule(h, t, project.id, { email: [address] });
        expect(refused.statusCode, address).toBe(400);
        expect(refused.json().error).toMatchObject({
          code: "VALIDATION_ERROR",
          details: [{ field: "alert_rules[0].channels.email[0]" }],
        });
      }
      const tooMany = await schedule(h, t, project.id, {
        email: Array.from({ length: 21 }, (_, i) => `a${i}@example.com`),
      });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json().error.details[0].field).toBe("alert_rules[0].channels.email");
      const mailer = h.deps.mailer;
      h.deps.mailer = null;
      try {
        const refused = await schedule(h, t, project.id, { email: ["ops@example.com"] });
        expect(refused.statusCode).toBe(400);
        expect(refused.json().error).toMatchObject({
          code: "VALIDATION_ERROR",
          details: [{ field: "alert_rules[0].channels.email", issue: expect.stringContaining("SMTP_URL") }],
        });
      } finally {
        h.deps.mailer = mailer;
      }
    });

    it("retries a Slack 429 after its Retry-After and an e-mail the SMTP server defers; a Slack 404 is final", async () => {
      const t = await h.tenant("agency");
      const project = await brand(h, t);
      const path = `/services/T2/B2/${SLACK_TOKEN}`;
      const created = (
        await schedule(h, t, project.id, { slack: `${slack.url}${path}`, email: ["late@example.com"] })
      ).json();
      slack.answer({ status: 429, headers: { "retry-after": "30" }, body: "rate_limited" }, { status: 200 });
      smtp.deferNext = 1;
      await fire(t, created.id);
      await slack.waitFor(1, path);
      const pending = await until(
        () => notifications(h, t.workspace.id),
        (rows) => rows.length === 2 && rows.every((row) => row.attempt_count === 1 && row.last_error !== null),
      );
      expect(pending.map((row) => [row.channel, row.status])).toEqual([
        ["email", "pending"],
        ["slack", "pending"],
      ]);
      expect(pending[0]?.last_error).toContain("451");
      expect(pending[1]?.last_error).toBe("HTTP 429: rate_limited");
      await settled(h);
      // Not before Retry-After (30 s)…
      h.clock.advance(20_000);
      h.deps.jobSignal.wake();
      await smtp.waitFor("late@example.com", 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(slack.on(path)).toHaveLength(1);
      // …then once it has passed.
      h.clock.advance(15_000);
      h.deps.jobSignal.wake();
      await slack.waitFor(2, path);
      await until(
        () => notifications(h, t.workspace.id),
        (rows) => rows.every((row) => row.status === "sent" && row.attempt_count === 2),
      );

      // A webhook Slack no longer knows: final at once.
      const t2 = await h.tenant("agency");
      const gone = `/services/T3/B3/${SLACK_TOKEN}`;
      const other = (await schedule(h, t2, (await brand(h, t2)).id, { slack: `${slack.url}${gone}` })).json();
      slack.answer({ status: 404, body: "no_service" });
      await fire(t2, other.id);
      const [failed] = await until(
        () => notifications(h, t2.workspace.id),
        (rows) => rows[0]?.status === "failed",
      );
      expect(failed).toMatchObject({ attempt_count: 1, last_error: "HTTP 404: no_service" });
      await settled(h);
      h.clock.advance(24 * 3_600_000);
      h.deps.jobSignal.wake();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(slack.on(gone)).toHaveLength(1);
      slack.answer({ status: 200 });

      // The failure was logged, and no log line holds the URL.
      expect(logs.join("")).toContain("notification not delivered");
      expect(logs.join("")).not.toContain(SLACK_TOKEN);
    });
  },
  { config: { webhookAllowPrivate: true, engines: ENGINES } },
);

describeEachDialect(
  "alert channels after a crash",
  (h) => {
    const engine = new ScriptedVendor();
    const smtp = new SmtpSink();
    const slack = new Receiver();
    beforeAll(async () => {
      await engine.start(h);
      await smtp.start();
      await slack.start();
      h.deps.mailer = smtpMailer(smtp.url, FROM);
    });
    afterAll(async () => {
      await slack.stop();
      await smtp.stop();
      await engine.stop();
    });

    it("loses nothing when the process dies between recording an alert and sending it", async () => {
      const t = await h.tenant("agency");
      const project = await brand(h, t);
      const created = (
        await schedule(h, t, project.id, {
          email: ["oncall@example.com"],
          slack: `${slack.url}/services/T9/B9/${SLACK_TOKEN}`,
        })
      ).json();
      // This process runs the analyses and nothing else, then dies holding the messages' jobs.
      const runAnalysis = runAnalysisHandler(h.deps, [closeMonitoringRun]);
      for (const mention of [true, false]) {
        engine.mentionBrand = mention;
        await h.call("runMonitoring", { key: t.key, params: { id: created.id } });
        for (const job of await claimJobs(h.deps, "doomed", 10, 30_000)) {
          if (job.kind !== RUN_ANALYSIS_JOB) continue;
          expect(await runAnalysis(job)).toEqual({ status: "succeeded" });
          await completeJob(h.deps, job.id, "doomed");
        }
        h.clock.advance(1_000);
      }
      const queued = await notifications(h, t.workspace.id);
      expect(queued.map((row) => [row.channel, row.status])).toEqual([
        ["email", "pending"],
        ["slack", "pending"],
      ]);
      const claimed = (await claimJobs(h.deps, "doomed", 10, 30_000)).filter((job) => job.kind === NOTIFY_JOB);
      expect(claimed).toHaveLength(2);
      expect(smtp.messages).toHaveLength(0);
      expect(slack.received).toHaveLength(0);

      // Another worker starts; once the dead one's leases run out, it sends both.
      h.clock.advance(31_000);
      await h.startWorker(undefined, { pollIntervalMs: 20 });
      await smtp.waitFor("oncall@example.com", 1);
      await slack.waitFor(1);
      await until(
        () => notifications(h, t.workspace.id),
        (rows) => rows.every((row) => row.status === "sent"),
      );
    });
  },
  { config: { webhookAllowPrivate: true, engines: ENGINES } },
);

/** A DNS that answers what the test says, standing in for the resolver we do not own. */
class ScriptedResolver implements HostResolver {
  answers = new Map<string, string[]>();
  async resolve(hostname: string): Promise<string[]> {
    const found = this.answers.get(hostname);
    if (found === undefined) throw new Error(`ENOTFOUND ${hostname}`);
    return found;
  }
}

describeEachDialect(
  "Slack URLs under the production address policy",
  (h) => {
    const engine = new ScriptedVendor();
    const resolver = new ScriptedResolver();
    const slack = new Receiver();
    beforeAll(async () => {
      await engine.start(h);
      await slack.start();
      h.deps.webhookTargets.resolver = resolver;
      await h.startWorker(new HttpTransport({ timeoutMs: 2_000, allowPrivate: false, resolver }), {
        pollIntervalMs: 20,
      });
    });
    afterAll(async () => {
      await slack.stop();
      await engine.stop();
    });

    it("refuses a private Slack URL exactly as it refuses a webhook", async () => {
      const t = await h.tenant("agency");
      const project = await brand(h, t);
      resolver.answers.set("localhost", ["127.0.0.1"]);
      resolver.answers.set("inside.example.test", ["127.0.0.1"]);
      for (const url of [
        "https://10.0.0.1/services/T1/B1/x",
        "https://169.254.169.254/latest/meta-data",
        "https://localhost/services/T1/B1/x",
        "https://inside.example.test/services/T1/B1/x",
      ]) {
        const refused = await schedule(h, t, project.id, { slack: url });
        expect(refused.statusCode, url).toBe(400);
        const webhook = await h.call("createWebhook", { key: t.key, body: { url, events: ["alert.triggered"] } });
        expect(webhook.statusCode, url).toBe(400);
        const [detail] = refused.json().error.details;
        expect(detail.field).toBe("alert_rules[0].channels.slack");
        expect(detail.issue).toBe(webhook.json().error.details[0].issue);
        expect(refused.json().error.code).toBe("VALIDATION_ERROR");
      }
      resolver.answers.set("hooks.example.test", ["93.184.216.34"]);
      const plain = await schedule(h, t, project.id, { slack: "http://hooks.example.test/services/T1/B1/x" });
      expect(plain.json().error.details[0]).toMatchObject({
        field: "alert_rules[0].channels.slack",
        issue: "must use https",
      });
    });

    it("checks the address again when it posts: a name that now resolves inside is refused, finally", async () => {
      const t = await h.tenant("agency");
      const project = await brand(h, t);
      resolver.answers.set("rebind.example.test", ["93.184.216.34"]);
      const port = new URL(slack.url).port;
      const created = await schedule(h, t, project.id, {
        slack: `https://rebind.example.test:${port}/services/T1/B1/${SLACK_TOKEN}`,
      });
      expect(created.statusCode, created.body).toBe(201);
      resolver.answers.set("rebind.example.test", ["127.0.0.1"]); // the attacker's DNS flips
      for (const mention of [true, false]) {
        engine.mentionBrand = mention;
        const run = await h.call("runMonitoring", { key: t.key, params: { id: created.json().id } });
        await until(
          () =>
            h.deps.db
              .selectFrom("monitoring_runs")
              .select("status")
              .where("id", "=", run.json().id)
              .executeTakeFirstOrThrow(),
          (row) => row.status === "completed",
        );
        h.clock.advance(1_000);
      }
      const [failed] = await until(
        () => notifications(h, t.workspace.id),
        (rows) => rows[0]?.status === "failed",
      );
      expect(failed?.last_error).toMatch(/^refused: rebind\.example\.test resolved to 127\.0\.0\.1/);
      expect(slack.received).toHaveLength(0);
    });
  },
  { config: { engines: ENGINES } },
);
