# mrtr-proxy container image.
#
#   docker build -t mrtr-proxy .
#   docker run --rm -p 8080:8080 -e MRTR_STATE_KEY="$(node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))")" mrtr-proxy
#
# With no arguments the image serves the bundled demo legacy server (config/proxy.yaml of the
# package) without client authentication (--insecure-no-auth: a container listens beyond
# loopback, which mrtr-proxy otherwise refuses while an upstream has no clientAuth). Your own
# configuration: mount it and pass --config, with --auth-issuer (or clientAuth in the file), e.g.
#   docker run -v "$PWD/proxy.yaml:/etc/mrtr-proxy/proxy.yaml:ro" mrtr-proxy --config /etc/mrtr-proxy/proxy.yaml --host 0.0.0.0 --auth-issuer https://idp.example.com
# The state key comes from MRTR_STATE_KEY in the environment (give every instance the same one).
# Stdio legacy servers run as `node` like the proxy, so they can read its environment, files and
# memory (the proxy warns at start); to run them as another user, run the container as root:
#   docker run --user root ... mrtr-proxy --config ... --child-user nobody
# (docs/operations.md, "Container").

# Stage 1: build the package exactly as `npm pack` of a clean checkout does (prepack builds it).
FROM node:22-bookworm-slim AS build
WORKDIR /src
# test/e2e/dockerfile.test.ts replays this stage without Docker: these COPY lines on a clean
# checkout, then these RUN lines. No dependency's install script is needed to build the package
# (esbuild finds its binary in its platform package; sqlite3 is for a test server).
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json LICENSE README.md CHANGELOG.md ./
COPY bin bin
COPY scripts scripts
COPY src src
COPY config config
COPY examples examples
RUN npm pack --pack-destination /tmp && mv /tmp/mrtr-proxy-*.tgz /tmp/mrtr-proxy.tgz

# Stage 2: the tarball installed with production dependencies only, run as the unprivileged user.
FROM node:22-bookworm-slim
ENV NODE_ENV=production
COPY docker/install.sh /tmp/install.sh
COPY --from=build /tmp/mrtr-proxy.tgz /tmp/mrtr-proxy.tgz
RUN sh /tmp/install.sh /tmp/mrtr-proxy.tgz /opt/mrtr-proxy && rm -rf /tmp/install.sh /tmp/mrtr-proxy.tgz /root/.npm
USER node
WORKDIR /home/node
EXPOSE 8080
# /readyz answers 200 when every upstream answers a ping, 503 otherwise (and at once on SIGTERM).
# The check asks it where the proxy listens: it resolves the running proxy's own arguments
# (--port, --host, --config's listen:, TLS), so another port needs no change here.
HEALTHCHECK --interval=10s --timeout=4s --start-period=10s --retries=3 \
  CMD ["node", "/opt/mrtr-proxy/node_modules/mrtr-proxy/dist/src/cli/healthcheck.js"]
# SIGTERM (docker stop) drains: new requests get 503, running ones finish within --drain-timeout
# (30 s by default; keep docker stop's --time above it), then the process exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/opt/mrtr-proxy/node_modules/.bin/mrtr-proxy"]
CMD ["--config", "/opt/mrtr-proxy/node_modules/mrtr-proxy/config/proxy.yaml", "--host", "0.0.0.0", "--port", "8080", "--insecure-no-auth"]
