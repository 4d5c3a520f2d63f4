package dev.waitroom.loadtest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

/**
 * The on-sale rehearsal's knobs, read from system properties ({@code -Dvisitors=...}); {@code -Dprofile=ci} gives a
 * small run that fits a CI budget. Every request targets {@code baseUrl}, which must be a loopback address.
 */
record LoadParameters(
        String baseUrl,
        String opsToken,
        String eventId,
        int presaleVisitors,
        int laterVisitors,
        Duration presaleWindow,
        Duration laterRamp,
        int capacity,
        int admissionsPerSecond,
        int seats,
        Duration sessionLength,
        double abandonWaiting,
        double abandonShop,
        double abandonPayment,
        Duration slowdownAt,
        Duration slowdownFor,
        int slowdownLatencyMs,
        Duration maxDuration,
        Path reportDir) {

    static LoadParameters fromSystemProperties() {
        boolean ci = "ci".equals(System.getProperty("profile", ""));
        String baseUrl = System.getProperty("baseUrl", "http://127.0.0.1:8080");
        requireLoopback(baseUrl);
        String eventId = System.getProperty("eventId", "onsale-" + Long.toString(System.currentTimeMillis(), 36));
        return new LoadParameters(
                baseUrl,
                resolveOpsToken(),
                eventId,
                intProperty("presaleVisitors", ci ? 150 : 2000),
                intProperty("laterVisitors", ci ? 150 : 3000),
                Duration.ofSeconds(intProperty("presaleWindowSeconds", ci ? 10 : 20)),
                Duration.ofSeconds(intProperty("laterRampSeconds", ci ? 20 : 60)),
                intProperty("capacity", ci ? 40 : 200),
                intProperty("admissionsPerSecond", ci ? 20 : 40),
                intProperty("seats", ci ? 120 : 1500),
                Duration.ofSeconds(intProperty("sessionSeconds", ci ? 5 : 10)),
                doubleProperty("abandonWaiting", 0.05),
                doubleProperty("abandonShop", 0.2),
                doubleProperty("abandonPayment", 0.05),
                // late enough that the admissions before it are a steady sample for the estimates
                // (docs/design/estimates.md)
                Duration.ofSeconds(intProperty("slowdownAtSeconds", ci ? 60 : 240)),
                Duration.ofSeconds(intProperty("slowdownForSeconds", ci ? 10 : 20)),
                intProperty("slowdownLatencyMs", 600),
                Duration.ofSeconds(intProperty("maxDurationSeconds", ci ? 120 : 420)),
                Path.of(System.getProperty("reportDir", "target/onsale-verdict")));
    }

    int totalVisitors() {
        return presaleVisitors + laterVisitors;
    }

    static void requireLoopback(String baseUrl) {
        String host = java.net.URI.create(baseUrl).getHost();
        if (!(host.equals("localhost")
                || host.startsWith("127.")
                || host.equals("[::1]")
                || host.equals("::1")
                || System.getProperty("allowComposeHost", "").equals(host))) {
            throw new IllegalArgumentException("load tests target loopback only, not " + host
                    + " (for the compose network pass -DallowComposeHost=" + host + ")");
        }
    }

    /** {@code -DopsToken}, else the environment (compose's loadtest profile passes .env's), else the launcher's file. */
    private static String resolveOpsToken() {
        String property = System.getProperty("opsToken");
        if (property != null && !property.isBlank()) {
            return property;
        }
        String environment = System.getenv("WAITROOM_SECURITY_OPSTOKEN");
        if (environment != null && !environment.isBlank()) {
            return environment;
        }
        return opsTokenFromDataDir();
    }

    private static String opsTokenFromDataDir() {
        Path secrets = Path.of(System.getProperty("dataDir", "../../.waitroom")).resolve("secrets.properties");
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(secrets)) {
            p.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("no ops token: pass -DopsToken=... or start ./waitroom run first ("
                    + secrets.toAbsolutePath() + " missing)");
        }
        return p.getProperty("WAITROOM_SECURITY_OPSTOKEN");
    }

    private static int intProperty(String name, int fallback) {
        return Integer.parseInt(System.getProperty(name, String.valueOf(fallback)));
    }

    private static double doubleProperty(String name, double fallback) {
        return Double.parseDouble(System.getProperty(name, String.valueOf(fallback)));
    }
}
