# Tonne, for operators. Untested on the project's own machines (no Docker engine there): see README.
# The server's bundle (scripts/build-bundle.ts) needs esbuild, a devDependency: it is built in a stage of its own.
FROM node:24-bookworm-slim AS bundle
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: src/ is not here yet for `prepare`, and esbuild finds its platform package without one.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY scripts/build-bundle.ts ./scripts/
COPY src ./src
RUN node scripts/build-bundle.ts

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# `prepare` finds no esbuild here and leaves the bundle to the stage above.
COPY scripts/build-bundle.ts ./scripts/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY bin ./bin
COPY src ./src
COPY data ./data
# Copied after src/ and built after it: bin/tonne.js runs the bundle only while it is newer than its sources
# (the worker threads and the files read at run time stay in src/ and data/).
COPY --from=bundle /app/dist ./dist
# Listen on every interface inside the container; everything written goes to the /data volume.
ENV HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:3000/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# `serve` sizes itself for the container's memory limit (cgroup v1 or v2) and restarts itself once with the V8 flags
# for it: without a limit an 8 MB semi-space and no pretenuring, as before (README, "Configuration";
# docs/performance.md). V8 flags given here or in NODE_OPTIONS win.
CMD ["node", "bin/tonne.js", "serve"]
