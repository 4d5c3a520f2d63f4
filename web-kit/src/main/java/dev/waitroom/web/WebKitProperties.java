package dev.waitroom.web;

import dev.waitroom.contract.ops.ConfiguredOperator;
import dev.waitroom.contract.ops.OperatorCredentials;
import java.util.List;
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
        if (!web.internalCredential().paths().isEmpty()) {
            require(
                    security.internalToken(),
                    "waitroom.security.internal-token",
                    "WAITROOM_SECURITY_INTERNALTOKEN",
                    "waitroom.web.internal-credential.paths");
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
     * never sent): see docs/security/operators.md for the order of a rotation without downtime.
     *
     * @param internalToken         the value of {@code X-Waitroom-Internal} on calls between services
     * @param internalTokenPrevious also accepted as {@code X-Waitroom-Internal} (optional)
     * @param opsToken              a single operator token, the operator {@code ops} with the {@code admin} role
     *                              (optional once {@code operators} are configured)
     * @param opsTokenPrevious      also accepted for {@code ops} (optional)
     * @param operators             named operators, each with a token of their own, configured by its hash
     */
    public record Security(
            String internalToken,
            String internalTokenPrevious,
            String opsToken,
            String opsTokenPrevious,
            @DefaultValue List<ConfiguredOperator> operators) {

        @ConstructorBinding
        public Security {
            operators = operators == null ? List.of() : List.copyOf(operators);
            checkLength(
                    internalTokenPrevious,
                    "waitroom.security.internal-token-previous",
                    "WAITROOM_SECURITY_INTERNALTOKENPREVIOUS");
            checkLength(opsToken, "waitroom.security.ops-token", "WAITROOM_SECURITY_OPSTOKEN");
            checkLength(opsTokenPrevious, "waitroom.security.ops-token-previous", "WAITROOM_SECURITY_OPSTOKENPREVIOUS");
            OperatorCredentials.fromConfiguration(opsToken, opsTokenPrevious, operators);
        }

        public Security(String internalToken, String opsToken) {
            this(internalToken, null, opsToken, null, List.of());
        }

        /** Every operator credential: the named operators' hashes and the plain ops tokens (as {@code ops}). */
        public OperatorCredentials operatorCredentials() {
            return OperatorCredentials.fromConfiguration(opsToken, opsTokenPrevious, operators);
        }

        @Override
        public String toString() {
            return "Security[internalToken=" + mask(internalToken) + ", internalTokenPrevious="
                    + mask(internalTokenPrevious) + ", opsToken=" + mask(opsToken) + ", opsTokenPrevious="
                    + mask(opsTokenPrevious) + ", operators=" + operators + "]";
        }

        private static String mask(String secret) {
            return secret == null || secret.isEmpty() ? "(unset)" : "****";
        }
    }

    /**
     * @param internalCredential where the internal credential is required
     * @param opsCredential      where the ops token is required
     * @param maxBodySize        the largest request body accepted (16KB unless set)
     */
    public record Web(
            @DefaultValue InternalCredential internalCredential,
            @DefaultValue OpsCredential opsCredential,
            @DefaultValue("16KB") DataSize maxBodySize) {

        public Web {
            if (maxBodySize.toBytes() < 1) {
                throw new IllegalStateException("waitroom.web.max-body-size must be positive");
            }
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
