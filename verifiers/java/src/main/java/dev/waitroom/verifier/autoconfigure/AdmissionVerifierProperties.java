package dev.waitroom.verifier.autoconfigure;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code waitroom.verifier.*}: how an origin verifies the {@code Waitroom-Admission} header.
 *
 * @param enabled      registers the filter when {@code true} (default)
 * @param jwksUrl      the gateway's published keys, e.g. {@code https://queue.example/.well-known/waitroom-admission-keys}
 * @param jwks         or the keys themselves, a JWKS document (tests, origins without a route to the gateway)
 * @param jwksRefresh  how often the JWKS is read again; an unknown key id reads it at most every 5 s
 * @param audience     this origin's name: the audience the gateway signs for it
 * @param eventId      the one event this origin serves; empty to accept every event (check it yourself)
 * @param clockSkew    how far the gateway's clock may be off this one's
 * @param urlPatterns  the servlet URL patterns the filter guards
 * @param order        the filter's order
 */
@ConfigurationProperties("waitroom.verifier")
public record AdmissionVerifierProperties(
        @DefaultValue("true") boolean enabled,
        URI jwksUrl,
        String jwks,
        @DefaultValue("5m") Duration jwksRefresh,
        String audience,
        String eventId,
        @DefaultValue("5s") Duration clockSkew,
        @DefaultValue("/*") List<String> urlPatterns,
        @DefaultValue("0") int order) {

    public AdmissionVerifierProperties {
        if (enabled) {
            if ((jwksUrl == null) == (jwks == null || jwks.isBlank())) {
                throw new IllegalArgumentException("waitroom.verifier: set exactly one of jwks-url and jwks");
            }
            if (audience == null || audience.isBlank()) {
                throw new IllegalArgumentException("waitroom.verifier.audience must be set: this origin's name");
            }
        }
    }
}
