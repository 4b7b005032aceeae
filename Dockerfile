# combatd: a two-stage build on debian:bookworm-slim. No "# syntax=" line: that makes BuildKit
# fetch a frontend image from a registry, which fails offline or behind a mirror.
# scripts/ci-image.sh builds this file with a real engine and checks the running image.

# Build stage: the same two steps as the README's run command (scripts/install-deps.sh build,
# then scripts/build.sh), so a green run of that command means a working image.
FROM debian:bookworm-slim AS build
WORKDIR /src
COPY scripts/install-deps.sh scripts/install-deps.sh
RUN scripts/install-deps.sh build
COPY . .
RUN scripts/build.sh

# Runtime stage: only the two shared libraries the binary links (libmicrohttpd12, libjansson4;
# `ldd build/combatd` names no others beyond libc) and a fixed non-root user (UID/GID 10001),
# so volume ownership and Kubernetes' runAsUser can name it. No shell tools are needed.
FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libmicrohttpd12 libjansson4 \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/apt /var/log/dpkg.log \
    && groupadd --system --gid 10001 combatd \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin combatd
COPY --from=build /src/build/combatd /usr/local/bin/combatd
COPY config/combatd.json /etc/combatd/combatd.json
USER 10001:10001
EXPOSE 8080
ENV COMBATD_CONFIG=/etc/combatd/combatd.json
# The image has no curl: the binary checks its own /livez, reading the same configuration
# (file, COMBATD_* environment) as the service, so COMBATD_PORT moves both.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/combatd", "--healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/combatd"]
