package dev.waitroom.testsupport;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** A request as a stand-in service saw it, so a test can read exactly what reached it; header names lower-cased. */
public record RecordedRequest(String method, String path, Map<String, List<String>> headers, String body) {

    public Optional<String> header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }
}
