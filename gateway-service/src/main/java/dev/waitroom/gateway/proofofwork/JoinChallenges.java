package dev.waitroom.gateway.proofofwork;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.waitroom.contract.EventId;
import dev.waitroom.tokens.HmacKey;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.altcha.altcha.Altcha;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issues and checks ALTCHA challenges (docs/design/abuse/proof-of-work.md) with {@code org.altcha:altcha}, statelessly: the
 * salt carries the event id and the expiry as parameters, the challenge is SHA-256 of salt and the secret number, and
 * the signature is an HMAC of the challenge under a key every gateway instance derives from the visitor key. So any
 * instance checks what any other issued, and nothing is stored until a solution is used (the replay check, in
 * {@link SpentSolutions}).
 */
public final class JoinChallenges {

    static final String ALGORITHM = "SHA-256";

    /** Derives the challenge key from the visitor key: a key of its own, not a new secret to manage. */
    static final String KEY_LABEL = "waitroom-altcha-v1";

    /** A solution's header is a few hundred characters; anything much longer is not one. */
    static final int MAX_HEADER_LENGTH = 2048;

    static final String EVENT_PARAM = "event";

    static final String EXPIRES_PARAM = "expires";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String hmacKey;

    private final Clock clock;

    private final Duration validity;

    JoinChallenges(String hmacKey, Clock clock, Duration validity) {
        this.hmacKey = hmacKey;
        this.clock = clock;
        this.validity = validity;
    }

    /** With the key derived from the gateway's visitor key. */
    public static JoinChallenges of(HmacKey visitorKey, Clock clock, Duration validity) {
        return new JoinChallenges(derivedKey(visitorKey), clock, validity);
    }

    /** HMAC-SHA256(visitor key, "waitroom-altcha-v1") in hex: ALTCHA takes its key as a string. */
    static String derivedKey(HmacKey visitorKey) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(visitorKey.secret(), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(KEY_LABEL.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", ex);
        }
    }

    Duration validity() {
        return validity;
    }

    /** A new challenge for a join to {@code event}, its secret number drawn from {@code 0..difficulty-1}. */
    public JoinChallenge issue(EventId event, long difficulty) {
        if (difficulty < 1) {
            throw new IllegalArgumentException("a challenge needs a difficulty of at least 1");
        }
        Instant expires = clock.instant().plus(validity);
        try {
            Altcha.Challenge challenge = Altcha.createChallenge(new Altcha.ChallengeOptions()
                    .setAlgorithm(Altcha.Algorithm.SHA256)
                    .setMaxNumber(difficulty)
                    .setSecureRandomNumber(true)
                    .setHmacKey(hmacKey)
                    .setExpires(expires.getEpochSecond())
                    .addParam(EVENT_PARAM, event.value()));
            return new JoinChallenge(
                    challenge.algorithm, challenge.challenge, challenge.maxnumber, challenge.salt, challenge.signature);
        } catch (Exception ex) {
            throw new IllegalStateException("ALTCHA challenge not created", ex);
        }
    }

    /**
     * Checks a join's solution ({@code X-Waitroom-Proof}: base64 of the ALTCHA JSON payload) for {@code event}: its
     * signature, its expiry (on this gateway's clock), the event bound in its salt, and the number.
     */
    public Verification verify(EventId event, String header) {
        if (header == null || header.isBlank() || header.length() > MAX_HEADER_LENGTH) {
            return new Verification.Refused("malformed");
        }
        Solution solution;
        try {
            solution = JSON.readValue(Base64.getDecoder().decode(header.strip()), Solution.class);
        } catch (IllegalArgumentException | JacksonException ex) {
            return new Verification.Refused("malformed");
        }
        if (solution == null
                || !ALGORITHM.equals(solution.algorithm())
                || solution.challenge() == null
                || solution.salt() == null
                || solution.signature() == null
                || solution.number() == null
                || solution.number() < 0) {
            return new Verification.Refused("malformed");
        }
        try {
            Map<String, String> params = Altcha.extractParams(solution.salt());
            Instant expires = Instant.ofEpochSecond(Long.parseLong(params.getOrDefault(EXPIRES_PARAM, "")));
            if (!clock.instant().isBefore(expires)) {
                return new Verification.Refused("expired");
            }
            if (!event.value().equals(params.get(EVENT_PARAM))) {
                return new Verification.Refused("other-event");
            }
            Altcha.Payload payload = new Altcha.Payload();
            payload.algorithm = solution.algorithm();
            payload.challenge = solution.challenge();
            payload.number = solution.number();
            payload.salt = solution.salt();
            payload.signature = solution.signature();
            // the expiry was checked above, on the injected clock
            if (!Altcha.verifySolution(payload, hmacKey, false)) {
                return new Verification.Refused("wrong");
            }
            return new Verification.Solved(solution.challenge(), expires);
        } catch (Exception ex) { // a number, parameter or algorithm ALTCHA cannot read
            return new Verification.Refused("malformed");
        }
    }

    /** The payload the page sends back: the challenge it was given and the number it found. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Solution(String algorithm, String challenge, Long number, String salt, String signature) {}
}
