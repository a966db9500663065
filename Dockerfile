# syntax=docker/dockerfile:1
# Primeur's container image (README "Running Primeur for real", "In a
# container"): the static binary of `make build`, the interface embedded,
# alone in an image FROM scratch, run as a user without privileges.
#
#   docker build --build-arg COMMIT=$(git rev-parse --short HEAD) -t primeur .
#   docker run -d --name primeur -p 127.0.0.1:8080:8080 -v primeur-data:/data primeur
#
# Building needs the registries the project already uses and nothing else:
# Docker Hub for the node and golang images, npm's registry (npm ci, from
# ui/package-lock.json) and the Go module proxy (go mod download, from
# go.sum). deploy/dockerfile_test.go checks this file against the Makefile.

# The interface, as `make ui` builds it (ui/dist, embedded by embed.go).
# Node ^20.19.0 || >=22.12.0, the range ui/package.json declares.
FROM node:22-bookworm-slim AS ui
WORKDIR /src
COPY ui/package.json ui/package-lock.json ui/
RUN cd ui && npm ci --no-audit --no-fund
# The UI's type check reads test fixtures of core/ (tsc -b): the whole tree.
COPY . .
RUN cd ui && npm run build

# The binary, as `make build` builds it: CGO_ENABLED=0, -trimpath, the same
# -ldflags (the commit given as a build argument: no .git in the context).
FROM golang:1.26-bookworm AS build
ARG COMMIT=unknown
WORKDIR /src
# The modules first (a layer kept while go.sum does not change); fpdf is
# vendored as a module of its own (go.mod's replace).
COPY go.mod go.sum ./
COPY third_party/fpdf/go.mod third_party/fpdf/
RUN go mod download
COPY . .
COPY --from=ui /src/ui/dist ui/dist
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X primeur/commands.commit=${COMMIT}" -o bin/primeur ./cmd/primeur
# What scratch lacks: the data directory owned by the runtime user, a /tmp,
# the CA certificates (SMTP over TLS, PostgreSQL with sslmode=verify-full)
# and the time zones (the timezone setting, Europe/Paris by default; Go
# reads $ZONEINFO).
RUN mkdir -p /rootfs/data /rootfs/tmp /rootfs/etc/ssl/certs /rootfs/usr/local/go/lib/time \
	&& chmod 1777 /rootfs/tmp && chmod 0700 /rootfs/data \
	&& cp /etc/ssl/certs/ca-certificates.crt /rootfs/etc/ssl/certs/ \
	&& cp /usr/local/go/lib/time/zoneinfo.zip /rootfs/usr/local/go/lib/time/

FROM scratch
COPY --from=build /rootfs/ /
COPY --from=build --chown=65532:65532 /rootfs/data /data
COPY --from=build /src/bin/primeur /primeur
ENV ZONEINFO=/usr/local/go/lib/time/zoneinfo.zip \
	PRIMEUR_DATA_DIR=/data \
	PRIMEUR_ADDR=0.0.0.0:8080
# No user database in scratch: a number, no privileges, owning only /data.
USER 65532:65532
VOLUME /data
EXPOSE 8080
# No HEALTHCHECK: scratch has no shell nor HTTP client to run one, and the
# binary has no such subcommand. Probe GET /healthz from outside (an
# orchestrator's HTTP probe, a load balancer): 200 when the database
# answers, 503 otherwise (README "Health").
STOPSIGNAL SIGTERM
ENTRYPOINT ["/primeur"]
CMD ["serve"]
