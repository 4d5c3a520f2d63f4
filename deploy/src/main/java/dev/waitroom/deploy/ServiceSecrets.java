package dev.waitroom.deploy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which service holds which secret (SECURITY.md, "Which service holds which secret"): the one table the launcher,
 * docker-compose, the Kubernetes manifests and {@code deploy/k8s/secrets.sh} follow, and that the tests hold against
 * each service's own configuration. A service is handed only the secrets its configuration reads, so a compromised
 * queue-service cannot forge a shop assertion, a payment webhook or a visitor cookie, and only the coordinator can open
 * the sealed signing keys.
 *
 * <p>The internal credential is one per service ({@code wrs_<service>_<43 characters>}), sent as
 * {@code X-Waitroom-Internal}; a receiver holds only the SHA-256 of each caller's credential
 * ({@code WAITROOM_SECURITY_CALLERS_<CALLER>}), never the credential itself, and only of the callers that call it.
 */
final class ServiceSecrets {

    /**
     * A secret as a service receives it: the environment variable, and the property of the service's configuration it
     * binds to (an entry of the map {@code waitroom.security.callers}, whose key is the calling service).
     */
    enum Secret {
        OPS_TOKEN("WAITROOM_SECURITY_OPSTOKEN", "waitroom.security.ops-token"),
        TICKET_KEY("WAITROOM_SECURITY_TICKETKEY", "waitroom.security.ticket-key"),
        VISITOR_KEY("WAITROOM_SECURITY_VISITORKEY", "waitroom.security.visitor-key"),
        ADMISSION_HEADER_KEY("WAITROOM_SECURITY_ADMISSIONHEADERKEY", "waitroom.security.admission-header-key"),
        PSEUDONYM_KEY("WAITROOM_ACCOUNTS_PSEUDONYMKEY", "waitroom.accounts.pseudonym-key"),
        WEBHOOK_SECRET("WAITROOM_SECURITY_WEBHOOKSECRET", "waitroom.security.webhook-secret"),
        KEY_ENCRYPTION_KEY("WAITROOM_SECURITY_KEYENCRYPTIONKEY", "waitroom.security.key-encryption-key"),
        /** The service's own credential: each service's value is its own. */
        SERVICE_CREDENTIAL("WAITROOM_SECURITY_SERVICECREDENTIAL", "waitroom.security.service-credential"),
        CALLERS_GATEWAY("WAITROOM_SECURITY_CALLERS_GATEWAY", "waitroom.security.callers.gateway"),
        CALLERS_COORDINATOR("WAITROOM_SECURITY_CALLERS_COORDINATOR", "waitroom.security.callers.coordinator"),
        CALLERS_BOOKING("WAITROOM_SECURITY_CALLERS_BOOKING", "waitroom.security.callers.booking"),
        POSTGRES_PASSWORD("SPRING_DATASOURCE_PASSWORD", "spring.datasource.password"),
        REDIS_PASSWORD("SPRING_DATA_REDIS_PASSWORD", "spring.data.redis.password");

        private final String variable;
        private final String property;

        Secret(String variable, String property) {
            this.variable = variable;
            this.property = property;
        }

        String variable() {
            return variable;
        }

        String property() {
            return property;
        }

        static Secret ofVariable(String variable) {
            return Arrays.stream(values())
                    .filter(s -> s.variable.equals(variable))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no secret " + variable));
        }
    }

    /** The short name a service's credential and its callers' variables use. */
    enum Service {
        GATEWAY("gateway-service", "gateway"),
        QUEUE("queue-service", "queue"),
        COORDINATOR("admission-coordinator", "coordinator"),
        BOOKING("booking-service", "booking");

        private final String module;
        private final String shortName;

        Service(String module, String shortName) {
            this.module = module;
            this.shortName = shortName;
        }

        /** The module and process name ({@code queue-service}). */
        String module() {
            return module;
        }

        /** The name in the credential and in {@code waitroom.security.callers.<name>} ({@code queue}). */
        String shortName() {
            return shortName;
        }

        static Service ofModule(String module) {
            return Arrays.stream(values())
                    .filter(s -> s.module.equals(module))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no service " + module));
        }
    }

    /**
     * Who calls whom with {@code X-Waitroom-Internal}: the queue-service is called by the gateway and the coordinator
     * (which pushes the event's state), the coordinator by the gateway and booking (health signals, purchases),
     * booking by the gateway (its {@code /admin/**} routes). The gateway is called by no Waitroom service.
     */
    static final Map<Service, List<Service>> CALLERS = Map.of(
            Service.GATEWAY, List.of(),
            Service.QUEUE, List.of(Service.GATEWAY, Service.COORDINATOR),
            Service.COORDINATOR, List.of(Service.GATEWAY, Service.BOOKING),
            Service.BOOKING, List.of(Service.GATEWAY));

    /** The table: each service's secrets, nothing more. */
    static final Map<Service, Set<Secret>> HELD = table();

    /** A variable whose name says it carries a secret: anything of this shape a service is given must be in its row. */
    static final Pattern SECRET_NAME = Pattern.compile(".*(TOKEN|KEY|SECRET|PASSWORD|CREDENTIAL|CALLERS).*");

    private static final Pattern CREDENTIAL =
            Pattern.compile("wrs_(gateway|queue|coordinator|booking)_[A-Za-z0-9_-]{43}");

    private ServiceSecrets() {}

    private static Map<Service, Set<Secret>> table() {
        Map<Service, Set<Secret>> held = new LinkedHashMap<>();
        // the gateway verifies queue tickets, signs visitor cookies and the Waitroom-Admission header, pseudonymises
        // accounts and checks operators at /admin/**; it uses Redis, no database, and nobody calls it
        held.put(
                Service.GATEWAY,
                EnumSet.of(
                        Secret.OPS_TOKEN,
                        Secret.TICKET_KEY,
                        Secret.VISITOR_KEY,
                        Secret.ADMISSION_HEADER_KEY,
                        Secret.PSEUDONYM_KEY,
                        Secret.SERVICE_CREDENTIAL,
                        Secret.REDIS_PASSWORD));
        // the queue-service signs queue tickets; it has no operator API (waitroom.web.ops-credential.paths: [])
        held.put(
                Service.QUEUE,
                EnumSet.of(
                        Secret.TICKET_KEY,
                        Secret.SERVICE_CREDENTIAL,
                        Secret.CALLERS_GATEWAY,
                        Secret.CALLERS_COORDINATOR,
                        Secret.REDIS_PASSWORD));
        // the coordinator alone opens its sealed signing keys
        held.put(
                Service.COORDINATOR,
                EnumSet.of(
                        Secret.OPS_TOKEN,
                        Secret.KEY_ENCRYPTION_KEY,
                        Secret.SERVICE_CREDENTIAL,
                        Secret.CALLERS_GATEWAY,
                        Secret.CALLERS_BOOKING,
                        Secret.REDIS_PASSWORD,
                        Secret.POSTGRES_PASSWORD));
        // booking alone checks payment webhooks; shop requests it verifies with the gateway's public keys
        held.put(
                Service.BOOKING,
                EnumSet.of(
                        Secret.OPS_TOKEN,
                        Secret.WEBHOOK_SECRET,
                        Secret.SERVICE_CREDENTIAL,
                        Secret.CALLERS_GATEWAY,
                        Secret.POSTGRES_PASSWORD));
        held.replaceAll((service, secrets) -> Set.copyOf(secrets));
        return Map.copyOf(held);
    }

    /** The secrets of a service's row, by the module or process name ({@code r2.queue-service-2} included). */
    static Set<Secret> heldBy(String process) {
        return HELD.get(Service.ofModule(StackConfig.serviceOf(process)));
    }

    /** The callers' variable a receiver reads the hashes of {@code caller}'s credential from. */
    static Secret callersVariable(Service caller) {
        return switch (caller) {
            case GATEWAY -> Secret.CALLERS_GATEWAY;
            case COORDINATOR -> Secret.CALLERS_COORDINATOR;
            case BOOKING -> Secret.CALLERS_BOOKING;
            case QUEUE -> throw new IllegalArgumentException("the queue-service calls no Waitroom service");
        };
    }

    /**
     * The name a service's credential is kept under in the launcher's secrets file and compose's {@code .env}
     * ({@code WAITROOM_SERVICECREDENTIAL_QUEUE}); the service itself reads it as {@code
     * WAITROOM_SECURITY_SERVICECREDENTIAL}.
     */
    static String credentialFileVariable(Service service) {
        return "WAITROOM_SERVICECREDENTIAL_" + service.shortName().toUpperCase(java.util.Locale.ROOT);
    }

    /**
     * The name of the SHA-256 of a caller's credential in compose's {@code .env} ({@code WAITROOM_CALLERHASH_GATEWAY}),
     * handed to its receivers as {@code WAITROOM_SECURITY_CALLERS_GATEWAY}.
     */
    static String hashFileVariable(Service caller) {
        return "WAITROOM_CALLERHASH_" + caller.shortName().toUpperCase(java.util.Locale.ROOT);
    }

    /** Whether a value has the form of a service credential, {@code wrs_<service>_<43 characters of base64url>}. */
    static boolean isCredential(String value, Service service) {
        var m = CREDENTIAL.matcher(value);
        return m.matches() && m.group(1).equals(service.shortName());
    }

    /** The lowercase hex SHA-256 of a credential, as a receiver is configured with it. */
    static String hash(String credential) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256").digest(credential.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
