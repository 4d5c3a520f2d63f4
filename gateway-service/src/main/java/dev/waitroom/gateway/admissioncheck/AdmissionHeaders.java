package dev.waitroom.gateway.admissioncheck;

import dev.waitroom.tokens.AdmissionHeader;
import dev.waitroom.tokens.AdmissionHeaderKey;
import dev.waitroom.tokens.AdmissionHeaderSigner;
import dev.waitroom.tokens.HmacKey;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The gateway's {@code Waitroom-Admission} statements (docs/integration/admission-header.md): signed with its own
 * Ed25519 key, {@code waitroom.security.admission-header-key} (a 32-byte seed, base64; the launcher, {@code
 * deploy/compose-env.sh} and the Kubernetes Secret set it), published with {@code ...-previous} as the JWKS at {@link
 * #JWKS_PATH}. Without a configured key the seed is derived from the former shop-assertion key, {@code
 * waitroom.security.assertion-key} (HMAC-SHA256 of a fixed label), so every gateway of a deployment that still sets
 * only that one agrees on a key without a new secret; configure one to rotate it.
 */
@Component
public class AdmissionHeaders {

    /** Where the public keys are published. */
    public static final String JWKS_PATH = "/.well-known/waitroom-admission-keys";

    private static final Pattern AUDIENCE = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    private static final String DERIVATION_LABEL = "waitroom admission-header key v1";

    private final AdmissionHeaderSigner signer;
    private final String audience;

    AdmissionHeaders(
            @Value("${waitroom.security.admission-header-key:}") String key,
            @Value("${waitroom.security.admission-header-key-previous:}") String previous,
            @Value("${waitroom.security.assertion-key:}") String assertionKey,
            @Value("${waitroom.gateway.admission-header.audience:booking}") String audience) {
        AdmissionHeaderKey signing = key.isBlank()
                ? derived(assertionKey)
                : parse(key, "waitroom.security.admission-header-key (WAITROOM_SECURITY_ADMISSIONHEADERKEY)");
        AdmissionHeaderKey before = previous.isBlank()
                ? null
                : parse(
                        previous,
                        "waitroom.security.admission-header-key-previous (WAITROOM_SECURITY_ADMISSIONHEADERKEYPREVIOUS)");
        if (!AUDIENCE.matcher(audience).matches()) {
            throw new IllegalStateException(
                    "waitroom.gateway.admission-header.audience must match " + AUDIENCE.pattern());
        }
        this.signer = AdmissionHeaderSigner.of(signing, before);
        this.audience = audience;
    }

    /** The header value for a request the admission filter passed, for the shop. */
    String sign(CheckedRequest checked, Instant now) {
        return signer.sign(AdmissionHeader.forRequest(
                audience,
                checked.eventId(),
                checked.sessionId(),
                checked.visitor(),
                checked.saleGeneration(),
                checked.scope(),
                checked.method(),
                checked.path(),
                now));
    }

    /** The public keys, current first. */
    public String jwks() {
        return signer.jwks();
    }

    private static AdmissionHeaderKey parse(String base64, String name) {
        try {
            return AdmissionHeaderKey.fromBase64(base64);
        } catch (IllegalArgumentException e) {
            // the key's messages never echo the value
            throw new IllegalStateException(name + " must be base64 of 32 random bytes: " + e.getMessage());
        }
    }

    private static AdmissionHeaderKey derived(String assertionKey) {
        if (assertionKey.isBlank()) {
            throw new IllegalStateException(
                    "waitroom.security.admission-header-key (WAITROOM_SECURITY_ADMISSIONHEADERKEY)"
                            + " or waitroom.security.assertion-key must be set");
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(HmacKey.fromBase64(assertionKey).secret(), "HmacSHA256"));
            return AdmissionHeaderKey.ofSeed(mac.doFinal(DERIVATION_LABEL.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException(
                    "cannot derive the admission-header key from waitroom.security.assertion-key" + " ("
                            + e.getClass().getSimpleName() + "): set WAITROOM_SECURITY_ADMISSIONHEADERKEY");
        }
    }
}
