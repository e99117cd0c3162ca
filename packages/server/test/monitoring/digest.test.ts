import { afterAll, beforeAll, expect, it } from "vitest";
import { schedulerTick } from "../../src/app/scheduler.ts";
import type { RunningWorker } from "../../src/app/worker.ts";
import { smtpMailer } from "../../src/services/accounts/mailer.ts";
import { weekStart } from "../../src/services/reports/generate.ts";
import { dashboard, invite, type Session, signUp, uniqueEmail } from "../helpers/dashboard.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";
import { SmtpSink } from "../helpers/smtp-sink.ts";

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until no job is queued or running. */
async function idle(h: Harness) {
  await until(
    () => h.deps.db.selectFrom("jobs").select("id").where("status", "in", ["pending", "running"]).execute(),
    (jobs) => jobs.length === 0,
  );
}

function digestPath(session: Session, projectId: string) {
  return `/app/api/workspaces/${session.workspaceId}/projects/${projectId}/digest`;
}

async function optIn(h: Harness, session: Session, projectId: string, subscribed: boolean) {
  const res = await dashboard(h, "PATCH", digestPath(session, projectId), {
    cookie: session.cookie,
    body: { subscribed },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

function unsubscribePath(text: string): string {
  const match = /Unsubscribe: http:\/\/localhost:8080(\/app\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no unsubscribe link in ${text}`);
  return match[1];
}

describeEachDialect(
  "weekly e-mail digest",
  (h) => {
    const smtp = new SmtpSink();
    let worker: RunningWorker;
    beforeAll(async () => {
      await smtp.start();
      h.deps.mailer = smtpMailer(smtp.url, "Sightline <digest@sightline.test>");
      worker = await h.startWorker(undefined, { pollIntervalMs: 20 });
    });
    afterAll(async () => {
      await worker.stop(1_000);
      await smtp.stop();
    });

    it("reaches the members who opted in and still belong, with a signed unsubscribe link that works without signing in", async () => {
      const owner = await signUp(h, { email: uniqueEmail("owner"), workspace_name: "Digest agency" });
      const v1 = (path: string) => `/app/api/workspaces/${owner.workspaceId}/v1${path}`;
      const project = await dashboard(h, "POST", v1("/projects"), {
        cookie: owner.cookie,
        body: { name: "Acme CRM", primary_domain: "acmecrm.com", prompts: ["best CRM?"], engines: ["sandbox"] },
      });
      expect(project.statusCode, project.body).toBe(201);
      const projectId = project.json().id as string;
      const schedule = await dashboard(h, "POST", v1("/monitoring"), {
        cookie: owner.cookie,
        body: { project_id: projectId, schedule: { every: "week" }, samples: 2 },
      });
      expect(schedule.statusCode, schedule.body).toBe(201);

      // Invitations name their e-mail: each signs up with the one invited.
      const viewerEmail = uniqueEmail("viewer");
      const viewer = await signUp(h, { email: viewerEmail, invitation: await invite(h, owner, viewerEmail, "viewer") });
      const leaverEmail = uniqueEmail("leaver");
      const leaver = await signUp(h, { email: leaverEmail, invitation: await invite(h, owner, leaverEmail, "member") });

      expect(await optIn(h, owner, projectId, true)).toEqual({
        project_id: projectId,
        subscribed: true,
        email_delivery: true,
      });
      // A viewer may ask for it too, and change their mind.
      expect((await optIn(h, viewer, projectId, true)).subscribed).toBe(true);
      expect((await optIn(h, viewer, projectId, false)).subscribed).toBe(false);
      expect((await optIn(h, leaver, projectId, true)).subscribed).toBe(true);
      const removed = await dashboard(
        h,
        "DELETE",
        `/app/api/workspaces/${owner.workspaceId}/members/${leaver.user.id}`,
        {
          cookie: owner.cookie,
        },
      );
      expect(removed.statusCode, removed.body).toBe(200);
      // Someone else's brand is not found, whoever asks.
      const stranger = await signUp(h, { email: uniqueEmail("stranger"), workspace_name: "Elsewhere" });
      const foreign = await dashboard(h, "GET", digestPath(owner, projectId), { cookie: stranger.cookie });
      expect(foreign.statusCode).toBe(404);

      // A run this week, then Monday: the scheduler makes the week's digest and queues its e-mails.
      const run = await dashboard(h, "POST", v1(`/monitoring/${schedule.json().id}/run`), { cookie: owner.cookie });
      expect(run.statusCode, run.body).toBe(202);
      await idle(h);
      const week = weekStart(h.clock.now());
      h.clock.set(week.getTime() + 7 * 86_400_000 + 3_600_000);
      await schedulerTick(h.deps);
      const [mail] = await smtp.waitFor(owner.user.email, 1);
      await idle(h);
      // (Both got their invitation by e-mail; no digest.)
      const digests = (address: string) => smtp.to(address).filter((m) => m.subject?.startsWith("Weekly digest"));
      expect(smtp.to(viewer.user.email)).toHaveLength(1);
      expect(digests(viewer.user.email)).toHaveLength(0);
      expect(digests(leaverEmail)).toHaveLength(0);

      const start = week.toISOString().slice(0, 10);
      expect(mail?.subject).toBe(`Weekly digest: Acme CRM, week of ${start}`);
      const text = mail?.text ?? "";
      expect(text).toMatch(/Figure: Visibility \d+(\.\d)?% \(\d+(\.\d)?–\d+(\.\d)?%, n = \d+\)/);
      expect(text).toContain("Change: No week before to compare with.");
      expect(mail?.html).toContain("Unsubscribe");
      const header = (name: string) =>
        (mail?.headerLines.find((line) => line.key === name)?.line ?? "").replace(/\r?\n\s+/g, " ");
      expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
      expect(header("list-unsubscribe")).toBe(`List-Unsubscribe: <http://localhost:8080${unsubscribePath(text)}>`);

      // The brand link leads to the brand's page.
      const brandLink = /Open Acme CRM in Sightline: http:\/\/localhost:8080(\/app\/l\/\S+)/.exec(text)?.[1] ?? "";
      const followed = await h.app.inject({ method: "GET", url: brandLink });
      expect(followed.headers.location).toBe(`/w/${owner.workspaceId}/brands/${projectId}`);

      // Unsubscribing: the link shows a page (a mail scanner fetching it changes nothing)…
      const path = unsubscribePath(text);
      const page = await h.app.inject({ method: "GET", url: path });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<form method="post">');
      expect(page.body).toContain("Acme CRM");
      const read = await dashboard(h, "GET", digestPath(owner, projectId), { cookie: owner.cookie });
      expect(read.json().subscribed).toBe(true);
      // …a link altered on the way does nothing…
      // One character of the signature changed (to another: the one replaced may be an "A").
      const forged = `${path.slice(0, -3)}${path.at(-3) === "A" ? "B" : "A"}${path.slice(-2)}`;
      for (const method of ["GET", "POST"] as const) {
        const refused = await h.app.inject({ method, url: forged });
        expect(refused.statusCode, method).toBe(404);
      }
      // …and the one-click POST (RFC 8058), with no session, ends it.
      const done = await h.app.inject({
        method: "POST",
        url: path,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "List-Unsubscribe=One-Click",
      });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.body).toContain("You are unsubscribed");
      const after = await dashboard(h, "GET", digestPath(owner, projectId), { cookie: owner.cookie });
      expect(after.json().subscribed).toBe(false);

      // The next Monday: nothing more for anyone here.
      await dashboard(h, "POST", v1(`/monitoring/${schedule.json().id}/run`), { cookie: owner.cookie });
      await idle(h);
      h.clock.advance(7 * 86_400_000);
      await schedulerTick(h.deps);
      await idle(h);
      expect(digests(owner.user.email)).toHaveLength(1);
    });

    it("reaches an agency's staff who opted in to a client's brand, and stops when they leave the staff", async () => {
      const owner = await signUp(h, { email: uniqueEmail("owner"), workspace_name: "Client of an agency" });
      const agency = await dashboard(h, "POST", "/app/api/agencies", {
        cookie: owner.cookie,
        body: { name: "Digest Partners", workspace_id: owner.workspaceId },
      });
      expect(agency.statusCode, agency.body).toBe(201);
      const agencyId = agency.json().id as string;
      const strategist = await signUp(h, { email: uniqueEmail("strategist"), workspace_name: "Their own" });
      const added = await dashboard(h, "POST", `/app/api/agencies/${agencyId}/staff`, {
        cookie: owner.cookie,
        body: { email: strategist.user.email, role: "strategist" },
      });
      expect(added.statusCode, added.body).toBe(201);
      const v1 = (path: string) => `/app/api/workspaces/${owner.workspaceId}/v1${path}`;
      const project = await dashboard(h, "POST", v1("/projects"), {
        cookie: strategist.cookie,
        body: {
          name: "Fjord Bikes",
          primary_domain: "fjordbikes.example",
          prompts: ["best cargo bike?"],
          engines: ["sandbox"],
        },
      });
      expect(project.statusCode, project.body).toBe(201);
      const projectId = project.json().id as string;
      const schedule = await dashboard(h, "POST", v1("/monitoring"), {
        cookie: strategist.cookie,
        body: { project_id: projectId, schedule: { every: "week" }, samples: 1 },
      });
      expect(schedule.statusCode, schedule.body).toBe(201);
      // The strategist is no member of the client: their agency role lets them opt in.
      const path = `/app/api/workspaces/${owner.workspaceId}/projects/${projectId}/digest`;
      const optedIn = await dashboard(h, "PATCH", path, { cookie: strategist.cookie, body: { subscribed: true } });
      expect(optedIn.statusCode, optedIn.body).toBe(200);
      const week = async () => {
        const run = await dashboard(h, "POST", v1(`/monitoring/${schedule.json().id}/run`), { cookie: owner.cookie });
        expect(run.statusCode, run.body).toBe(202);
        await idle(h);
        h.clock.set(weekStart(h.clock.now()).getTime() + 7 * 86_400_000 + 3_600_000);
        await schedulerTick(h.deps);
        await idle(h);
      };
      const digests = () =>
        smtp.to(strategist.user.email).filter((m) => m.subject?.startsWith("Weekly digest: Fjord Bikes"));
      await week();
      await smtp.waitFor(strategist.user.email, 1);
      expect(digests()).toHaveLength(1);
      // Off the staff: the next week's digest is not theirs any more.
      const removed = await dashboard(h, "DELETE", `/app/api/agencies/${agencyId}/staff/${strategist.user.id}`, {
        cookie: owner.cookie,
      });
      expect(removed.statusCode, removed.body).toBe(200);
      await week();
      expect(digests()).toHaveLength(1);
    });

    it("refuses to opt in when the server cannot send e-mail", async () => {
      const owner = await signUp(h, { email: uniqueEmail("nomail"), workspace_name: "No mail" });
      const project = await dashboard(h, "POST", `/app/api/workspaces/${owner.workspaceId}/v1/projects`, {
        cookie: owner.cookie,
        body: { name: "Globex", primary_domain: "globex.com", prompts: ["best ERP?"], engines: ["sandbox"] },
      });
      const mailer = h.deps.mailer;
      h.deps.mailer = null;
      try {
        const refused = await dashboard(h, "PATCH", digestPath(owner, project.json().id), {
          cookie: owner.cookie,
          body: { subscribed: true },
        });
        expect(refused.statusCode).toBe(400);
        expect(refused.json().error.details[0]).toMatchObject({
          field: "subscribed",
          issue: expect.stringContaining("SMTP_URL"),
        });
        const read = await dashboard(h, "GET", digestPath(owner, project.json().id), { cookie: owner.cookie });
        expect(read.json()).toMatchObject({ subscribed: false, email_delivery: false });
      } finally {
        h.deps.mailer = mailer;
      }
    });
  },
  { config: { accounts: { openSignup: true } } },
);
