package dev.waitroom.verifier;

/**
 * Why a {@code Waitroom-Admission} header was refused: the codes of docs/integration/admission-header.md, the same in
 * every verifier and in the test vectors.
 */
public enum RejectionReason {
    /** No header on the request. */
    MISSING("missing"),
    /** Not a compact JWS of the format: segments, base64url, JSON, a claim of the wrong type, a header member more. */
    MALFORMED("malformed"),
    /** {@code alg} other than {@code EdDSA} ({@code none}, {@code HS256}, ...). */
    UNSUPPORTED_ALGORITHM("unsupported-algorithm"),
    /** {@code typ} other than {@code waitroom-admission+jwt}. */
    WRONG_TYPE("wrong-type"),
    /** A {@code kid} the gateway does not publish (any more). */
    UNKNOWN_KEY("unknown-key"),
    BAD_SIGNATURE("bad-signature"),
    WRONG_ISSUER("wrong-issuer"),
    /** Made for another origin. */
    WRONG_AUDIENCE("wrong-audience"),
    WRONG_EVENT("wrong-event"),
    /** Made for a request of another method. */
    WRONG_METHOD("wrong-method"),
    /** Made for a request of another raw path. */
    WRONG_PATH("wrong-path"),
    /** {@code exp} more than {@code iat} + 60 s: no gateway signs that. */
    LIFETIME_TOO_LONG("lifetime-too-long"),
    EXPIRED("expired"),
    /** {@code iat} in the future beyond the clock skew. */
    NOT_YET_VALID("not-yet-valid");

    private final String code;

    RejectionReason(String code) {
        this.code = code;
    }

    /** The stable code, e.g. {@code wrong-path}. */
    public String code() {
        return code;
    }
}
