package dev.waitroom.testsupport;

import dev.waitroom.contract.ServiceCredential;
import dev.waitroom.contract.WaitroomService;

/**
 * A fresh credential of one service for a test, with the hash its receivers are configured with and both as Spring
 * properties, so no test copies the format or keeps a credential in the repository (docs/design/security/internal.md).
 *
 * @param service the service's wire name ({@code gateway}, {@code queue}, {@code coordinator}, {@code booking})
 * @param credential what the service sends as {@code X-Waitroom-Internal}
 * @param hash the lowercase hex SHA-256 of the credential, {@code waitroom.security.callers.<service>} at a receiver
 */
public record ServiceCredentials(String service, String credential, String hash) {

    /** A new random credential of this service. */
    public static ServiceCredentials generate(String service) {
        WaitroomService named = WaitroomService.fromWire(service)
                .orElseThrow(() -> new IllegalArgumentException("no Waitroom service is called " + service));
        ServiceCredential credential = ServiceCredential.generate(named);
        return new ServiceCredentials(service, credential.value(), credential.sha256Hex());
    }

    /** {@code waitroom.security.service-credential=<credential>}: the sender's own configuration. */
    public String credentialProperty() {
        return "waitroom.security.service-credential=" + credential;
    }

    /** {@code waitroom.security.callers.<service>=<hash>}: a receiver's configuration of this caller. */
    public String callerProperty() {
        return "waitroom.security.callers." + service + "=" + hash;
    }

    /** {@link #callerProperty()} with a previous credential still accepted, as during a rotation. */
    public String callerProperty(ServiceCredentials previous) {
        return callerProperty() + "," + previous.hash;
    }

    @Override
    public String toString() {
        return "ServiceCredentials[" + service + ", ****]";
    }
}
