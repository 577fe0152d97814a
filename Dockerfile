# One image for every app; APP picks the entry point (gateway, places, business, intl, utils, standalone).
#   docker build -t lookup:latest .
#   docker run -e APP=places ... lookup:latest
# The migrations Job and the import CLI run other entry points of the same image, e.g.
#   node -r ./tools/paths.js dist/apps/gateway/src/migrate.js
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 and other native addons compile from source.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.build.json nx.json ./
COPY apps apps
COPY libs libs
COPY tools tools
COPY bench bench
RUN npm run build && npm prune --omit=dev
# Files the apps read at run time, nothing else of the sources: bundled samples and fixtures
# (libs/<area>/src/fixtures) and the demo page the gateway serves at / (apps/gateway/src/demo).
RUN mkdir -p /out && find libs -type d -path '*/src/fixtures' -prune -exec cp -r --parents {} /out \; \
  && cp -r --parents apps/gateway/src/demo /out && find /out -name '*spec.ts' -delete

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/package.json /app/tsconfig.base.json /app/nx.json ./
COPY --from=build /app/tools/paths.js tools/paths.js
COPY --from=build /out/ ./
ARG APP=gateway
# A container's port is only reachable from outside when it listens on every interface.
ENV APP=${APP} PORT=3000 HOST=0.0.0.0
USER node
EXPOSE 3000
# Liveness of whichever app runs: every app serves /health on PORT (service apps: their probe port).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# exec: SIGTERM reaches Node, which drains NATS subscriptions and finishes in-flight requests.
STOPSIGNAL SIGTERM
CMD ["sh", "-c", "exec node -r ./tools/paths.js dist/apps/${APP}/src/main.js"]
