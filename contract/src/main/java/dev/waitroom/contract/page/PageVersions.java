package dev.waitroom.contract.page;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.MalformedValueException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The version of each event's seller's page, as the coordinator writes it to {@link
 * dev.waitroom.contract.RedisKeys#PAGES}: text, {@code v1} on the first line, then {@code <eventId> <version>} per
 * event. A gateway reads this small index every second and fetches only the designs whose version it does not hold.
 */
public record PageVersions(Map<EventId, Long> versions) {

    private static final String HEADER = "v1";

    public static final PageVersions EMPTY = new PageVersions(Map.of());

    public PageVersions {
        versions = Map.copyOf(versions);
    }

    public String encode() {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        versions.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing(EventId::value)))
                .forEach(e -> out.append(e.getKey().value())
                        .append(' ')
                        .append(e.getValue())
                        .append('\n'));
        return out.toString();
    }

    /** The index {@link #encode()} wrote; a malformed text throws {@link MalformedValueException}. */
    public static PageVersions decode(String text) {
        String[] lines = text.split("\n");
        if (lines.length == 0 || !lines[0].equals(HEADER)) {
            throw new MalformedValueException("not a page version index");
        }
        Map<EventId, Long> versions = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isEmpty()) {
                continue;
            }
            String[] parts = lines[i].split(" ");
            if (parts.length != 2) {
                throw new MalformedValueException("page version line " + i + " is not <eventId> <version>");
            }
            try {
                versions.put(EventId.of(parts[0]), Long.parseLong(parts[1]));
            } catch (NumberFormatException ex) {
                throw new MalformedValueException("page version line " + i + " has no number");
            }
        }
        return new PageVersions(versions);
    }
}
