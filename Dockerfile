# syntax=docker/dockerfile:1
# swapgraph: build stage (TypeScript -> dist/), then a runtime stage with production dependencies
# only, running as the unprivileged `node` user. See docs/configuration.md, "Docker".
# The embedded demo's chain builder (the workspace packages/devnet) is left out of the context
# (.dockerignore) and so of the image: the image needs a configuration file (--config or
# SWAPGRAPH_CONFIG, e.g. config/mainnet.json); without one it exits at once and says so.
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary can be downloaded.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# `npm ci` installs no devnet (its workspace is not in the context, nor anvil, its dependency) and
# runs the prepare script (scripts/buildDashboard.mjs): it skips the dashboard while web/
# is not copied yet; `npm run build` below builds it into web/dist/.
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY web ./web
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The dashboard served at `/`, found from dist/http/plugins/ as ../../../web/dist/.
COPY --from=build /app/web/dist ./web/dist
COPY package.json ./
COPY scripts/start.mjs ./scripts/start.mjs
COPY schema ./schema
COPY config ./config
# The SQLite store and the demo's chains write under .data/ (not needed with DATABASE_URL).
RUN mkdir -p .data && chown node:node .data
USER node
EXPOSE 4000
# Liveness: /health answers as soon as the server listens. Load balancers should use /ready
# (503 until every network's backfill is done, and while draining on SIGTERM).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node itself is PID 1's child under `init: true` (compose) or --init; it handles SIGTERM by draining.
CMD ["node", "--enable-source-maps", "dist/start.js"]
