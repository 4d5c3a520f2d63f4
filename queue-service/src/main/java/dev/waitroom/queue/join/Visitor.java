package dev.waitroom.queue.join;

import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.tokens.VisitorId;
import java.util.regex.Pattern;

/**
 * Who is asking, as the gateway vouches: the visitor id always, the account only when signed in. Which one keys
 * the entry is the event's identity scope: the account for ACCOUNT-scoped events (where a visitor without one is
 * refused {@code sign-in-required} before any script runs), else the visitor.
 *
 * <p>The account is whatever the gateway verified and forwarded in {@code X-Waitroom-Account}: today the pseudonym
 * {@code p1.<43 base64url characters>} of the token's issuer and subject (docs/integration/accounts.md), never a raw subject or
 * e-mail. The pattern below accepts it and refuses anything that could not be a key part.
 */
public record Visitor(VisitorId visitorId, String account) {

    private static final Pattern ACCOUNT = Pattern.compile("[A-Za-z0-9._@:+-]{1,64}");

    public Visitor {
        if (visitorId == null) {
            throw new MalformedValueException(ProblemType.VISITOR_REQUIRED, "The visitor identity is missing.");
        }
        if (account != null && !ACCOUNT.matcher(account).matches()) {
            throw new MalformedValueException("malformed account id");
        }
    }

    /** From the gateway's headers; a missing or malformed visitor id is refused. */
    public static Visitor fromHeaders(String visitorHeader, String accountHeader) {
        if (visitorHeader == null || visitorHeader.isEmpty()) {
            throw new MalformedValueException(ProblemType.VISITOR_REQUIRED, "The visitor identity is missing.");
        }
        if (!VisitorId.isValid(visitorHeader)) {
            throw new MalformedValueException("malformed visitor id");
        }
        String account = accountHeader == null || accountHeader.isEmpty() ? null : accountHeader;
        return new Visitor(new VisitorId(visitorHeader), account);
    }

    /** How the account is stored as an identity: prefixed, so it never collides with a visitor id. */
    public String accountIdentity() {
        return account == null ? "" : "a:" + account;
    }
}
