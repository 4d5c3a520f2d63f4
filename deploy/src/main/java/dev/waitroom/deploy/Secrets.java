package dev.waitroom.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Development secrets, generated at first start into the data directory (never committed) and read back later,
 * so a restart keeps the same keys and a waiting visitor keeps a valid cookie.
 */
final class Secrets {

    static final String FILE_NAME = "secrets.properties";
    private static final String[] KEYS = {
        "WAITROOM_SECURITY_OPSTOKEN",
        "WAITROOM_SECURITY_INTERNALTOKEN",
        "WAITROOM_SECURITY_TICKETKEY",
        "WAITROOM_SECURITY_VISITORKEY",
        "WAITROOM_SECURITY_WEBHOOKSECRET"
    };

    private final Path file;
    private final Map<String, String> values;

    private Secrets(Path file, Map<String, String> values) {
        this.file = file;
        this.values = values;
    }

    static Secrets loadOrGenerate(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE_NAME);
        Properties stored = new Properties();
        if (Files.exists(file)) {
            try (var in = Files.newInputStream(file)) {
                stored.load(in);
            }
        }
        Map<String, String> values = new LinkedHashMap<>();
        boolean changed = false;
        SecureRandom random = new SecureRandom();
        for (String key : KEYS) {
            String value = stored.getProperty(key);
            if (value == null || value.isBlank()) {
                byte[] bytes = new byte[32];
                random.nextBytes(bytes);
                value = key.endsWith("TOKEN")
                        ? Base64.getUrlEncoder().withoutPadding().encodeToString(bytes)
                        : Base64.getEncoder().encodeToString(bytes);
                changed = true;
            }
            values.put(key, value);
        }
        if (changed) {
            write(file, values);
        }
        return new Secrets(file, values);
    }

    private static void write(Path file, Map<String, String> values) throws IOException {
        StringBuilder text =
                new StringBuilder("# Waitroom development secrets, generated at first start. Never commit.\n");
        values.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, text, StandardOpenOption.TRUNCATE_EXISTING);
    }

    Map<String, String> asEnvironment() {
        return Map.copyOf(values);
    }

    String opsToken() {
        return values.get("WAITROOM_SECURITY_OPSTOKEN");
    }

    String webhookSecret() {
        return values.get("WAITROOM_SECURITY_WEBHOOKSECRET");
    }

    Path file() {
        return file;
    }

    @Override
    public String toString() {
        return "Secrets[" + file + "]";
    }
}
