#!/usr/bin/env bash
# Prints the four services' Secrets for Kubernetes with fresh random values, one Secret per service holding only what
# that service reads (SECURITY.md, "Which service holds which secret"):
#
#   deploy/k8s/secrets.sh waitroom | kubectl apply -f -
#
# Run it once per namespace: a second run prints new values, and applying them would change every key at once (visitor
# cookies, queue tickets and admission headers of the old keys would stop verifying; the sealed signing keys could not
# be opened without the old key-encryption key). Rotate one key at a time instead (docs/operating/secrets.md). The
# output holds secrets: pipe it, never write it into the repository.
#
# Each service has its own credential (wrs_<service>_<43 characters>, WAITROOM_SECURITY_SERVICECREDENTIAL); the
# services it calls hold only its SHA-256 (WAITROOM_SECURITY_CALLERS_<CALLER>, lowercase hex). The stores' credentials
# are separate Secrets (waitroom-redis, waitroom-db-coordinator, waitroom-db-booking; docs/operating/kubernetes.md).
set -euo pipefail
namespace=${1:?usage: deploy/k8s/secrets.sh NAMESPACE}
rand() { head -c 32 /dev/urandom | base64 | tr -d '\n'; }
token() { head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n'; }
sha256() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }

gateway="wrs_gateway_$(token)"
coordinator="wrs_coordinator_$(token)"
booking="wrs_booking_$(token)"
queue="wrs_queue_$(token)"
ops=$(token)
ticket=$(rand)

secret() {  # secret SERVICE KEY=VALUE...
  local service=$1
  shift
  printf -- '---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: waitroom-%s-secrets\n  namespace: %s\n' \
    "$service" "$namespace"
  printf '  labels:\n    app.kubernetes.io/part-of: waitroom\ntype: Opaque\nstringData:\n'
  local pair
  for pair in "$@"; do
    printf '  %s: "%s"\n' "${pair%%=*}" "${pair#*=}"
  done
}

secret gateway \
  "WAITROOM_SECURITY_SERVICECREDENTIAL=$gateway" \
  "WAITROOM_SECURITY_OPSTOKEN=$ops" \
  "WAITROOM_SECURITY_TICKETKEY=$ticket" \
  "WAITROOM_SECURITY_VISITORKEY=$(rand)" \
  "WAITROOM_SECURITY_ADMISSIONHEADERKEY=$(rand)" \
  "WAITROOM_ACCOUNTS_PSEUDONYMKEY=$(rand)"
secret queue \
  "WAITROOM_SECURITY_SERVICECREDENTIAL=$queue" \
  "WAITROOM_SECURITY_CALLERS_GATEWAY=$(sha256 "$gateway")" \
  "WAITROOM_SECURITY_CALLERS_COORDINATOR=$(sha256 "$coordinator")" \
  "WAITROOM_SECURITY_TICKETKEY=$ticket"
secret coordinator \
  "WAITROOM_SECURITY_SERVICECREDENTIAL=$coordinator" \
  "WAITROOM_SECURITY_CALLERS_GATEWAY=$(sha256 "$gateway")" \
  "WAITROOM_SECURITY_CALLERS_BOOKING=$(sha256 "$booking")" \
  "WAITROOM_SECURITY_OPSTOKEN=$ops" \
  "WAITROOM_SECURITY_KEYENCRYPTIONKEY=$(rand)"
secret booking \
  "WAITROOM_SECURITY_SERVICECREDENTIAL=$booking" \
  "WAITROOM_SECURITY_CALLERS_GATEWAY=$(sha256 "$gateway")" \
  "WAITROOM_SECURITY_OPSTOKEN=$ops" \
  "WAITROOM_SECURITY_WEBHOOKSECRET=$(rand)"
