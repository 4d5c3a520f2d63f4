package dev.waitroom.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Development secrets, generated at first start into the data directory (never committed) and read back later,
 * so a restart keeps the same keys and a waiting visitor keeps a valid cookie. The services' secrets are handed to
 * every service as environment variables; the passwords of the embedded PostgreSQL and Redis only to the services
 * that use the store, as {@code SPRING_DATASOURCE_PASSWORD} and {@code SPRING_DATA_REDIS_PASSWORD}.
 */
final class Secrets {

    static final String FILE_NAME = "secrets.properties";
    static final String POSTGRES_PASSWORD = "WAITROOM_POSTGRES_PASSWORD";
    static final String REDIS_PASSWORD = "WAITROOM_REDIS_PASSWORD";
    private static final List<String> SERVICE_KEYS = List.of(
            "WAITROOM_SECURITY_OPSTOKEN",
            "WAITROOM_SECURITY_INTERNALTOKEN",
            "WAITROOM_SECURITY_TICKETKEY",
            "WAITROOM_SECURITY_VISITORKEY",
            "WAITROOM_SECURITY_WEBHOOKSECRET",
            // the gateway's Ed25519 seed for the Waitroom-Admission header origins (booking too) verify with its
            // published public keys (docs/integration/admission-header.md)
            "WAITROOM_SECURITY_ADMISSIONHEADERKEY",
            // the coordinator seals its signing keys at rest with it (AES-256)
            "WAITROOM_SECURITY_KEYENCRYPTIONKEY",
            // the gateway's account pseudonyms, used only once an identity provider is configured (docs/accounts.md:
            // WAITROOM_ACCOUNTS_ISSUER and the others, set in the launcher's own environment, reach every service)
            "WAITROOM_ACCOUNTS_PSEUDONYMKEY");
    /** URL-safe base64: no character a Redis configuration line or an initdb password file would trip on. */
    private static final List<String> STORE_KEYS = List.of(POSTGRES_PASSWORD, REDIS_PASSWORD);

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
        for (String key : allKeys()) {
            String value = stored.getProperty(key);
            if (value == null || value.isBlank()) {
                byte[] bytes = new byte[32];
                random.nextBytes(bytes);
                value = key.endsWith("TOKEN") || STORE_KEYS.contains(key)
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

    private static List<String> allKeys() {
        List<String> keys = new ArrayList<>(SERVICE_KEYS);
        keys.addAll(STORE_KEYS);
        return keys;
    }

    /** The services' secrets as their environment variables (not the stores' passwords). */
    Map<String, String> asEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        SERVICE_KEYS.forEach(key -> env.put(key, values.get(key)));
        return env;
    }

    /** The password of the embedded PostgreSQL's superuser {@code postgres}. */
    String postgresPassword() {
        return values.get(POSTGRES_PASSWORD);
    }

    /** The embedded Redis's {@code requirepass}. */
    String redisPassword() {
        return values.get(REDIS_PASSWORD);
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
