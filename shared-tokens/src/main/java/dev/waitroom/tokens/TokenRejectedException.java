package dev.waitroom.tokens;

import java.util.Objects;

/**
 * A token, ticket or cookie was refused. The message never contains the token itself.
 * No stack trace is captured: rejections are an expected, possibly hostile, high-volume outcome.
 */
public final class TokenRejectedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final RejectionReason reason;

    public TokenRejectedException(RejectionReason reason, String message) {
        super(Objects.requireNonNull(reason, "reason") + ": " + message, null, false, false);
        this.reason = reason;
    }

    public TokenRejectedException(RejectionReason reason) {
        this(reason, describe(reason));
    }

    public RejectionReason reason() {
        return reason;
    }

    private static String describe(RejectionReason reason) {
        return reason.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }
}
