package dev.waitroom.contract.ops;

import dev.waitroom.contract.MalformedValueException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who presented which credential: the operators a service or the gateway knows, each by the SHA-256 digest of their
 * token (one or two: a current and a previous one during a rotation). A presented token is hashed once and compared
 * with every digest in constant time, with no early exit; plain tokens are never kept.
 */
public final class OperatorCredentials {

    private final List<Entry> entries;

    private final Map<String, Operator> operators;

    private OperatorCredentials(List<Entry> entries, Map<String, Operator> operators) {
        this.entries = entries;
        this.operators = operators;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Who a plain {@code ops-token} names: the single admin token of deployments without named operators. */
    public static final Operator OPS_TOKEN_OPERATOR = new Operator("ops", OperatorRole.ADMIN);

    /**
     * The credentials of a configuration ({@code waitroom.security.*}): a plain ops token and its previous value (both
     * {@link #OPS_TOKEN_OPERATOR}, optional) and the named operators.
     *
     * @throws IllegalStateException naming the property at fault, never showing a token or hash
     */
    public static OperatorCredentials fromConfiguration(
            String opsToken, String opsTokenPrevious, List<ConfiguredOperator> operators) {
        Builder builder = builder();
        for (String token : new String[] {opsToken, opsTokenPrevious}) {
            if (token != null && !token.isBlank()) {
                builder.token(OPS_TOKEN_OPERATOR, token);
            }
        }
        List<ConfiguredOperator> configured = operators == null ? List.of() : operators;
        for (int i = 0; i < configured.size(); i++) {
            ConfiguredOperator entry = configured.get(i);
            try {
                if (entry == null) {
                    throw new MalformedValueException("empty entry");
                }
                Operator operator = new Operator(entry.name(), OperatorRole.of(entry.role()));
                if (entry.tokenHash() == null || entry.tokenHash().isBlank()) {
                    throw new MalformedValueException("token-hash is required");
                }
                builder.tokenHash(operator, entry.tokenHash());
                if (entry.tokenHashPrevious() != null
                        && !entry.tokenHashPrevious().isBlank()) {
                    builder.tokenHash(operator, entry.tokenHashPrevious());
                }
            } catch (MalformedValueException ex) {
                throw new IllegalStateException("waitroom.security.operators[" + i + "]: " + ex.getMessage());
            }
        }
        try {
            return builder.build();
        } catch (MalformedValueException ex) {
            throw new IllegalStateException("waitroom.security.operators: " + ex.getMessage());
        }
    }

    /** The operator whose token this is; empty for a missing, empty or unknown token. */
    public Optional<Operator> authenticate(String token) {
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        byte[] presented = OperatorTokens.digest(token);
        Operator match = null;
        for (Entry entry : entries) {
            if (MessageDigest.isEqual(entry.digest(), presented)) {
                match = entry.operator();
            }
        }
        return Optional.ofNullable(match);
    }

    /**
     * The operator of an {@code Authorization} header: scheme {@code Bearer} in any case, the token without the
     * blanks around it.
     */
    public Optional<Operator> fromAuthorization(String authorization) {
        String prefix = "Bearer ";
        if (authorization == null || !authorization.regionMatches(true, 0, prefix, 0, prefix.length())) {
            return Optional.empty();
        }
        return authenticate(authorization.substring(prefix.length()).strip());
    }

    /** Whether no credential at all is configured: every token is refused. */
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The operators by name, in configuration order. */
    public Set<String> names() {
        return operators.keySet();
    }

    public Optional<Operator> operator(String name) {
        return Optional.ofNullable(operators.get(name));
    }

    @Override
    public String toString() {
        return "OperatorCredentials" + operators.values();
    }

    private record Entry(Operator operator, byte[] digest) {}

    /**
     * Collects credentials; {@link #build()} refuses one name with two roles and one credential for two operators
     * (the audit could not tell them apart).
     */
    public static final class Builder {

        private final List<Entry> entries = new ArrayList<>();

        private Builder() {}

        /** A plain token (the single {@code ops-token} of older deployments): only its digest is kept. */
        public Builder token(Operator operator, String token) {
            if (token == null || token.isBlank()) {
                throw new MalformedValueException("operator " + operator.name() + " has an empty token");
            }
            entries.add(new Entry(operator, OperatorTokens.digest(token.strip())));
            return this;
        }

        /** A token's stored form ({@link OperatorTokens#hash}). */
        public Builder tokenHash(Operator operator, String hash) {
            try {
                entries.add(new Entry(operator, OperatorTokens.parse(hash)));
            } catch (MalformedValueException ex) {
                throw new MalformedValueException("operator " + operator.name() + ": " + ex.getMessage());
            }
            return this;
        }

        public OperatorCredentials build() {
            Map<String, Operator> operators = new LinkedHashMap<>();
            List<Entry> distinct = new ArrayList<>();
            for (Entry entry : entries) {
                Operator known = operators.putIfAbsent(entry.operator().name(), entry.operator());
                if (known != null && known.role() != entry.operator().role()) {
                    throw new MalformedValueException(
                            "operator " + known.name() + " is configured twice with different roles");
                }
                boolean repeated = false;
                for (Entry other : distinct) {
                    if (MessageDigest.isEqual(other.digest(), entry.digest())) {
                        if (!other.operator().name().equals(entry.operator().name())) {
                            throw new MalformedValueException(
                                    "operators " + other.operator().name() + " and "
                                            + entry.operator().name()
                                            + " share a credential: give each operator a token of their own");
                        }
                        repeated = true;
                    }
                }
                if (!repeated) {
                    distinct.add(entry);
                }
            }
            return new OperatorCredentials(List.copyOf(distinct), Collections.unmodifiableMap(operators));
        }
    }
}
