package dev.waitroom.web;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.WaitroomService;
import jakarta.servlet.ServletRequest;
import java.util.Optional;

/**
 * The service the internal credential check authenticated for this request (docs/design/security/internal.md#who-may-call-what).
 * A handler that trusts what only one caller may say (the gateway's {@code X-Waitroom-Visitor}) can read it here; the
 * route rules ({@code waitroom.web.callers.<service>}) already refused every other caller before the handler ran.
 */
public final class InternalCaller {

    /** The request attribute that holds the {@link WaitroomService}. */
    public static final String ATTRIBUTE = InternalCaller.class.getName();

    /** The MDC key of the caller's name while the request is handled. */
    public static final String MDC_KEY = "caller";

    private InternalCaller() {}

    /** The calling service; empty on public paths or with the check off. */
    public static Optional<WaitroomService> of(ServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof WaitroomService service
                ? Optional.of(service)
                : Optional.empty();
    }

    /** The calling service; 403 {@code internal-credential-required} without one. */
    public static WaitroomService require(ServletRequest request) {
        return of(request)
                .orElseThrow(() -> new ProblemException(
                        ProblemType.INTERNAL_CREDENTIAL_REQUIRED,
                        "This route needs the calling service's credential."));
    }
}
