package dev.waitroom.tokens;

/**
 * Why a token, ticket or cookie was refused. Stable: services map these to problem types and metrics.
 */
public enum RejectionReason {
    /** Not the expected shape: wrong segment count, bad or non-canonical base64, not JSON, a claim of the wrong type, a key id with characters outside {@code [A-Za-z0-9_-]}. */
    MALFORMED,
    /** Longer than the format allows; refused before any parsing. */
    TOO_LARGE,
    /** A JWT whose {@code alg} is anything but EdDSA (including {@code none} and HS256). */
    UNSUPPORTED_ALGORITHM,
    /** Wrong {@code typ} header, or a token of another kind (a visitor cookie offered as a ticket). */
    WRONG_TYPE,
    /** A key id that is not (or no longer) published: also a key that was retired and removed. */
    UNKNOWN_KEY,
    /** Signature or MAC does not match. */
    BAD_SIGNATURE,
    WRONG_ISSUER,
    WRONG_AUDIENCE,
    WRONG_EVENT,
    /** The token was issued for an older sale generation than the current one. */
    OLD_GENERATION,
    /** Expired beyond the allowed skew (or beyond the allowed window for expired tokens). */
    EXPIRED,
    /** {@code iat} or {@code nbf} lies in the future beyond the allowed skew. */
    NOT_YET_VALID,
    /** A required claim or header is absent. */
    MISSING_CLAIM,
    /** A header this format never uses ({@code jku}, {@code x5u}, {@code jwk}, {@code x5c}, {@code crit}, ...). */
    FORBIDDEN_HEADER
}
