/**
 * The queue-service's internal API (docs/reference/contracts.md#queue-service-internal-api-internal-x-waitroom-internal-required):
 * one record per request and response body, used by the queue-service, the coordinator and the gateway alike, and
 * the route templates in {@link dev.waitroom.contract.queue.QueuePaths}. Also the two public bodies that more than
 * one side writes or imitates: the visitor status ({@link dev.waitroom.contract.queue.QueueStatus}, answered by the
 * queue-service and by the gateway at the edge) and the public event status.
 *
 * <p>Field names and JSON types are those on the wire. A number that some side reads as optional today is boxed, so a
 * body without it stays readable; a value the queue-service validates itself and answers with its own problem stays a
 * String, with a typed factory for the sender and a typed reader for the receiver.
 */
package dev.waitroom.contract.queue;
