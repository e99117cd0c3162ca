import { expect, it } from "vitest";
import { brandingOf, updateBranding } from "../../src/services/branding/branding.ts";
import { DEFAULT_BRANDING } from "../../src/services/branding/types.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { dashboard, invite, type Session, signUp, uniqueEmail } from "../helpers/dashboard.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";
import { readPdf } from "../helpers/pdf.ts";
import { dataUrl, GIF, JPEG, png } from "./png.ts";

function brandingUrl(session: Session): string {
  return `/app/api/workspaces/${session.workspaceId}/branding`;
}

function read(h: Harness, session: Session) {
  return dashboard(h, "GET", brandingUrl(session), { cookie: session.cookie });
}

function change(h: Harness, session: Session, body: unknown) {
  return dashboard(h, "PATCH", brandingUrl(session), { cookie: session.cookie, body });
}

/** The stored row, as a database dump would show it: what "changes nothing" is checked on. */
async function row(h: Harness, workspaceId: string): Promise<string> {
  const found = await h.deps.db
    .selectFrom("workspace_branding")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .executeTakeFirst();
  return JSON.stringify(found ?? null);
}

/** Someone invited into the owner's workspace with `role`, signed in, acting in that workspace. */
async function joined(h: Harness, owner: Session, role: string): Promise<Session> {
  const email = uniqueEmail(role);
  const session = await signUp(h, { email, invitation: await invite(h, owner, email, role) });
  return { ...session, workspaceId: owner.workspaceId };
}

describeEachDialect(
  "workspace branding",
  (h) => {
    it("a workspace that set nothing is signed with its own name, the default colours and Sightline", async () => {
      const owner = await signUp(h, { workspace_name: "Northwind agency" });
      const res = await read(h, owner);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        name: "Northwind agency",
        logo: null,
        primary: DEFAULT_BRANDING.primary,
        accent: DEFAULT_BRANDING.accent,
        show_sightline: true,
        workspace_name: "Northwind agency",
        custom_name: false,
        agency: null,
        updated_at: null,
      });
      expect(await brandingOf(h.deps, owner.workspaceId)).toEqual({
        name: "Northwind agency",
        logo: null,
        primary: DEFAULT_BRANDING.primary,
        accent: DEFAULT_BRANDING.accent,
        show_sightline: true,
      });
    });

    it("an owner sets the name, logo, colours and Sightline's mention; every member reads them", async () => {
      const owner = await signUp(h, { workspace_name: "Northwind agency" });
      const logo = png({ width: 12, height: 6 });
      const res = await change(h, owner, {
        name: "  Northwind Digital  ",
        logo: dataUrl(logo),
        primary: "#0B7A4B",
        accent: "#ff6600",
        show_sightline: false,
      });
      expect(res.statusCode, res.body).toBe(200);
      const expected = {
        name: "Northwind Digital",
        logo: dataUrl(logo),
        primary: "#0b7a4b",
        accent: "#ff6600",
        show_sightline: false,
      };
      expect(res.json()).toMatchObject({ ...expected, custom_name: true, workspace_name: "Northwind agency" });
      expect(res.json().updated_at).toBe(h.clock.now().toISOString());
      expect(await brandingOf(h.deps, owner.workspaceId)).toEqual(expected);
      // Stored as a boolean on both dialects, read back as one.
      const stored = await h.deps.db
        .selectFrom("workspace_branding")
        .select(["show_sightline", "updated_by", "logo_mime"])
        .where("workspace_id", "=", owner.workspaceId)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ show_sightline: false, updated_by: owner.user.id, logo_mime: "image/png" });

      for (const role of ["viewer", "member"]) {
        const reader = await joined(h, owner, role);
        const seen = await read(h, reader);
        expect(seen.statusCode, `${role}: ${seen.body}`).toBe(200);
        expect(seen.json()).toMatchObject(expected);
      }
      // What is left out is kept: a new colour does not drop the logo.
      const again = await change(h, owner, { accent: "#123456" });
      expect(again.json()).toMatchObject({ ...expected, accent: "#123456" });
    });

    it("admins change it; members and viewers cannot, and their attempts change nothing", async () => {
      const owner = await signUp(h);
      expect((await change(h, owner, { name: "Set by the owner", primary: "#112233" })).statusCode).toBe(200);
      const before = await row(h, owner.workspaceId);
      for (const role of ["viewer", "member"]) {
        const other = await joined(h, owner, role);
        for (const body of [{ name: `Set by a ${role}` }, { show_sightline: false }, { logo: null }]) {
          const res = await change(h, other, body);
          expect(res.statusCode, `${role} ${JSON.stringify(body)}`).toBe(403);
          expect(res.json().error.code).toBe("FORBIDDEN");
        }
      }
      expect(await row(h, owner.workspaceId)).toBe(before);
      const admin = await joined(h, owner, "admin");
      const res = await change(h, admin, { name: "Set by an admin" });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ name: "Set by an admin", primary: "#112233" });
    });

    it("another workspace's branding can be neither read nor changed", async () => {
      const owner = await signUp(h);
      await change(h, owner, { name: "Private agency name" });
      const stranger = await signUp(h, { workspace_name: "Elsewhere" });
      const as = { ...stranger, workspaceId: owner.workspaceId };
      const seen = await read(h, as);
      expect(seen.statusCode).toBe(404);
      expect(seen.body).not.toContain("Private agency name");
      const changed = await change(h, as, { name: "Taken over" });
      expect(changed.statusCode).toBe(404);
      expect((await read(h, owner)).json().name).toBe("Private agency name");
    });

    it("refuses bad input by field, and a refused change changes nothing, not even its valid part", async () => {
      const owner = await signUp(h);
      const logo = dataUrl(png());
      expect((await change(h, owner, { name: "Kept", logo, primary: "#010203", accent: "#040506" })).statusCode).toBe(
        200,
      );
      const before = await row(h, owner.workspaceId);
      const cases: [unknown, string][] = [
        [{ name: "" }, "name"],
        [{ name: "   " }, "name"],
        [{ name: "x".repeat(81) }, "name"],
        [{ name: 42 }, "name"],
        [{ primary: "blue" }, "primary"],
        [{ primary: "#12345" }, "primary"],
        [{ accent: "#12345g" }, "accent"],
        [{ accent: "rgb(1,2,3)" }, "accent"],
        [{ show_sightline: "no" }, "show_sightline"],
        [{ logo: dataUrl(GIF, "image/gif") }, "logo"],
        [{ logo: "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=" }, "logo"],
        [{ logo: "not base64 at all!" }, "logo"],
        [{ logo: "" }, "logo"],
        [{ logo: Buffer.from("just some text, not an image").toString("base64") }, "logo"],
        // A valid name with a bad colour: neither is stored.
        [{ name: "Changed", primary: "#zzzzzz" }, "primary"],
        [{ name: "Changed", logo: dataUrl(GIF) }, "logo"],
      ];
      for (const [body, field] of cases) {
        const res = await change(h, owner, body);
        expect(res.statusCode, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`).toBe(400);
        expect(res.json().error.code).toBe("VALIDATION_ERROR");
        expect(
          res.json().error.details.map((d: { field?: string }) => d.field),
          JSON.stringify(body).slice(0, 80),
        ).toContain(field);
      }
      const unknown = await change(h, owner, { font: "Comic Sans" });
      expect(unknown.statusCode).toBe(400);
      expect(await row(h, owner.workspaceId)).toBe(before);
      expect((await read(h, owner)).json()).toMatchObject({ name: "Kept", logo, primary: "#010203" });
    });

    it("a logo is a PNG or a JPEG by its bytes, whatever it is called, and 200 kB at most", async () => {
      const owner = await signUp(h);
      // GIF bytes called a PNG: refused on their content.
      const gif = await change(h, owner, { logo: dataUrl(GIF, "image/png") });
      expect(gif.statusCode).toBe(400);
      expect(gif.json().error.details).toEqual([
        { field: "logo", issue: "must be a PNG or JPEG image: its content is neither" },
      ]);
      // A PNG's signature alone is not a PNG.
      const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0]);
      expect((await change(h, owner, { logo: dataUrl(signature) })).statusCode).toBe(400);
      // A JPEG saved as logo.png: kept as the JPEG it is.
      const jpeg = await change(h, owner, { logo: dataUrl(JPEG, "image/png") });
      expect(jpeg.statusCode, jpeg.body).toBe(200);
      expect(jpeg.json().logo).toBe(dataUrl(JPEG, "image/jpeg"));
      // Bare base64, with the line breaks some encoders add.
      const bytes = png({ width: 3, height: 2 });
      const wrapped = bytes.toString("base64").replace(/(.{20})/g, "$1\n");
      const bare = await change(h, owner, { logo: wrapped });
      expect(bare.statusCode, bare.body).toBe(200);
      expect(bare.json().logo).toBe(dataUrl(bytes));

      // 200,000 bytes is allowed; one more is not, and says by how much.
      const largest = png({ padTo: 200_000 });
      expect(largest.length).toBe(200_000);
      const fits = await change(h, owner, { logo: dataUrl(largest) });
      expect(fits.statusCode, fits.body.slice(0, 300)).toBe(200);
      expect(fits.json().logo).toBe(dataUrl(largest));
      const stored = await row(h, owner.workspaceId);
      const over = await change(h, owner, { logo: dataUrl(png({ padTo: 200_001 })) });
      expect(over.statusCode).toBe(400);
      expect(over.json().error.details).toEqual([
        { field: "logo", issue: "must be at most 200 kB (this one is 201 kB)" },
      ]);
      const noisy = png({ width: 300, height: 300, noise: true });
      expect(noisy.length).toBeGreaterThan(250_000);
      const large = await change(h, owner, { logo: dataUrl(noisy) });
      expect(large.statusCode).toBe(400);
      expect(large.json().error.details[0]).toMatchObject({ field: "logo" });
      expect(await row(h, owner.workspaceId)).toBe(stored);
    });

    it("null goes back to the default: the workspace's name (renamed since), no logo, the default colours", async () => {
      const owner = await signUp(h, { workspace_name: "First name" });
      await change(h, owner, { name: "Agency", logo: dataUrl(png()), primary: "#000000", accent: "#ffffff" });
      const res = await change(h, owner, { name: null, logo: null, primary: null, accent: null });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        name: "First name",
        custom_name: false,
        logo: null,
        primary: DEFAULT_BRANDING.primary,
        accent: DEFAULT_BRANDING.accent,
      });
      const renamed = await dashboard(h, "PATCH", `/app/api/workspaces/${owner.workspaceId}`, {
        cookie: owner.cookie,
        body: { name: "Second name" },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect((await brandingOf(h.deps, owner.workspaceId)).name).toBe("Second name");
    });

    it("goes with its workspace when the workspace is deleted", async () => {
      const owner = await signUp(h, { workspace_name: "Short-lived" });
      await change(h, owner, { name: "Gone soon", logo: dataUrl(png()) });
      const deleted = await dashboard(h, "DELETE", `/app/api/workspaces/${owner.workspaceId}`, {
        cookie: owner.cookie,
        body: { confirm_name: "Short-lived" },
      });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(await row(h, owner.workspaceId)).toBe("null");
      expect(await brandingOf(h.deps, owner.workspaceId)).toEqual(DEFAULT_BRANDING);
    });
  },
  { config: { accounts: { openSignup: true } } },
);

describeEachDialect("reports in the workspace's branding", (h) => {
  it("the report page, its shared link and its PDF carry the name, logo and colours, and Sightline only when shown", async () => {
    await h.startWorker();
    const t = await h.tenant("agency");
    const created = await h.call("createProject", {
      key: t.key,
      body: { name: "Acme CRM", primary_domain: "acmecrm.com", prompts: ["best CRM for a small agency"] },
    });
    const projectId = created.json().id as string;
    const analyzed = await h.call("analyze", {
      key: t.key,
      body: { project_id: projectId, engines: ["sandbox"], samples: 1, wait: 30 },
    });
    expect(analyzed.statusCode, analyzed.body).toBe(200);
    const [report] = (await h.call("listReports", { key: t.key, query: { project_id: projectId } })).json().data;
    const share = await h.call("createReportShare", { key: t.key, params: { id: report.id } });
    expect(share.statusCode, share.body).toBe(201);
    const sharedPath = new URL(share.json().url).pathname;

    const logo = dataUrl(png({ width: 40, height: 12, rgb: [0x0b, 0x7a, 0x4b] }));
    const ctx = await workspaceContext(h.deps, t.workspace.id);
    await updateBranding(ctx, {
      name: "Northwind Digital",
      logo,
      primary: "#0b7a4b",
      accent: "#ff6600",
      show_sightline: false,
    });
    const pages = async () => ({
      api: (await h.call("getReport", { key: t.key, params: { id: report.id }, query: { format: "html" } })).body,
      shared: (await h.app.inject({ method: "GET", url: sharedPath })).body,
    });
    const pdfs = async () => ({
      api: (await h.call("getReport", { key: t.key, params: { id: report.id }, query: { format: "pdf" } })).rawPayload,
      shared: (await h.app.inject({ method: "GET", url: `${sharedPath}?format=pdf` })).rawPayload,
    });

    for (const [where, page] of Object.entries(await pages())) {
      expect(page, where).toContain("Northwind Digital");
      expect(page, where).toContain(logo);
      expect(page, where).toContain("#0b7a4b");
      expect(page, where).not.toMatch(/sightline/i);
    }
    for (const [where, bytes] of Object.entries(await pdfs())) {
      const pdf = await readPdf(new Uint8Array(bytes));
      expect(pdf.text, where).toContain("Northwind Digital");
      expect(`${pdf.text}${pdf.info}`, where).not.toMatch(/sightline/i);
    }

    // Shown again: "Made with Sightline" comes back, the rest stays.
    await updateBranding(ctx, { show_sightline: true });
    for (const [where, page] of Object.entries(await pages())) {
      expect(page, where).toContain("Northwind Digital");
      expect(page, where).toContain("Sightline");
    }
  }, 60_000);
});
