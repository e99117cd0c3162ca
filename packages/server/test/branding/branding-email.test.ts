import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningWorker } from "../../src/app/worker.ts";
import { defaultEngineConfig } from "../../src/config/engines.ts";
import { smtpMailer } from "../../src/services/accounts/mailer.ts";
import { updateBranding } from "../../src/services/branding/branding.ts";
import { brandedEmail, textOn } from "../../src/services/branding/email.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { dashboard, signUp, uniqueEmail } from "../helpers/dashboard.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";
import { ScriptedVendor } from "../helpers/scripted-vendor.ts";
import { SmtpSink } from "../helpers/smtp-sink.ts";
import { dataUrl, png } from "./png.ts";

/** The server's own From: its display name must give way to the workspace's. */
const FROM = "Sightline alerts <alerts@example.test>";

const ENGINES = {
  ...defaultEngineConfig(),
  custom: [{ name: "scripted", baseUrl: "http://127.0.0.1:9", model: "scripted-1", apiKey: null }],
};

const LOGO = png({ width: 24, height: 8, rgb: [0x0b, 0x7a, 0x4b] });

const BRANDING = {
  name: "Northwind Digital",
  logo: dataUrl(LOGO),
  primary: "#0b7a4b",
  accent: "#ff6600",
  show_sightline: false,
};

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Everything a recipient can read of a message: its headers (From, Subject…), text and HTML. */
function readable(mail: ParsedMail): string {
  return [...mail.headerLines.map((line) => line.line), mail.text ?? "", String(mail.html)].join("\n");
}

/** The name, the logo as an inline CID image, the colour; and no "Sightline" anywhere. */
function expectBranded(mail: ParsedMail | undefined): void {
  if (mail === undefined) throw new Error("no e-mail");
  const html = String(mail.html);
  expect(mail.from?.value[0]).toEqual({ name: "Northwind Digital", address: "alerts@example.test" });
  expect(mail.text).toContain("Northwind Digital");
  expect(html).toContain("Northwind Digital");
  expect(html).toContain("#0b7a4b");
  // The logo travels as an inline attachment the HTML names by its Content-ID (the parser puts
  // the attachment's bytes where `cid:brand-logo` was, which it does only for a matching one).
  expect(mail.attachments).toHaveLength(1);
  const [logo] = mail.attachments;
  expect(logo?.cid).toBe("brand-logo");
  expect(logo?.related).toBe(true);
  expect(logo?.contentType).toBe("image/png");
  expect(logo?.contentDisposition).toBe("inline");
  expect(html).toContain(`<img src="${dataUrl(LOGO)}" alt="Northwind Digital"`);
  expect(Buffer.compare(logo?.content ?? Buffer.alloc(0), LOGO)).toBe(0);
  expect(readable(mail)).not.toMatch(/sightline/i);
  expect(logo?.filename ?? "").not.toMatch(/sightline/i);
}

it("the HTML as sent names the logo by its Content-ID, never as a data: URL mail clients block", () => {
  const mail = brandedEmail({ subject: "S", headline: "H", facts: [], links: [], footer: "F" }, BRANDING);
  expect(mail.html).toContain('<img src="cid:brand-logo" alt="Northwind Digital"');
  expect(mail.html).not.toContain("data:");
  expect(mail.attachments).toEqual([
    { filename: "logo.png", content: LOGO, contentType: "image/png", cid: "brand-logo" },
  ]);
  // A light colour gets dark text on its button, a dark one white text.
  expect(textOn("#ffeb3b")).toBe("#1c2330");
  expect(textOn("#0b7a4b")).toBe("#ffffff");
});

describeEachDialect(
  "e-mails in the workspace's branding",
  (h) => {
    const engine = new ScriptedVendor();
    const smtp = new SmtpSink();
    let worker: RunningWorker;
    beforeAll(async () => {
      await engine.start(h);
      await smtp.start();
      h.deps.mailer = smtpMailer(smtp.url, FROM);
      worker = await h.startWorker(undefined, { pollIntervalMs: 20 });
    });
    afterAll(async () => {
      await worker.stop(1_000);
      await smtp.stop();
      await engine.stop();
    });

    async function brand(t: Tenant) {
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
      return res.json().id as string;
    }

    /** A visibility-drop rule e-mailing `to`, and two runs: the brand named, then not; the rule fires. */
    async function alert(t: Tenant, to: string): Promise<ParsedMail | undefined> {
      const created = await h.call("createMonitoring", {
        key: t.key,
        body: {
          project_id: await brand(t),
          samples: 5,
          schedule: { every: "day" },
          alert_rules: [{ type: "visibility_drop", points: 30, channels: { email: [to] } }],
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      for (const mention of [true, false]) {
        engine.mentionBrand = mention;
        const run = await h.call("runMonitoring", { key: t.key, params: { id: created.json().id } });
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
      return (await smtp.waitFor(to, 1))[0];
    }

    async function branded(h: Harness, workspaceId: string, change = {}) {
      await updateBranding(await workspaceContext(h.deps, workspaceId), { ...BRANDING, ...change });
    }

    it("an alert e-mail carries the workspace's name, logo and colour, and no Sightline when it asks so", async () => {
      const t = await h.tenant("agency");
      await branded(h, t.workspace.id);
      const to = uniqueEmail("cmo");
      const mail = await alert(t, to);
      expectBranded(mail);
      expect(mail?.subject).toMatch(/^Alert: Acme CRM — /);
      expect(mail?.text).toContain("Open the monitoring page: http://localhost:8080/app/l/");
    });

    it("when the workspace shows Sightline, the alert says where it comes from, in the same branding", async () => {
      const t = await h.tenant("agency");
      await branded(h, t.workspace.id, { show_sightline: true });
      const mail = await alert(t, uniqueEmail("ops"));
      expect(mail?.from?.value[0]).toEqual({ name: "Northwind Digital", address: "alerts@example.test" });
      expect(mail?.attachments.map((a) => a.cid)).toEqual(["brand-logo"]);
      expect(String(mail?.html)).toContain("#0b7a4b");
      expect(mail?.text).toContain("Made with Sightline");
      expect(mail?.text).toContain("Open in Sightline: ");
    });

    it("an invitation carries the workspace's branding too, and no Sightline when it asks so", async () => {
      const owner = await signUp(h, { workspace_name: "Northwind" });
      await branded(h, owner.workspaceId);
      const email = uniqueEmail("client");
      const res = await dashboard(h, "POST", `/app/api/workspaces/${owner.workspaceId}/invitations`, {
        cookie: owner.cookie,
        body: { email, role: "viewer" },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().emailed).toBe(true);
      const [mail] = await smtp.waitFor(email, 1);
      expectBranded(mail);
      expect(mail?.subject).toBe("Test user invited you to Northwind");
      expect(mail?.text).toContain(`Accept the invitation: ${res.json().link}`);
    });

    it("a workspace that set nothing keeps its name as the sender and Sightline's mention", async () => {
      const t = await h.tenant("agency");
      const mail = await alert(t, uniqueEmail("plain"));
      expect(mail?.from?.value[0]).toEqual({ name: t.workspace.name, address: "alerts@example.test" });
      expect(mail?.attachments).toHaveLength(0);
      expect(String(mail?.html)).not.toContain("cid:");
      expect(mail?.text).toContain("Made with Sightline");
    });
  },
  { config: { engines: ENGINES, accounts: { openSignup: true } } },
);
