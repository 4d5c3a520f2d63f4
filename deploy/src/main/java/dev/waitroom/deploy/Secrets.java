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
import java.util.Set;

/**
 * Development secrets, generated at first start into the data directory (never committed, owner-only) and read back
 * later, so a restart keeps the same keys and a waiting visitor keeps a valid cookie. Each service process is handed
 * only the secrets of its row of {@link ServiceSecrets} (SECURITY.md, "Which service holds which secret"): its own
 * credential, the SHA-256 of its callers' credentials, and the keys it uses itself; the passwords of the embedded
 * PostgreSQL and Redis only to the services that use the store, as {@code SPRING_DATASOURCE_PASSWORD} and {@code
 * SPRING_DATA_REDIS_PASSWORD}.
 *
 * <p>A file written by an older launcher gets the keys it lacks (the services' credentials) and loses the one shared
 * internal token, {@code WAITROOM_SECURITY_INTERNALTOKEN}, which no service accepts any more. A credential being
 * rotated out can be kept as {@code WAITROOM_SERVICECREDENTIAL_<SERVICE>_PREVIOUS}: its hash stays accepted beside the
 * current one (docs/operating/secrets.md).
 */
final class Secrets {

    static final String FILE_NAME = "secrets.properties";
    static final String POSTGRES_PASSWORD = "WAITROOM_POSTGRES_PASSWORD";
    static final String REDIS_PASSWORD = "WAITROOM_REDIS_PASSWORD";
    /** The one credential every service shared before each had its own (issue #28); dropped from an older file. */
    static final String RETIRED_INTERNAL_TOKEN = "WAITROOM_SECURITY_INTERNALTOKEN";
    /** The keys a service uses itself, each given only to the services whose row has it. */
    private static final List<ServiceSecrets.Secret> KEYS = List.of(
            ServiceSecrets.Secret.OPS_TOKEN,
            ServiceSecrets.Secret.TICKET_KEY,
            ServiceSecrets.Secret.VISITOR_KEY,
            ServiceSecrets.Secret.WEBHOOK_SECRET,
            // the gateway's Ed25519 seed for the Waitroom-Admission header origins (booking too) verify with its
            // published public keys (docs/integration/admission-header.md)
            ServiceSecrets.Secret.ADMISSION_HEADER_KEY,
            // the coordinator seals its signing keys at rest with it (AES-256)
            ServiceSecrets.Secret.KEY_ENCRYPTION_KEY,
            // the gateway's account pseudonyms, used only once an identity provider is configured
            // (docs/integration/accounts.md)
            ServiceSecrets.Secret.PSEUDONYM_KEY);
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
            // a file copied in or written by hand is made owner-only like a generated one
            OwnerOnly.file(file);
            try (var in = Files.newInputStream(file)) {
                stored.load(in);
            }
        }
        Map<String, String> values = new LinkedHashMap<>();
        boolean changed = stored.containsKey(RETIRED_INTERNAL_TOKEN);
        SecureRandom random = new SecureRandom();
        for (String key : allKeys()) {
            String value = stored.getProperty(key);
            if (value == null || value.isBlank()) {
                byte[] bytes = new byte[32];
                random.nextBytes(bytes);
                String urlSafe = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
                value = credentialOwner(key)
                        .map(service -> "wrs_" + service.shortName() + "_" + urlSafe)
                        .orElse(
                                key.endsWith("TOKEN") || STORE_KEYS.contains(key)
                                        ? urlSafe
                                        : Base64.getEncoder().encodeToString(bytes));
                changed = true;
            }
            values.put(key, value);
        }
        for (ServiceSecrets.Service service : ServiceSecrets.Service.values()) {
            String previous = stored.getProperty(previousCredentialKey(service));
            if (previous != null && !previous.isBlank()) {
                values.put(previousCredentialKey(service), previous.strip());
            }
        }
        if (changed) {
            write(file, values);
        }
        return new Secrets(file, values);
    }

    private static java.util.Optional<ServiceSecrets.Service> credentialOwner(String key) {
        return java.util.Arrays.stream(ServiceSecrets.Service.values())
                .filter(s -> ServiceSecrets.credentialFileVariable(s).equals(key))
                .findFirst();
    }

    private static String previousCredentialKey(ServiceSecrets.Service service) {
        return ServiceSecrets.credentialFileVariable(service) + "_PREVIOUS";
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
        List<String> keys = new ArrayList<>();
        KEYS.forEach(k -> keys.add(k.variable()));
        for (ServiceSecrets.Service service : ServiceSecrets.Service.values()) {
            keys.add(ServiceSecrets.credentialFileVariable(service));
        }
        keys.addAll(STORE_KEYS);
        return keys;
    }

    /**
     * The secrets of a service's row as its environment variables (not the stores' passwords, which the launcher
     * hands over with the store's address): the keys it uses, its own credential as {@code
     * WAITROOM_SECURITY_SERVICECREDENTIAL}, and for each service that calls it the hash of that caller's credential
     * (and of its previous one during a rotation) as {@code WAITROOM_SECURITY_CALLERS_<CALLER>}.
     */
    Map<String, String> environmentOf(ServiceSecrets.Service service) {
        Set<ServiceSecrets.Secret> row = ServiceSecrets.HELD.get(service);
        Map<String, String> env = new LinkedHashMap<>();
        KEYS.stream().filter(row::contains).forEach(k -> env.put(k.variable(), values.get(k.variable())));
        env.put(ServiceSecrets.Secret.SERVICE_CREDENTIAL.variable(), credential(service));
        for (ServiceSecrets.Service caller : ServiceSecrets.CALLERS.get(service)) {
            env.put(ServiceSecrets.callersVariable(caller).variable(), callerHashes(caller));
        }
        return env;
    }

    /**
     * What {@code deploy/compose-env.sh} writes into {@code .env}, from this file: the keys, each service's credential
     * and each caller's hashes (not the stores' passwords). The compose healthcheck tests read docker-compose.yml with
     * it.
     */
    Map<String, String> asDotEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        KEYS.forEach(k -> env.put(k.variable(), values.get(k.variable())));
        for (ServiceSecrets.Service service : ServiceSecrets.Service.values()) {
            env.put(ServiceSecrets.credentialFileVariable(service), credential(service));
            env.put(ServiceSecrets.hashFileVariable(service), callerHashes(service));
        }
        return env;
    }

    /** A service's own credential, {@code wrs_<service>_<43 characters>}, which it sends as X-Waitroom-Internal. */
    String credential(ServiceSecrets.Service service) {
        return values.get(ServiceSecrets.credentialFileVariable(service));
    }

    /** The hash of a caller's credential, then of its previous one during a rotation, comma-separated. */
    private String callerHashes(ServiceSecrets.Service caller) {
        String hashes = ServiceSecrets.hash(credential(caller));
        String previous = values.get(previousCredentialKey(caller));
        return previous == null ? hashes : hashes + "," + ServiceSecrets.hash(previous);
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
