import { expect, it } from "vitest";
import { isEmailAddress } from "../../src/lib/email.ts";
import { dashboard, PASSWORD, signUp, uniqueEmail } from "../helpers/dashboard.ts";
import { describeEachDialect } from "../helpers/harness.ts";

const REFUSED = [
  "maya@example",
  "maya@example.c",
  "maya@.com",
  "maya@example..com",
  "maya example@x.com",
  "@example.com",
  "maya\u0000@example.com",
  ".maya@example.com",
  "maya.@example.com",
  "maya..lee@example.com",
];
const ACCEPTED = [
  "maya@example.com",
  "Maya.Lee+crm@mail.example.co.uk",
  "maya@xn--bcher-kva.de",
  "maya@bücher.de",
  // Internationalised domains whose letters carry combining marks (Devanagari).
  "user@example.भारत",
  "राम@डाटामेल.भारत",
];

it("accepts an address only with a dot-separated domain ending in a top-level domain of two letters or more", () => {
  for (const address of REFUSED) expect(isEmailAddress(address), address).toBe(false);
  for (const address of ACCEPTED) expect(isEmailAddress(address), address).toBe(true);
  expect(isEmailAddress(`${"a".repeat(64)}@${"b".repeat(190)}.com`)).toBe(false); // 259 characters
});

describeEachDialect(
  "e-mail addresses",
  (h) => {
    it("refuses maya@example at sign-up and in an invitation, with VALIDATION_ERROR on the field, creating nothing", async () => {
      const users = async () => (await h.deps.db.selectFrom("users").select("id").execute()).length;
      const before = await users();
      const refused = await dashboard(h, "POST", "/app/api/signup", {
        body: { name: "Maya", email: "maya@example", password: PASSWORD, setup_code: h.deps.setupCode },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({
        code: "VALIDATION_ERROR",
        details: [{ field: "email", issue: "must be an e-mail address" }],
      });
      expect(await users()).toBe(before);

      const owner = await signUp(h, { email: uniqueEmail("owner") });
      const invitations = `/app/api/workspaces/${owner.workspaceId}/invitations`;
      const invited = await dashboard(h, "POST", invitations, {
        cookie: owner.cookie,
        body: { email: "maya@example", role: "member" },
      });
      expect(invited.statusCode).toBe(400);
      expect(invited.json().error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "email" }] });
      const listed = await dashboard(h, "GET", invitations, { cookie: owner.cookie });
      expect(listed.json().data).toEqual([]);
      const good = await dashboard(h, "POST", invitations, {
        cookie: owner.cookie,
        body: { email: "maya@example.com", role: "member" },
      });
      expect(good.statusCode, good.body).toBe(201);
    });
  },
  { config: { accounts: { openSignup: true } } },
);
