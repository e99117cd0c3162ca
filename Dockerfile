# syntax=docker/dockerfile:1
# Sightline in one image: `all` by default (API and worker in one process), or `serve`, `worker`,
# `migrate` and every operator command as the container's arguments. compose.yaml runs it on
# PostgreSQL and Redis; docs/deployment.md says how, and what of it has been run.

FROM node:20-bookworm-slim AS build
# better-sqlite3 installs a prebuilt binary when one matches the platform and compiles itself
# otherwise: the compiler stays in this stage.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
# `npm install`, not `npm ci` (the lockfile lacks other platforms' optional packages, which
# `npm ci` rejects; .ci/run does the same). Its postinstall builds the dashboard (Vite) and the
# server (esbuild, packages/server/dist/bin/sightline.mjs); then the build tools are dropped.
RUN --mount=type=cache,target=/root/.npm \
  npm install --no-audit --no-fund \
  && test -f packages/server/dist/bin/sightline.mjs \
  && test -f packages/web/dist/index.html \
  && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
# No NODE_ENV=production: Sightline does not read it, the test suite runs without it, and the
# accounts library would change its behaviour (cookie names among others) under it.
ENV HOST=0.0.0.0 \
  PORT=8080 \
  SIGHTLINE_DATA_DIR=/var/lib/sightline
WORKDIR /app
# Owned by root: the process (user node) reads the code and writes only its data folder.
COPY --from=build /app /app
RUN mkdir -p /var/lib/sightline && chown node:node /var/lib/sightline
USER node
EXPOSE 8080
# SIGTERM drains within SIGHTLINE_SHUTDOWN_TIMEOUT (25 s): give `docker stop` -t 30 (compose.yaml
# sets stop_grace_period), since Docker's own default of 10 s would cut the drain short.
STOPSIGNAL SIGTERM
# /healthz answers 200 once the database answers, under any Host. No curl in the slim image: node
# asks. Only `serve` and `all` listen; compose.yaml turns this off for the worker.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "--enable-source-maps", "packages/server/dist/bin/sightline.mjs"]
CMD ["all"]
