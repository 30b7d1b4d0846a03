# Tonne, for operators. Untested on the project's own machines (no Docker engine there): see README.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY bin ./bin
COPY src ./src
COPY data ./data
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
