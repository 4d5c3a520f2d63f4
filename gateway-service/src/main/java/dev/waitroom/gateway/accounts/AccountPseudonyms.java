package dev.waitroom.gateway.accounts;

import dev.waitroom.tokens.HmacKey;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The account id the gateway forwards in {@code X-Waitroom-Account}: {@code p1.} and the base64url of HMAC-SHA256 over
 * the issuer and the subject, under a key every gateway shares ({@code waitroom.accounts.pseudonym-key}). The same
 * person (same issuer, same {@code sub}) is the same id on every gateway instance and every browser; two subjects or two
 * issuers never are (up to a 256-bit collision); nobody without the key can tell who it is, so no raw subject or e-mail
 * reaches the queue-service, Redis or a log. 46 characters of {@code [A-Za-z0-9._-]}: queue-service's {@code Visitor}
 * accepts it.
 */
final class AccountPseudonyms {

    static final String PREFIX = "p1.";

    private final byte[] key;

    AccountPseudonyms(HmacKey key) {
        this.key = key.secret();
    }

    String of(String issuer, String subject) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            // length-prefixed, so ("ab", "c") and ("a", "bc") never meet
            byte[] iss = issuer.getBytes(StandardCharsets.UTF_8);
            mac.update(Integer.toString(iss.length).getBytes(StandardCharsets.US_ASCII));
            mac.update((byte) ':');
            mac.update(iss);
            mac.update(subject.getBytes(StandardCharsets.UTF_8));
            return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
