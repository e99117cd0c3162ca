import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultEngineConfig } from "../../src/config/engines.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";

/** Each sandbox answer takes this long, one at a time: an analysis's answers come in one by one. */
const LATENCY_MS = 400;
const PROMPTS = ["best CRM for a small agency", "which CRM integrates with Slack?", "cheapest CRM for a startup"];

/** When each POST's answer ended (its event stream closed), by the JSON-RPC method it carried. */
interface Ended {
  method: string;
  at: number;
}

describeEachDialect(
  "MCP run_analysis: progress and cancellation",
  (h: Harness) => {
    let url: URL;
    let t: Tenant;
    let projectId: string;
    const clients: Client[] = [];
    const ended: Ended[] = [];

    /**
     * The SDK's client over Streamable HTTP, through a fetch that notes when each POST's response
     * body has been read to its end: the moment the server stopped answering that request.
     */
    async function connect(): Promise<Client> {
      const client = new Client({ name: "sightline-progress-test", version: "1.0.0" });
      const noting: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        const method = (() => {
          try {
            return String((JSON.parse(String(init?.body ?? "{}")) as { method?: string }).method);
          } catch {
            return "?";
          }
        })();
        if (response.body === null) return response;
        const noted = response.body.pipeThrough(
          new TransformStream({ flush: () => void ended.push({ method, at: Date.now() }) }),
        );
        return new Response(noted, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      };
      const transport = new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: t.authorization } },
        fetch: noting,
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    }

    beforeAll(async () => {
      await h.startWorker();
      const address = await h.app.listen({ host: "127.0.0.1", port: 0 });
      url = new URL("/mcp", address);
      t = await h.tenant("growth");
      const project = await h.call("createProject", {
        key: t.key,
        body: { name: "Acme CRM", primary_domain: "acmecrm.com", prompts: PROMPTS },
      });
      projectId = project.json().id;
    });

    afterAll(async () => {
      for (const client of clients) await client.close();
    });

    it("sends progress notifications (answers done of the total) while run_analysis waits, then the finished analysis", async () => {
      const client = await connect();
      const heard: Progress[] = [];
      const result = (await client.callTool(
        { name: "run_analysis", arguments: { project_id: projectId, engines: ["sandbox"], samples: 2, wait: true } },
        undefined,
        { onprogress: (progress) => heard.push(progress) },
      )) as CallToolResult;
      expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
      const analysis = result.structuredContent as { status: string; progress: { total: number; succeeded: number } };
      expect(analysis.status).toBe("completed");
      expect(analysis.progress).toMatchObject({ total: 6, succeeded: 6 });

      // Several notifications, rising, each of the analysis's total, the last one all of it.
      expect(heard.length).toBeGreaterThanOrEqual(3);
      expect(heard.every((p) => p.total === 6)).toBe(true);
      for (let i = 1; i < heard.length; i++) expect(heard[i]?.progress).toBeGreaterThan(heard[i - 1]?.progress ?? -1);
      expect(heard[0]?.progress).toBeLessThan(6);
      expect(heard.at(-1)).toMatchObject({ progress: 6, message: "6 of 6 answers in" });
    });

    it("answers in one JSON body, without progress, when the client sends no progress token", async () => {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          authorization: t.authorization,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "run_analysis", arguments: { project_id: projectId, engines: ["sandbox"], samples: 1 } },
        }),
      });
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await response.json()) as { result: { structuredContent: { status: string } } };
      expect(body.result.structuredContent.status).toBe("queued");
    });

    it("stops waiting when the client cancels the call, and the analysis goes on", async () => {
      const client = await connect();
      const controller = new AbortController();
      const heard: Progress[] = [];
      const before = ended.length;
      const call = client.callTool(
        { name: "run_analysis", arguments: { project_id: projectId, engines: ["sandbox"], samples: 4, wait: true } },
        undefined,
        {
          signal: controller.signal,
          onprogress: (progress) => {
            heard.push(progress);
            if (heard.length === 1) controller.abort("the user stopped it");
          },
        },
      );
      await expect(call).rejects.toThrow(/stopped it|abort/i);
      const cancelledAt = Date.now();

      // The call's own POST ends soon after the cancel, while the analysis (12 answers, 400 ms
      // each, one at a time: about 5 s) still runs: the server stopped waiting for it.
      const deadline = Date.now() + 3_000;
      while (!ended.slice(before).some((e) => e.method === "tools/call") && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 25));
      const callEnded = ended.slice(before).find((e) => e.method === "tools/call");
      expect(callEnded, "the tools/call POST is still open 3 s after the cancel").toBeDefined();
      expect((callEnded?.at ?? Number.POSITIVE_INFINITY) - cancelledAt).toBeLessThan(3_000);

      // The cancelled call's analysis: the only one of 12 answers (the harness's clock stands still,
      // so the list's order among this suite's analyses says nothing).
      const listed = await h.call("listAnalyses", { key: t.key, query: { project_id: projectId, limit: 10 } });
      const analyses = listed.json().data as { status: string; progress: { total: number; pending: number } }[];
      const cancelled = analyses.filter((a) => a.progress.total === 12);
      expect(cancelled).toHaveLength(1);
      expect(["queued", "running"]).toContain(cancelled[0]?.status);
      expect(cancelled[0]?.progress.pending).toBeGreaterThan(0);
    });
  },
  {
    config: {
      engines: { ...defaultEngineConfig(), sandboxLatencyMs: LATENCY_MS, concurrencyByEngine: { sandbox: 1 } },
    },
  },
);
