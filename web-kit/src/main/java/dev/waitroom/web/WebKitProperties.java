package dev.waitroom.web;

import dev.waitroom.contract.ServiceCredential;
import dev.waitroom.contract.WaitroomService;
import dev.waitroom.contract.ops.ConfiguredOperator;
import dev.waitroom.contract.ops.OperatorCredentials;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The kit's configuration: the secrets under {@code waitroom.security} (the names deployments already use), the paths
 * and the body limit under {@code waitroom.web}. A check whose paths are empty is off and needs no secret; a check that
 * is on refuses to start without its secret, naming the environment variable. {@link #toString()} never shows a secret.
 *
 * @param security the credentials the checks compare against
 * @param web what is checked where, and the body limit
 */
@ConfigurationProperties("waitroom")
public record WebKitProperties(
        @DefaultValue Security security, @DefaultValue Web web) {

    /** Shorter secrets are refused: a credential must not be guessable. */
    static final int MIN_SECRET_LENGTH = 16;

    public WebKitProperties {
        if (!web.internalCredential().paths().isEmpty() && security.callers().isEmpty()) {
            throw new IllegalStateException("waitroom.security.callers.<service> (environment variable"
                    + " WAITROOM_SECURITY_CALLERS_<SERVICE>) is required and has no default: set it to the SHA-256 of"
                    + " each calling service's credential (docs/design/security/internal.md#who-may-call-what), or turn the"
                    + " check off with an empty waitroom.web.internal-credential.paths");
        }
        for (String caller : web.callers().keySet()) {
            if (!security.callers().containsKey(caller)) {
                throw new IllegalStateException("waitroom.web.callers." + caller + " names routes for a caller without"
                        + " a credential: set waitroom.security.callers." + caller + " (WAITROOM_SECURITY_CALLERS_"
                        + caller.toUpperCase(Locale.ROOT) + ") to the SHA-256 of its credential, or remove the rules");
            }
        }
        if (!web.internalCredential().paths().isEmpty()) {
            for (String caller : security.callers().keySet()) {
                if (web.callers().getOrDefault(caller, List.of()).isEmpty()) {
                    throw new IllegalStateException("waitroom.security.callers." + caller + " is set but"
                            + " waitroom.web.callers." + caller + " allows it no route: a service holds only the"
                            + " hashes of the services that call it, so remove WAITROOM_SECURITY_CALLERS_"
                            + caller.toUpperCase(Locale.ROOT) + " (or give it routes)");
                }
            }
        }
        if (!web.opsCredential().paths().isEmpty() && security.operators().isEmpty()) {
            require(
                    security.opsToken(),
                    "waitroom.security.ops-token",
                    "WAITROOM_SECURITY_OPSTOKEN",
                    "waitroom.web.ops-credential.paths (or configure waitroom.security.operators)");
        }
    }

    private static void require(String secret, String property, String variable, String paths) {
        if (secret == null || secret.isBlank()) {
            throw new IllegalStateException(property + " (environment variable " + variable
                    + ") is required and has no default: set it to a random secret, or turn the check off with an empty "
                    + paths);
        }
        checkLength(secret, property, variable);
    }

    private static void checkLength(String secret, String property, String variable) {
        if (secret != null && !secret.isBlank() && secret.strip().length() < MIN_SECRET_LENGTH) {
            throw new IllegalStateException(property + " (environment variable " + variable + ") must be at least "
                    + MIN_SECRET_LENGTH + " characters");
        }
    }

    /**
     * The credentials. Each has a current value and, during a rotation, a previous one that is accepted as well (and
     * never sent): see docs/design/security/operators.md and docs/design/security/internal.md for the order of a rotation without
     * downtime.
     *
     * @param serviceCredential     this service's own credential ({@code wrs_<service>_<secret>}), sent as {@code
     *                              X-Waitroom-Internal} on its calls to other services (optional: only a service that
     *                              calls another needs one)
     * @param callers               per calling service ({@code gateway}, {@code queue}, {@code coordinator}, {@code
     *                              booking}), the lowercase hex SHA-256 of its credential, or two comma-separated
     *                              (current, previous) during a rotation: this service holds no caller's secret
     * @param opsToken              a single operator token, the operator {@code ops} with the {@code admin} role
     *                              (optional once {@code operators} are configured)
     * @param opsTokenPrevious      also accepted for {@code ops} (optional)
     * @param operators             named operators, each with a token of their own, configured by its hash
     * @param internalToken         the retired shared credential: a service that still has it refuses to start
     * @param internalTokenPrevious the retired shared credential's previous value, refused the same way
     */
    public record Security(
            String serviceCredential,
            @DefaultValue Map<String, String> callers,
            String opsToken,
            String opsTokenPrevious,
            @DefaultValue List<ConfiguredOperator> operators,
            String internalToken,
            String internalTokenPrevious) {

        /** The length of a hex SHA-256. */
        static final int HASH_LENGTH = 64;

        @ConstructorBinding
        public Security {
            retired(internalToken, "waitroom.security.internal-token", "WAITROOM_SECURITY_INTERNALTOKEN");
            retired(
                    internalTokenPrevious,
                    "waitroom.security.internal-token-previous",
                    "WAITROOM_SECURITY_INTERNALTOKENPREVIOUS");
            serviceCredential = serviceCredential == null || serviceCredential.isBlank() ? null : serviceCredential;
            if (serviceCredential != null
                    && ServiceCredential.parse(serviceCredential.strip()).isEmpty()) {
                throw new IllegalStateException("waitroom.security.service-credential"
                        + " (WAITROOM_SECURITY_SERVICECREDENTIAL) must be wrs_<service>_<"
                        + ServiceCredential.SECRET_LENGTH + " characters of base64url>, the service one of gateway,"
                        + " queue, coordinator, booking: generate it as docs/design/security/internal.md says");
            }
            serviceCredential = serviceCredential == null ? null : serviceCredential.strip();
            callers = hashes(callers);
            operators = operators == null ? List.of() : List.copyOf(operators);
            checkLength(opsToken, "waitroom.security.ops-token", "WAITROOM_SECURITY_OPSTOKEN");
            checkLength(opsTokenPrevious, "waitroom.security.ops-token-previous", "WAITROOM_SECURITY_OPSTOKENPREVIOUS");
            OperatorCredentials.fromConfiguration(opsToken, opsTokenPrevious, operators);
        }

        /** Callers by their hashes and an ops token, as tests build it. */
        public Security(Map<String, String> callers, String opsToken) {
            this(null, callers, opsToken, null, List.of(), null, null);
        }

        private static void retired(String value, String property, String variable) {
            if (value != null && !value.isBlank()) {
                throw new IllegalStateException(property + " (" + variable + ") is no longer used: every service has"
                        + " a credential of its own. Remove it; give each service waitroom.security.service-credential"
                        + " (WAITROOM_SECURITY_SERVICECREDENTIAL) and each receiver the hashes of its callers,"
                        + " waitroom.security.callers.<service> (docs/design/security/internal.md#who-may-call-what)");
            }
        }

        private static Map<String, String> hashes(Map<String, String> configured) {
            Map<String, String> checked = new LinkedHashMap<>();
            if (configured == null) {
                return Map.of();
            }
            configured.forEach((caller, value) -> {
                String property = "waitroom.security.callers." + caller;
                if (WaitroomService.fromWire(caller).isEmpty()) {
                    throw new IllegalStateException(property + " names no Waitroom service: the callers are gateway,"
                            + " queue, coordinator and booking");
                }
                List<String> hashes = splitHashes(value);
                if (hashes.isEmpty() || hashes.size() > 2) {
                    throw new IllegalStateException(property + " (WAITROOM_SECURITY_CALLERS_"
                            + caller.toUpperCase(Locale.ROOT) + ") must be the SHA-256 of the caller's credential, or"
                            + " two comma-separated (current,previous) during a rotation");
                }
                for (String hash : hashes) {
                    if (hash.length() != HASH_LENGTH || !hash.chars().allMatch(HexFormat::isHexDigit)) {
                        throw new IllegalStateException(property + " must be " + HASH_LENGTH + " hex characters, the"
                                + " SHA-256 of the caller's credential (sha256sum of it), never the credential itself");
                    }
                }
                checked.put(caller, String.join(",", hashes).toLowerCase(Locale.ROOT));
            });
            return Map.copyOf(checked);
        }

        private static List<String> splitHashes(String value) {
            List<String> hashes = new ArrayList<>();
            if (value != null) {
                for (String part : value.split(",", -1)) {
                    if (!part.isBlank()) {
                        hashes.add(part.strip());
                    }
                }
            }
            return hashes;
        }

        /** The configured hashes of one caller, current first; empty when it may not call. */
        List<byte[]> callerHashes(WaitroomService caller) {
            String value = callers.get(caller.wireName());
            List<byte[]> hashes = new ArrayList<>();
            if (value != null) {
                for (String hash : value.split(",")) {
                    hashes.add(HexFormat.of().parseHex(hash));
                }
            }
            return hashes;
        }

        /**
         * This service's own credential, for a client of another service; refuses to start without one, naming what
         * needs it.
         */
        public String requireServiceCredential(String usedFor) {
            if (serviceCredential == null) {
                throw new IllegalStateException("waitroom.security.service-credential"
                        + " (WAITROOM_SECURITY_SERVICECREDENTIAL) is required and has no default: " + usedFor
                        + " sends it (docs/design/security/internal.md#who-may-call-what)");
            }
            return serviceCredential;
        }

        /** Every operator credential: the named operators' hashes and the plain ops tokens (as {@code ops}). */
        public OperatorCredentials operatorCredentials() {
            return OperatorCredentials.fromConfiguration(opsToken, opsTokenPrevious, operators);
        }

        @Override
        public String toString() {
            return "Security[serviceCredential=" + mask(serviceCredential) + ", callers=" + callers.keySet()
                    + ", opsToken=" + mask(opsToken) + ", opsTokenPrevious=" + mask(opsTokenPrevious) + ", operators="
                    + operators + "]";
        }

        private static String mask(String secret) {
            return secret == null || secret.isEmpty() ? "(unset)" : "****";
        }
    }

    /**
     * @param internalCredential where the internal credential is required
     * @param opsCredential      where the ops token is required
     * @param maxBodySize        the largest request body accepted (16KB unless set)
     * @param callers            per calling service, the routes it may use ({@code [METHOD ]/pattern}, as
     *                           {@link PathRules} reads them); a caller's valid credential on any other protected
     *                           route is 403 {@code caller-not-allowed}
     */
    public record Web(
            @DefaultValue InternalCredential internalCredential,
            @DefaultValue OpsCredential opsCredential,
            @DefaultValue("16KB") DataSize maxBodySize,
            @DefaultValue Map<String, List<String>> callers) {

        @ConstructorBinding
        public Web {
            if (maxBodySize.toBytes() < 1) {
                throw new IllegalStateException("waitroom.web.max-body-size must be positive");
            }
            Map<String, List<String>> checked = new LinkedHashMap<>();
            (callers == null ? Map.<String, List<String>>of() : callers).forEach((caller, rules) -> {
                if (WaitroomService.fromWire(caller).isEmpty()) {
                    throw new IllegalStateException("waitroom.web.callers." + caller + " names no Waitroom service:"
                            + " the callers are gateway, queue, coordinator and booking");
                }
                List<String> copy = rules == null
                        ? List.of()
                        : rules.stream().filter(r -> r != null && !r.isBlank()).toList();
                PathRules.of(copy);
                checked.put(caller, copy);
            });
            callers = Map.copyOf(checked);
        }

        public Web(InternalCredential internalCredential, OpsCredential opsCredential, DataSize maxBodySize) {
            this(internalCredential, opsCredential, maxBodySize, Map.of());
        }
    }

    /**
     * @param paths       where {@code X-Waitroom-Internal} is required (every path unless set; empty turns it off)
     * @param publicPaths exempt from it: health probes and metrics scrapes carry no credential
     */
    public record InternalCredential(
            @DefaultValue("/**") List<String> paths,

            @DefaultValue({"/actuator/health/**", "/actuator/prometheus"})
            List<String> publicPaths) {

        public InternalCredential {
            paths = List.copyOf(paths);
            publicPaths = List.copyOf(publicPaths);
            PathRules.of(paths);
            PathRules.of(publicPaths);
        }
    }

    /** @param paths where {@code Authorization: Bearer <ops token>} is required ({@code /admin/**} unless set) */
    public record OpsCredential(@DefaultValue("/admin/**") List<String> paths) {

        public OpsCredential {
            paths = List.copyOf(paths);
            PathRules.of(paths);
        }
    }
}
