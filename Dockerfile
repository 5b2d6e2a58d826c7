# The promop operator image, for users with Docker: `docker build -t promop:0.1.0 .`
#
# The test node builds the same image without Docker (e2e/src/images, `node e2e/src/images/build-images.ts`):
# same Node, same /app (both staged by e2e/src/images/stage-promop-app.ts), same entrypoint, user and
# settings. e2e/src/images/dockerfile-agreement.test.ts fails when the two drift apart.

# The Node version scripts/node-env.sh pins; pnpm's is package.json's packageManager.
ARG NODE_VERSION=24.21.0
ARG PNPM_VERSION=12.4.2

FROM node:${NODE_VERSION}-bookworm-slim AS build
ARG PNPM_VERSION
RUN npm install --global --no-audit --no-fund pnpm@${PNPM_VERSION}
WORKDIR /src
# Dependencies first, from the lockfile alone: a source change does not download them again.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch --prod
COPY . .
# The app packages without their tests, and a production-only node_modules installed offline from the store.
RUN node e2e/src/images/stage-promop-app.ts /staging/app

# glibc, libstdc++ and libgcc (what the official Node binary links against), a nonroot user (65532) and /tmp;
# no shell, no package manager.
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /usr/local/bin/node /usr/local/bin/node
COPY --from=build /staging/app /app
USER 65532:65532
WORKDIR /app
ENV NODE_ENV=production
# Two malloc arenas, and Node's flags in the ENTRYPOINT: e2e/src/images/promop-process-settings.ts says why (the
# memory they save); the benchmarks start promop with the same settings.
ENV MALLOC_ARENA_MAX=2
# `promop run` serves /metrics, /healthz and /readyz here.
EXPOSE 8080/tcp
ENTRYPOINT ["/usr/local/bin/node", "--max-semi-space-size=8", "/app/packages/controller/src/cli.ts"]
CMD ["run"]
