#!/usr/bin/env bash
# Writes .env with fresh random secrets for docker compose (never committed; kept if it exists).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f .env ]; then echo ".env exists; keeping it"; exit 0; fi
rand() { head -c 32 /dev/urandom | base64 | tr -d '\n'; }
token() { head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n'; }
umask 077
cat > .env <<ENV
WAITROOM_SECURITY_OPSTOKEN=$(token)
WAITROOM_SECURITY_INTERNALTOKEN=$(token)
WAITROOM_SECURITY_TICKETKEY=$(rand)
WAITROOM_SECURITY_VISITORKEY=$(rand)
WAITROOM_SECURITY_WEBHOOKSECRET=$(rand)
WAITROOM_POSTGRES_PASSWORD=$(token)
ENV
echo "wrote .env (ops token: WAITROOM_SECURITY_OPSTOKEN)"
