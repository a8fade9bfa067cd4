# Sitecast for fly.io: web app built with Node, server built with Rust, both copied into
# a small Debian runtime. Configuration (database, S3, SMTP) comes from the environment.

FROM node:20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

FROM rust:1.95-bookworm AS server
# The bundled libheif is built with cmake and decodes HEVC with Debian's libde265; the
# bundled libjpeg-turbo is built with cmake and nasm (its SIMD).
RUN apt-get update && apt-get install -y --no-install-recommends cmake nasm libde265-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Cargo.toml Cargo.lock clippy.toml ./
COPY protocol/ protocol/
COPY server/ server/
COPY migrations/ migrations/
RUN cargo build --release --locked -p sitecast-server

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates libde265-0 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home /app sitecast
WORKDIR /app
COPY --from=server /src/target/release/sitecast /app/sitecast
COPY --from=web /src/web/dist /app/web
ENV SITECAST_BIND=0.0.0.0:8080 \
    SITECAST_WEB_DIR=/app/web \
    SITECAST_DATA_DIR=/data \
    RUST_LOG=info,sqlx=warn
RUN mkdir -p /data && chown sitecast /data
USER sitecast
EXPOSE 8080
CMD ["/app/sitecast", "serve"]
