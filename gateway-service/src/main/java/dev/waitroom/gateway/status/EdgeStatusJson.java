package dev.waitroom.gateway.status;

import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.contract.queue.EstimateCaveat;
import dev.waitroom.contract.queue.QueueStatus;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.io.JsonStringEncoder;

/**
 * Writes the edge's {@link QueueStatus} as JSON by hand: the body has a fixed shape and is the
 * most frequent answer the gateway gives, so it is built in one pass into one array instead of
 * through a general serialiser (which showed as a tenth of an edge answer's cost in a profile).
 * Strings are escaped by Jackson's encoder; {@code EdgeStatusJsonTests} holds the output against
 * Jackson's serialisation of the same record.
 */
final class EdgeStatusJson {

    private static final JsonStringEncoder ENCODER = JsonStringEncoder.getInstance();

    private EdgeStatusJson() {}

    static byte[] write(QueueStatus status) {
        StringBuilder json = new StringBuilder(256);
        json.append("{\"state\":");
        string(json, status.state());
        json.append(",\"phase\":");
        string(json, status.phase() == null ? null : status.phase().name());
        json.append(",\"mode\":");
        string(json, status.mode() == null ? null : status.mode().name());
        json.append(",\"position\":");
        if (status.position() == null) {
            json.append("null");
        } else {
            json.append("{\"aheadMin\":")
                    .append(status.position().aheadMin())
                    .append(",\"aheadMax\":")
                    .append(status.position().aheadMax())
                    .append('}');
        }
        json.append(",\"estimatedWaitSeconds\":");
        if (status.estimatedWaitSeconds() == null) {
            json.append("null");
        } else {
            json.append("{\"min\":")
                    .append(status.estimatedWaitSeconds().min())
                    .append(",\"max\":")
                    .append(status.estimatedWaitSeconds().max())
                    .append(",\"caveat\":");
            EstimateCaveat caveat = status.estimatedWaitSeconds().caveat();
            string(json, caveat == null ? null : caveat.name());
            json.append('}');
        }
        if (status.offer() != null) {
            throw new IllegalArgumentException("the edge never answers for an offered entry");
        }
        json.append(",\"offer\":null,\"pollAfterSeconds\":").append(status.pollAfterSeconds());
        json.append(",\"announcement\":");
        string(json, status.announcement());
        json.append(",\"receipt\":");
        string(json, status.receipt());
        json.append(",\"admissionHold\":");
        AdmissionHold hold = status.admissionHold();
        if (hold == null) {
            json.append("null");
        } else {
            json.append("{\"cause\":");
            string(json, hold.cause());
            json.append(",\"reason\":");
            string(json, hold.reason());
            json.append(",\"until\":");
            string(json, hold.until() == null ? null : hold.until().toString());
            json.append('}');
        }
        json.append(",\"lane\":");
        string(json, status.lane());
        return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void string(StringBuilder json, String value) {
        if (value == null) {
            json.append("null");
            return;
        }
        json.append('"');
        ENCODER.quoteAsString(value, json);
        json.append('"');
    }
}
