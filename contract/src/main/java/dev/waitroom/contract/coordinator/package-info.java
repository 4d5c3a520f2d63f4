/**
 * The coordinator's internal API for booking (docs/reference/contracts.md#coordinator-internal-api-for-booking): one record per
 * request and response body, used by the coordinator and booking alike, and the route templates in
 * {@link dev.waitroom.contract.coordinator.CoordinatorPaths}. Field names and JSON types are those on the wire.
 */
package dev.waitroom.contract.coordinator;
