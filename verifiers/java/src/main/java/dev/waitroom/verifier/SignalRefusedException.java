package dev.waitroom.verifier;

import java.io.IOException;

/**
 * A shop signal the gateway or the coordinator refused (docs/integration/shop-signals.md): the HTTP status and, when
 * the answer was an RFC 9457 problem, its {@code type} and {@code detail}.
 */
public final class SignalRefusedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final int status;

    private final String problemType;

    SignalRefusedException(int status, String problemType, String detail) {
        super("shop signal refused: " + status + (problemType == null ? "" : " " + problemType)
                + (detail == null ? "" : ": " + detail));
        this.status = status;
        this.problemType = problemType;
    }

    public int status() {
        return status;
    }

    /** The problem's {@code type} URI, or null when the answer was no problem document. */
    public String problemType() {
        return problemType;
    }

    /** Worth sending again after a while (429, 5xx): every signal is idempotent. */
    public boolean retryable() {
        return status == 429 || status >= 500;
    }
}
