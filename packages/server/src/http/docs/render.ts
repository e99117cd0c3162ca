import { escapeHtml, inlineMarkdown, markdown } from "./markdown.ts";
import { fieldRows, fieldTable } from "./schema-table.ts";

type Schema = Record<string, unknown>;

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: { name: string; in: string; required: boolean; description?: string; schema: Schema }[];
  requestBody?: { description?: string; content: Record<string, { schema: Schema } | undefined> };
  responses: Record<string, { description: string; content?: { "application/json": { schema: Schema } } }>;
}

const STYLE = `
body{margin:0;font:15px/1.55 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1c2330;background:#fff}
nav{position:fixed;top:0;bottom:0;left:0;width:250px;overflow:auto;background:#f5f6f8;border-right:1px solid #e2e5ea;padding:20px}
nav h1{font-size:18px;margin:0 0 16px}nav h2{font-size:12px;text-transform:uppercase;color:#667;margin:18px 0 6px}
nav a{display:block;color:#1c2330;text-decoration:none;padding:2px 0;font-size:14px}nav a:hover{color:#2456d6}
main{margin-left:290px;max-width:920px;padding:24px 32px 80px}
section.op{border-top:1px solid #e2e5ea;padding-top:20px;margin-top:28px}
.method{display:inline-block;min-width:56px;text-align:center;font-weight:600;font-size:12px;border-radius:4px;padding:2px 6px;color:#fff;margin-right:8px}
.GET{background:#2e7d4f}.POST{background:#2456d6}.PATCH{background:#9a6a00}.DELETE{background:#b3261e}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f1f3f6;padding:1px 4px;border-radius:3px}
pre{background:#101620;color:#e6edf3;padding:12px 14px;border-radius:6px;overflow:auto}pre code{background:none;color:inherit}
table{border-collapse:collapse;width:100%;margin:8px 0 16px;font-size:14px}th,td{text-align:left;vertical-align:top;border-bottom:1px solid #eceef2;padding:6px 8px}
th{font-size:12px;text-transform:uppercase;color:#667}.req{color:#b3261e;font-size:11px}h3{font-size:14px;margin:18px 0 4px}
main h1,main h2,main p,td,th,li{overflow-wrap:anywhere}pre{max-width:100%}
@media (max-width:800px){
nav{position:static;width:auto;max-height:45vh;border-right:0;border-bottom:1px solid #e2e5ea;padding:16px}
main{margin-left:0;max-width:none;padding:16px 16px 64px}
main h1{font-size:26px}h2 code{font-size:12px}
table{display:block;overflow-x:auto}
}
`;

function curlExample(server: string, method: string, path: string, op: Operation): string {
  const lines = [
    `curl -X ${method} '${server}${path.replace(/\{(\w+)\}/g, "$1_value")}'`,
    `  -H "Authorization: Bearer $SIGHTLINE_KEY"`,
  ];
  const raw =
    op.requestBody === undefined
      ? undefined
      : Object.keys(op.requestBody.content).find((t) => t !== "application/json");
  if (raw !== undefined) lines.push(`  -H 'Content-Type: ${raw}'`, `  --data-binary @access.log`);
  else if (op.requestBody !== undefined) lines.push(`  -H 'Content-Type: application/json'`, `  -d '{ … }'`);
  return lines.join(" \\\n");
}

function renderOperation(
  server: string,
  path: string,
  method: string,
  op: Operation,
  components: Record<string, Schema>,
): string {
  const params = op.parameters.map((p) => ({
    path: p.name,
    type: `${String(p.schema.type ?? "string")} (${p.in})`,
    required: p.required,
    notes: [
      p.description ?? "",
      p.schema.default === undefined ? "" : `Default \`${JSON.stringify(p.schema.default)}\`.`,
    ]
      .filter(Boolean)
      .join(" "),
  }));
  const body = op.requestBody?.content["application/json"]?.schema;
  const rawTypes = Object.keys(op.requestBody?.content ?? {}).filter((type) => type !== "application/json");
  const responses = Object.entries(op.responses)
    .map(([status, response]) => {
      const schema = response.content?.["application/json"].schema;
      const fields = status.startsWith("2") && schema !== undefined ? fieldTable(fieldRows(schema, components)) : "";
      return `<h3>${escapeHtml(status)}</h3><p>${inlineMarkdown(response.description)}</p>${fields}`;
    })
    .join("");
  return `<section class="op" id="${escapeHtml(op.operationId)}">
<h2><span class="method ${method}">${method}</span><code>/v1${escapeHtml(path)}</code></h2>
<p><strong>${escapeHtml(op.summary)}</strong> · <code>${escapeHtml(op.operationId)}</code></p>
${markdown(op.description)}
${params.length > 0 ? `<h3>Parameters</h3>${fieldTable(params)}` : ""}
${body === undefined ? "" : `<h3>Request body</h3>${fieldTable(fieldRows(body, components))}`}
${rawTypes.length === 0 ? "" : `<h3>Request body</h3><p>${escapeHtml(op.requestBody?.description ?? "")} As ${rawTypes.map((type) => `<code>${escapeHtml(type)}</code>`).join(" or ")}.</p>`}
<h3>Example</h3><pre><code>${escapeHtml(curlExample(server, method, path, op))}</code></pre>
${responses}
</section>`;
}

/** A readable, self-contained API reference rendered from the OpenAPI document (no scripts). */
export function renderDocsPage(doc: Record<string, unknown>): string {
  const info = doc.info as { title: string; version: string; description: string };
  const server = (doc.servers as { url: string }[])[0]?.url ?? "/v1";
  const components = ((doc.components as { schemas?: Record<string, Schema> }).schemas ?? {}) as Record<string, Schema>;
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  const byTag = new Map<string, string[]>();
  const sections: string[] = [];
  for (const [path, methods] of Object.entries(paths)) {
    for (const [lower, op] of Object.entries(methods)) {
      const method = lower.toUpperCase();
      const tag = op.tags[0] ?? "Other";
      byTag.set(tag, [
        ...(byTag.get(tag) ?? []),
        `<a href="#${escapeHtml(op.operationId)}"><span class="method ${method}">${method}</span>${escapeHtml(op.summary)}</a>`,
      ]);
      sections.push(renderOperation(server, path, method, op, components));
    }
  }
  const webhooks = Object.entries((doc.webhooks ?? {}) as Record<string, { post: Operation }>);
  if (webhooks.length > 0) {
    byTag.set(
      "Events",
      webhooks.map(([type]) => `<a href="#event-${escapeHtml(type)}">${escapeHtml(type)}</a>`),
    );
    for (const [type, { post }] of webhooks) {
      const schema = post.requestBody?.content["application/json"]?.schema;
      sections.push(`<section class="op" id="event-${escapeHtml(type)}">
<h2><span class="method POST">EVENT</span><code>${escapeHtml(type)}</code></h2>
<p><strong>${escapeHtml(post.summary)}</strong></p>${markdown(post.description)}
<h3>Headers</h3>${fieldTable(post.parameters.map((p) => ({ path: p.name, type: "string", required: true, notes: p.description ?? "" })))}
${schema === undefined ? "" : `<h3>Body</h3>${fieldTable(fieldRows(schema, components))}`}
</section>`);
    }
  }
  const nav = [...byTag].map(([tag, links]) => `<h2>${escapeHtml(tag)}</h2>${links.join("")}`).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(info.title)} reference</title><style>${STYLE}</style></head><body>
<nav><h1>${escapeHtml(info.title)} <small>v${escapeHtml(info.version)}</small></h1><a href="/v1/openapi.json">openapi.json</a>${nav}</nav>
<main><h1>${escapeHtml(info.title)}</h1><p>Base URL: <code>${escapeHtml(server)}</code></p>${markdown(info.description)}${sections.join("\n")}</main>
</body></html>`;
}
