package dev.waitroom.deploy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the tests of {@code ./waitroom run --regions 2} share: the two-region stack on free ports (region r1 on the
 * stack's own, r2 on four more), and reads of each region's queue and of the ops API's budgets.
 */
final class TwoRegions {

    static final String R1 = "r1";
    static final String R2 = "r2";
    static final String COORDINATOR_R2 = "r2." + LocalStack.COORDINATOR;

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private TwoRegions() {}

    /** The configuration of two regions on free ports, booking's test doubles as asked. */
    static StackConfig config(Path dataDir, boolean simulations) throws IOException {
        int[] ports = TestPorts.free(10);
        StackConfig one = TestStacks.config(dataDir, ports, StackConfig.ExternalStores.none());
        return one.withRegions(List.of(
                        new StackConfig.Region(R1, ports[0], ports[1], ports[2], ports[5]),
                        new StackConfig.Region(R2, ports[6], ports[7], ports[8], ports[9])))
                .withSimulations(simulations);
    }

    /** A region's queue-service's own count of an event's entries by state (joins, waiting, offered, ...), asked as the coordinator asks it. */
    static Map<String, Long> queueCounts(LocalStack stack, String region, String eventId) throws Exception {
        int port = stack.config().region(region).queuePort();
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/internal/events/" + eventId + "/counts"))
                .header("X-Waitroom-Internal", stack.secrets().credential(ServiceSecrets.Service.COORDINATOR))
                .timeout(Duration.ofSeconds(10))
                .build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(
                    region + " queue counts: HTTP " + response.statusCode() + " " + response.body());
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        Matcher m = Pattern.compile("\"(\\w+)\"\\s*:\\s*(\\d+)").matcher(response.body());
        while (m.find()) {
            counts.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return counts;
    }

    /** An ops API call through a region's gateway, with the stack's ops token. */
    static HttpResponse<String> ops(LocalStack stack, String region, String method, String path, String body)
            throws IOException, InterruptedException {
        return TestStacks.ops(stack, stack.gatewayUrl(region), method, path, body);
    }

    /**
     * One region's row of {@code GET /admin/events/{e}/regions} as text fields and numbers ({@code slots},
     * {@code used}, {@code waiting}, {@code generation}, {@code leaseLive}, {@code frozen}, ...), or an empty map when
     * the region has none yet.
     */
    static Map<String, String> budget(String regionsView, String region) {
        Matcher rows = Pattern.compile("\\{[^{}]*\"region\"\\s*:\\s*\"" + Pattern.quote(region) + "\"[^{}]*}")
                .matcher(regionsView);
        Map<String, String> fields = new LinkedHashMap<>();
        if (rows.find()) {
            Matcher f =
                    Pattern.compile("\"(\\w+)\"\\s*:\\s*(\"[^\"]*\"|[^,}\\s]+)").matcher(rows.group());
            while (f.find()) {
                fields.put(f.group(1), f.group(2).replaceAll("^\"|\"$", ""));
            }
        }
        return fields;
    }

    /**
     * Grants of an event made by one region's gate (the ledger's {@code grants.region}) offered after {@code after},
     * by any generation or (when given) by that region's fencing generation only.
     */
    static long grantsOfRegion(
            LocalStack stack, String eventId, String region, Long generation, java.time.Instant after)
            throws java.sql.SQLException {
        try (var c = java.sql.DriverManager.getConnection(
                        stack.jdbcUrl("coordinator"), stack.postgresUser(), stack.postgresPassword());
                var s = c.prepareStatement("select count(*) from grants where event_id = ? and region = ?"
                        + " and offered_at > ? and (?::bigint is null or generation = ?::bigint)")) {
            s.setString(1, eventId);
            s.setString(2, region);
            s.setObject(3, java.sql.Timestamp.from(after));
            s.setObject(4, generation, java.sql.Types.BIGINT);
            s.setObject(5, generation, java.sql.Types.BIGINT);
            try (var rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** A field of the regions view's top level ({@code ceiling}, {@code centralLive}). */
    static long topLevel(String regionsView, String field) {
        Matcher m = Pattern.compile("\"" + field + "\"\\s*:\\s*(-?\\d+)").matcher(regionsView);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
