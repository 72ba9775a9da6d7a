# The service, one instance per container. Configuration comes from the environment (README, Configuration);
# several instances share state through STORE_URL (compose.yaml).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4021
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund && npm cache clean --force
COPY core ./core
COPY plugins ./plugins
COPY scripts ./scripts
COPY tsconfig.json registry.json ./
# The image runs the build (dist/) under plain Node, as npm start does: faster boot, less memory than tsx.
RUN node scripts/build.mjs
USER node
EXPOSE 4021
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:4021/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# SIGTERM drains: running calls finish (SHUTDOWN_TIMEOUT_MS), jobs stop at a safe point, then the process exits.
STOPSIGNAL SIGTERM
CMD ["node", "dist/core/main.mjs"]
