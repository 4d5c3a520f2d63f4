package dev.waitroom.coordinator.grants;

import java.util.Optional;

/**
 * What a claim brings beyond the visitor id, to be given the session again once the offer is ACTIVE
 * (docs/design/architecture.md#identity): the browser's claim key (the same one the activating claim carried, within the
 * offer's window) or a current admission token of the session. The visitor id alone is no proof: the first claim of an
 * OFFERED grant needs none, a repeat needs one of these.
 */
public record ClaimProof(Optional<ClaimKey> key, Optional<String> token) {

    public static ClaimProof none() {
        return new ClaimProof(Optional.empty(), Optional.empty());
    }

    public static ClaimProof of(ClaimKey key) {
        return new ClaimProof(Optional.of(key), Optional.empty());
    }

    @Override
    public String toString() {
        return "ClaimProof[key=" + this.key.isPresent() + ", token=" + this.token.isPresent() + "]";
    }
}
