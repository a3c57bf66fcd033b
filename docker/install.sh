#!/bin/sh
# Installs a packed mrtr-proxy tarball (npm pack) into DIR with its production dependencies only
# (the optional one, redis for --state-store, included), and checks that the installed command
# runs. The container image's install step (Dockerfile); test/e2e/package.test.ts runs the same
# script without Docker.
#
#   sh docker/install.sh mrtr-proxy-0.1.0.tgz /opt/mrtr-proxy
set -eu
tarball=$(realpath "$1")
dir=$2
mkdir -p "$dir"
cd "$dir"
# An install root of its own, so npm does not climb to a parent directory's package.json.
[ -f package.json ] || printf '{ "name": "mrtr-proxy-install", "private": true }\n' >package.json
npm install --omit=dev --no-audit --no-fund --prefer-offline "$tarball"
"$dir/node_modules/.bin/mrtr-proxy" --version
