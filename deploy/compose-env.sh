#!/usr/bin/env bash
# Writes .env with fresh random secrets for docker compose (never committed). An existing .env is kept; a secret it
# lacks (one added by a newer Waitroom, such as WAITROOM_REDIS_PASSWORD) is appended, nothing in it is changed.
set -euo pipefail
cd "$(dirname "$0")/.."
rand() { head -c 32 /dev/urandom | base64 | tr -d '\n'; }
token() { head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n'; }
umask 077
existed=false
[ -f .env ] && existed=true
touch .env
# a hand-edited .env may lack its last newline
if [ -s .env ] && [ -n "$(tail -c1 .env)" ]; then echo >> .env; fi
added=()
add() {  # add NAME VALUE: only when .env has no NAME yet
  if ! grep -q "^$1=" .env; then
    printf '%s=%s\n' "$1" "$2" >> .env
    added+=("$1")
  fi
}
add WAITROOM_SECURITY_OPSTOKEN "$(token)"
add WAITROOM_SECURITY_INTERNALTOKEN "$(token)"
add WAITROOM_SECURITY_TICKETKEY "$(rand)"
add WAITROOM_SECURITY_VISITORKEY "$(rand)"
add WAITROOM_SECURITY_WEBHOOKSECRET "$(rand)"
# the gateway's Ed25519 seed (32 bytes) for the Waitroom-Admission header (docs/integration/admission-header.md)
add WAITROOM_SECURITY_ADMISSIONHEADERKEY "$(rand)"
add WAITROOM_SECURITY_KEYENCRYPTIONKEY "$(rand)"
# used once an identity provider is configured (WAITROOM_ACCOUNTS_ISSUER, docs/accounts.md)
add WAITROOM_ACCOUNTS_PSEUDONYMKEY "$(rand)"
add WAITROOM_POSTGRES_PASSWORD "$(token)"
add WAITROOM_REDIS_PASSWORD "$(token)"
if ! $existed; then
  echo "wrote .env (ops token: WAITROOM_SECURITY_OPSTOKEN)"
elif [ ${#added[@]} -gt 0 ]; then
  echo ".env exists; added ${added[*]}"
else
  echo ".env exists; keeping it"
fi
