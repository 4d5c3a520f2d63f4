package dev.waitroom.verifier;

import java.util.Objects;

/** A {@code Waitroom-Admission} header was refused; the message never contains the header. No stack trace. */
public final class AdmissionRejectedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final RejectionReason reason;

    public AdmissionRejectedException(RejectionReason reason) {
        super(Objects.requireNonNull(reason, "reason").code(), null, false, false);
        this.reason = reason;
    }

    public RejectionReason reason() {
        return reason;
    }
}
