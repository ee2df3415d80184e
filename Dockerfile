# syntax=docker/dockerfile:1
# Build stage: install, build the client, compile the single binary.
FROM oven/bun:1.4.5-debian AS build
WORKDIR /app
COPY package.json bun.lock bunfig.toml tsconfig.json ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build

# Run stage: only the binary, as an unprivileged user.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data app \
 && mkdir -p /data && chown app /data
COPY --from=build /app/dist/ai-search-comparison /usr/local/bin/ai-search-comparison
USER app
WORKDIR /data
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD curl -fsS "http://127.0.0.1:${PORT}/healthz" || exit 1
CMD ["ai-search-comparison"]
