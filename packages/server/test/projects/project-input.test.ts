import { expect, it } from "vitest";
import { describeEachDialect } from "../helpers/harness.ts";

const valid = { name: "Acme", primary_domain: "acme.com" };

describeEachDialect("projects API, bad input", (h) => {
  async function expectValidationError(body: unknown, fields: (string | undefined)[]) {
    const t = await h.tenant();
    const res = await h.call("createProject", { key: t.key, body });
    expect(res.statusCode, res.body).toBe(400);
    const error = res.json().error;
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.details.map((d: { field?: string }) => d.field)).toEqual(fields);
    expect(await h.count("projects", t.workspace.id)).toBe(0);
    expect(await h.count("events", t.workspace.id)).toBe(0);
    return error;
  }

  it("refuses unknown fields", async () => {
    const error = await expectValidationError({ ...valid, colour: "red" }, ["colour"]);
    expect(error.details[0].issue).toBe("is not a known field");
  });

  it("refuses unknown fields inside competitors", async () => {
    await expectValidationError({ ...valid, competitors: [{ name: "X", website: "x.com" }] }, [
      "competitors[0].website",
    ]);
  });

  it("refuses wrong types without coercing them", async () => {
    await expectValidationError({ name: 42, primary_domain: "acme.com", prompts: "one prompt" }, ["name", "prompts"]);
  });

  it("refuses missing required fields", async () => {
    const error = await expectValidationError({ name: "Acme" }, ["primary_domain"]);
    expect(error.details[0].issue).toBe("is required");
  });

  it("refuses values out of range", async () => {
    await expectValidationError(
      { ...valid, name: "x".repeat(201), engines: [], prompts: Array.from({ length: 201 }, (_, i) => `p${i}`) },
      ["name", "prompts", "engines"],
    );
  });

  it("refuses too many or too long exclusion phrases and empty case-sensitive aliases", async () => {
    await expectValidationError(
      {
        ...valid,
        exclusions: ["x".repeat(101)],
        case_sensitive_aliases: [""],
        competitors: [{ name: "SAP", case_sensitive_aliases: Array.from({ length: 21 }, (_, i) => `S${i}`) }],
      },
      ["case_sensitive_aliases[0]", "exclusions[0]", "competitors[0].case_sensitive_aliases"],
    );
    await expectValidationError({ ...valid, exclusions: Array.from({ length: 51 }, (_, i) => `p${i}`) }, [
      "exclusions",
    ]);
  });

  it("refuses citation categories that are not domains, unknown or reserved categories, contradictions and too many", async () => {
    const error = await expectValidationError(
      {
        ...valid,
        citation_categories: [
          { domain: "not a domain", category: "news" },
          { domain: "news.example", category: "gossip" },
          { domain: "acme-blog.com", category: "owned" },
          { domain: "weekly.com", category: "news" },
          { domain: "https://www.weekly.com/", category: "review" },
        ],
      },
      ["citation_categories[0].domain", "citation_categories[1].category", "citation_categories[2].category"],
    );
    expect(error.details[1].issue).toMatch(/social/);
    await expectValidationError(
      {
        ...valid,
        citation_categories: [
          { domain: "weekly.com", category: "news" },
          { domain: "https://www.weekly.com/", category: "review" },
        ],
      },
      ["citation_categories[1].domain"],
    );
    await expectValidationError(
      {
        ...valid,
        citation_categories: Array.from({ length: 101 }, (_, i) => ({ domain: `d${i}.com`, category: "news" })),
      },
      ["citation_categories"],
    );
    await expectValidationError({ ...valid, citation_categories: [{ domain: "a.com" }] }, [
      "citation_categories[0].category",
    ]);
  });

  it("explains a nullable field with the wrong type", async () => {
    const error = await expectValidationError({ ...valid, country: 12 }, ["country"]);
    expect(error.details[0].issue).toBe("must be of type string or null");
  });

  it("refuses domains that are not domains", async () => {
    await expectValidationError(
      {
        ...valid,
        primary_domain: "not a domain",
        other_domains: ["127.0.0.1", "localhost", "acme.com/blog", "ftp://acme.com"],
      },
      ["primary_domain", "other_domains[0]", "other_domains[1]", "other_domains[2]", "other_domains[3]"],
    );
  });

  it("refuses a competitor named like the brand, and duplicate competitors", async () => {
    await expectValidationError(
      {
        ...valid,
        aliases: ["Acme Corp"],
        competitors: [{ name: "acme corp" }, { name: "Globex" }, { name: "GLOBEX" }],
      },
      ["competitors[0].name", "competitors[2].name"],
    );
  });

  it("refuses unknown engines, countries and languages", async () => {
    const error = await expectValidationError(
      { ...valid, engines: ["sandbox", "bard"], country: "UK", language: "english please" },
      ["engines[1]", "country", "language"],
    );
    expect(error.details[1].issue).toContain("GB");
  });

  it("refuses an engine outside the plan with ENGINE_NOT_ALLOWED, after validation", async () => {
    const t = await h.tenant("growth");
    const res = await h.call("createProject", {
      key: t.key,
      body: { ...valid, engines: ["sandbox", "claude", "grok"] },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("ENGINE_NOT_ALLOWED");
    expect(res.json().error.details.map((d: { engine: string }) => d.engine)).toEqual(["claude", "grok"]);
    expect(await h.count("projects", t.workspace.id)).toBe(0);

    const both = await h.call("createProject", { key: t.key, body: { ...valid, name: "", engines: ["claude"] } });
    expect(both.json().error.code).toBe("VALIDATION_ERROR");

    const agency = await h.tenant("agency");
    const ok = await h.call("createProject", { key: agency.key, body: { ...valid, engines: ["claude", "grok"] } });
    expect(ok.statusCode).toBe(201);
  });

  it("refuses malformed JSON, empty bodies, other media types and oversized bodies", async () => {
    const t = await h.tenant();
    const send = (payload: string, contentType = "application/json") =>
      h.app.inject({
        method: "POST",
        url: "/v1/projects",
        headers: { authorization: t.authorization, "content-type": contentType },
        payload,
      });
    const cases = [
      await send('{"name": '),
      await send(""),
      await send("name=Acme", "application/x-www-form-urlencoded"),
      await send("Acme", "text/plain"),
      await send(JSON.stringify({ ...valid, prompts: ["x".repeat(1024 * 1024)] })),
      await send("[1, 2, 3]"),
      await send("null"),
      await send('{"__proto__": {"admin": true}, "name": "Acme", "primary_domain": "acme.com"}'),
    ];
    for (const res of cases) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
      expect(res.json().error.request_id).toBe(res.headers["x-request-id"]);
    }
    const missing = await h.app.inject({
      method: "POST",
      url: "/v1/projects",
      headers: { authorization: t.authorization },
    });
    expect(missing.statusCode).toBe(400);
    expect(await h.count("projects", t.workspace.id)).toBe(0);
  });

  it("refuses bad list parameters", async () => {
    const t = await h.tenant();
    const queries: Record<string, string | number>[] = [
      { limit: 0 },
      { limit: 101 },
      { limit: "ten" },
      { cursor: "garbage" },
      // Well-formed cursors whose contents are not: a NUL in the id, a date that is not one.
      { cursor: Buffer.from(JSON.stringify(["2026-01-01T00:00:00Z", "a\u0000b"])).toString("base64url") },
      { cursor: Buffer.from(JSON.stringify(["1", "prj_aaaaaaaaaaaaaaaaaaaaaaaa"])).toString("base64url") },
      { sort: "name" },
    ];
    for (const query of queries) {
      const res = await h.call("listProjects", { key: t.key, query });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
      expect(res.json().error.details[0].field).toBe(Object.keys(query)[0]);
    }
  });

  it("answers NOT_FOUND for an unknown project id, whatever it looks like", async () => {
    const t = await h.tenant();
    for (const id of ["prj_doesnotexist000000000000", "x", "\u{1F600}", "' or 1=1 --", "a/b"]) {
      const res = await h.call("getProject", { key: t.key, params: { id } });
      expect(res.statusCode, `${id}: ${res.body}`).toBe(404);
      expect(res.json().error.code).toBe("NOT_FOUND");
    }
    const nul = await h.call("getProject", { key: t.key, params: { id: "\u0000" } });
    expect(nul.statusCode).toBe(400);
  });

  it("validates a PATCH the same way and leaves the project unchanged", async () => {
    const t = await h.tenant();
    const created = (await h.call("createProject", { key: t.key, body: valid })).json();
    for (const [body, status] of [
      [{ name: "" }, 400],
      [{ primary_domain: "nope" }, 400],
      [{ id: "prj_other" }, 400],
      [{ engines: ["claude"] }, 403],
      [{ competitors: [{ name: "Acme" }] }, 400],
    ] as const) {
      const res = await h.call("updateProject", { key: t.key, params: { id: created.id }, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
    }
    expect((await h.call("getProject", { key: t.key, params: { id: created.id } })).json()).toEqual(created);
    expect(await h.count("events", t.workspace.id)).toBe(1);
  });
});

describeEachDialect("every response is JSON in the error shape", (h) => {
  it("answers an unknown route or method with 404 NOT_FOUND and a request id", async () => {
    for (const [method, url] of [
      ["GET", "/v1/nothing"],
      ["DELETE", "/v1/projects"],
      ["GET", "/v2/projects"],
      ["PUT", "/v1/projects/prj_x"],
    ] as const) {
      const res = await h.app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatchObject({ code: "NOT_FOUND", request_id: res.headers["x-request-id"] });
    }
  });

  it("answers malformed URLs with VALIDATION_ERROR", async () => {
    const t = await h.tenant();
    for (const url of ["/v1/projects/%E0%A4%A", `/v1/projects/${"a".repeat(300)}`]) {
      const res = await h.app.inject({ method: "GET", url, headers: { authorization: t.authorization } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatchObject({ code: "VALIDATION_ERROR", request_id: res.headers["x-request-id"] });
    }
  });

  it("refuses a body nested too deeply to walk, without a 500", async () => {
    const t = await h.tenant();
    const depth = 200_000; // under the 1 MiB body limit
    const payload = `{"name": ${"[".repeat(depth)}${"]".repeat(depth)}, "primary_domain": "acme.com"}`;
    const res = await h.call("createProject", {
      key: t.key,
      headers: { "content-type": "application/json" },
      body: payload,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(res.json().error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "name" }] });
    expect(await h.count("projects", t.workspace.id)).toBe(0);
  });

  it("never answers a 500 to random bodies and parameters", async () => {
    const t = await h.tenant();
    const samples: unknown[] = [
      0,
      -1,
      1e308,
      "",
      "x",
      true,
      null,
      [],
      {},
      [null],
      { a: { b: { c: [] } } },
      "\u0000",
      "\ud800",
      "💥".repeat(50),
    ];
    const fields = [
      "name",
      "primary_domain",
      "other_domains",
      "aliases",
      "competitors",
      "prompts",
      "engines",
      "country",
      "language",
    ];
    let requests = 0;
    for (const field of fields) {
      for (const value of samples) {
        for (const base of [valid, {}]) {
          const res = await h.call("createProject", { key: t.key, body: { ...base, [field]: value } });
          expect(res.statusCode, `${field}=${JSON.stringify(value)}: ${res.body}`).toBeLessThan(500);
          requests++;
        }
      }
    }
    for (const value of ["", "-1", "1.5", "1e3", "\u0000", "[]", "{}"]) {
      const res = await h.call("listProjects", { key: t.key, query: { limit: value, cursor: value } });
      expect(res.statusCode).toBe(400);
    }
    expect(requests).toBe(fields.length * samples.length * 2);
  });
});
