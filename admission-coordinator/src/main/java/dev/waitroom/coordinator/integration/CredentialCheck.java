package dev.waitroom.coordinator.integration;

/**
 * What {@link IntegrationCredentials#check} found in a signal's {@code Authorization} header. Only {@link #ACCEPTED}
 * lets the signal through; the others name the problem the caller gets.
 */
public enum CredentialCheck {
    /** A live credential of the event the signal is for. */
    ACCEPTED,
    /** No {@code Authorization: Bearer wric_...} at all, or not in the credential's shape. */
    MISSING,
    /** The shape of a credential, but unknown, revoked or with the wrong secret. */
    NOT_ACCEPTED,
    /** A live credential of another event. */
    OTHER_EVENT
}
