# One image for every app; APP picks the entry point (gateway, places, business, intl, utils, indexer, standalone).
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.build.json nx.json ./
COPY apps apps
COPY libs libs
COPY tools tools
COPY bench bench
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/package.json /app/tsconfig.base.json /app/nx.json ./
COPY --from=build /app/tools/paths.js tools/paths.js
COPY libs/places/src/fixtures libs/places/src/fixtures
ARG APP=gateway
ENV APP=${APP}
USER node
# exec: SIGTERM reaches Node, which drains NATS subscriptions and finishes in-flight requests.
CMD ["sh", "-c", "exec node -r ./tools/paths.js dist/apps/${APP}/src/main.js"]
