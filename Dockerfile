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
# The V8 flags of `npm start`: an 8 MB semi-space (V8 otherwise grows the young generation to 128 MB under load) and
# no pretenuring (a burst could make V8 allocate every request's objects in the old generation) (docs/performance.md).
CMD ["node", "--max-semi-space-size=8", "--no-allocation-site-pretenuring", "bin/tonne.js", "serve"]
