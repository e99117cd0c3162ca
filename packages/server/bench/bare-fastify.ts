import { readFileSync } from "node:fs";
import Fastify from "fastify";

// The baseline: Fastify with nothing on it. With BODY_FILE it answers that file's content, so
// the cost of the response's size can be told apart from the cost of producing it.
const body = process.env.BODY_FILE === undefined ? undefined : readFileSync(process.env.BODY_FILE, "utf8");
const app = Fastify({ logger: false, forceCloseConnections: true });
app.get("/", async (_request, reply) =>
  body === undefined ? { hello: "world" } : reply.type("application/json; charset=utf-8").send(body),
);
const address = await app.listen({ host: "127.0.0.1", port: 0 });
process.stdout.write(`LISTENING ${address}\n`);
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
