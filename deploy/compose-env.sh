#!/usr/bin/env bash
# Writes .env with fresh random secrets for docker compose (never committed). An existing .env is kept; a secret it
# lacks (one added by a newer Waitroom, such as the services' credentials) is appended, nothing in it is changed but
# the shared internal token of older versions, which no service accepts any more and is removed.
#
# Each service has its own credential, WAITROOM_SERVICECREDENTIAL_<SERVICE> (wrs_<service>_<43 characters>), and
# WAITROOM_CALLERHASH_<SERVICE> is its SHA-256 (lowercase hex), which the services it calls hold instead of the
# credential. docker-compose.yml hands each service only its own row (SECURITY.md, "Which service holds which
# secret"). Rotating a credential: docs/operating/secrets.md.
set -euo pipefail
cd "$(dirname "$0")/.."
rand() { head -c 32 /dev/urandom | base64 | tr -d '\n'; }
token() { head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n'; }
sha256() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
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
add WAITROOM_SECURITY_TICKETKEY "$(rand)"
add WAITROOM_SECURITY_VISITORKEY "$(rand)"
add WAITROOM_SECURITY_WEBHOOKSECRET "$(rand)"
# the gateway's Ed25519 seed (32 bytes) for the Waitroom-Admission header (docs/integration/admission-header.md)
add WAITROOM_SECURITY_ADMISSIONHEADERKEY "$(rand)"
add WAITROOM_SECURITY_KEYENCRYPTIONKEY "$(rand)"
# used once an identity provider is configured (WAITROOM_ACCOUNTS_ISSUER, docs/integration/accounts.md)
add WAITROOM_ACCOUNTS_PSEUDONYMKEY "$(rand)"
value() { grep "^$1=" .env | head -n1 | cut -d= -f2- || true; }
for service in gateway queue coordinator booking; do
  upper=$(printf '%s' "$service" | tr '[:lower:]' '[:upper:]')
  add "WAITROOM_SERVICECREDENTIAL_$upper" "wrs_${service}_$(token)"
  # The hash always follows the credential (and WAITROOM_SERVICECREDENTIAL_<SERVICE>_PREVIOUS during a rotation,
  # whose hash is accepted as well): it is derived, not a secret of its own.
  hashes=$(sha256 "$(value "WAITROOM_SERVICECREDENTIAL_$upper")")
  previous=$(value "WAITROOM_SERVICECREDENTIAL_${upper}_PREVIOUS")
  [ -n "$previous" ] && hashes="$hashes,$(sha256 "$previous")"
  if [ "$(value "WAITROOM_CALLERHASH_$upper")" != "$hashes" ]; then
    grep -v "^WAITROOM_CALLERHASH_$upper=" .env > .env.tmp || true
    mv .env.tmp .env
    printf '%s=%s\n' "WAITROOM_CALLERHASH_$upper" "$hashes" >> .env
    added+=("WAITROOM_CALLERHASH_$upper")
  fi
done
add WAITROOM_POSTGRES_PASSWORD "$(token)"
add WAITROOM_REDIS_PASSWORD "$(token)"
removed=()
if grep -q '^WAITROOM_SECURITY_INTERNALTOKEN=' .env; then
  grep -v '^WAITROOM_SECURITY_INTERNALTOKEN=' .env > .env.tmp || true
  mv .env.tmp .env
  removed+=(WAITROOM_SECURITY_INTERNALTOKEN)
fi
if [ ${#removed[@]} -gt 0 ]; then
  echo "removed ${removed[*]} (each service has its own credential now)"
fi
if ! $existed; then
  echo "wrote .env (ops token: WAITROOM_SECURITY_OPSTOKEN)"
elif [ ${#added[@]} -gt 0 ]; then
  echo ".env exists; added ${added[*]}"
else
  echo ".env exists; keeping it"
fi
