package dev.waitroom.contract.ops;

/**
 * One named operator as a deployment configures it ({@code waitroom.security.operators[n].*}, the same in every
 * service and the gateway); {@link OperatorCredentials#fromConfiguration} checks it.
 *
 * @param name              who, as the audit records it: 1 to 64 of {@code A-Z a-z 0-9 . _ @ -}
 * @param role              {@code admin} (everything) or {@code viewer} (GET and HEAD only)
 * @param tokenHash         {@code sha256:...} of their token ({@code OperatorTokens new} makes both)
 * @param tokenHashPrevious the hash of their previous token, accepted during a rotation (optional)
 */
public record ConfiguredOperator(String name, String role, String tokenHash, String tokenHashPrevious) {

    /** Name and role only: a hash is no credential, but it has no place in a log either. */
    @Override
    public String toString() {
        return name + " (" + role + ")";
    }
}
