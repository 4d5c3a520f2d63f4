package dev.waitroom.verifier;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/** docs/integration/admission-header-vectors.json, the vectors every verifier passes. */
final class Vectors {

    static final Path FILE = Path.of("..", "..", "docs", "integration", "admission-header-vectors.json");
    static final Map<String, Object> ROOT = read();

    private Vectors() {}

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> all() {
        return (List<Map<String, Object>>) ROOT.get("vectors");
    }

    static Map<String, Object> named(String name) {
        return all().stream()
                .filter(v -> name.equals(v.get("name")))
                .findFirst()
                .orElseThrow();
    }

    /** The published keys as a JWKS document. */
    static String jwks() {
        String text = text();
        int start = text.indexOf("\"jwks\": ") + "\"jwks\": ".length();
        return text.substring(start, text.indexOf('\n', start) - 1);
    }

    static Duration skew() {
        return Duration.ofSeconds((Long) ROOT.get("clockSkewSeconds"));
    }

    static Clock clockAt(Map<String, Object> vector) {
        return Clock.fixed(Instant.ofEpochSecond((Long) vector.get("now")), ZoneOffset.UTC);
    }

    static AdmissionVerifier verifierFor(Map<String, Object> vector) {
        return AdmissionVerifier.builder()
                .keys(AdmissionKeys.fromJwks(jwks()))
                .audience((String) vector.get("audience"))
                .eventId((String) vector.get("event"))
                .clockSkew(skew())
                .clock(clockAt(vector))
                .build();
    }

    private static Map<String, Object> read() {
        return Json.parseObject(text());
    }

    private static String text() {
        try {
            return Files.readString(FILE, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
