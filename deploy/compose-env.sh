#!/usr/bin/env bash
# Writes .env with fresh random secrets for docker compose (never committed; kept if it exists).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f .env ]; then echo ".env exists; keeping it"; exit 0; fi
rand() { head -c 32 /dev/urandom | base64 | tr -d '\n'; }
token() { head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n'; }
umask 077
cat > .env <<ENV
WAITROOM_OPS_TOKEN=$(token)
WAITROOM_INTERNAL_TOKEN=$(token)
WAITROOM_TICKET_KEY=$(rand)
WAITROOM_VISITOR_KEY=$(rand)
WAITROOM_WEBHOOK_SECRET=$(rand)
WAITROOM_POSTGRES_PASSWORD=$(token)
ENV
echo "wrote .env (ops token: WAITROOM_OPS_TOKEN)"
