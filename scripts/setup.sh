#!/usr/bin/env bash
# Installs everything beyond Node 20 and npm: pnpm, and the system tools the tests use for real
# (git, ripgrep, bubblewrap, tmux, jq (the sandbox precision test), Debian's golang-go, cargo and python3-pytest
# (`go test`, `cargo test` and `pytest` confined with their caches, the sandbox's toolchain test; skipped when
# rustup's or pyenv's are on PATH), and Debian's postgresql, whose binaries the gateway's tests use to
# start a private cluster in a temp dir; nothing here starts or configures a server). Safe to run again; every step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version | cut -d. -f1)" != "10" ]; then
  npm install -g pnpm@10.34.9 >/dev/null
fi

missing=()
for tool in git rg bwrap tmux jq go cargo pytest; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
# better-sqlite3 (the gateway's SQLite) has no prebuilt binary offline: pnpm install compiles it.
for tool in make g++ python3; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  packages=()
  for tool in "${missing[@]}"; do
    case "$tool" in rg) packages+=(ripgrep) ;; bwrap) packages+=(bubblewrap) ;; go) packages+=(golang-go) ;; pytest) packages+=(python3-pytest) ;; *) packages+=("$tool") ;; esac
  done
  SUDO=""; [ "$(id -u)" = "0" ] || SUDO="sudo"
  $SUDO apt-get update -qq >/dev/null || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${packages[@]}" >/dev/null
fi

# Native modules (better-sqlite3) compile against Node's C headers; node-gyp would download them from
# the web, which a machine that reaches only the package registries cannot do. Use local ones (or the
# same version's official build from the npm registry); a clear error names what is missing otherwise.
if [ -z "${npm_config_nodedir:-}" ]; then
  npm_config_nodedir="$(node scripts/node-headers.mjs)" || exit 1
  export npm_config_nodedir
fi

pnpm install --frozen-lockfile --reporter=silent
