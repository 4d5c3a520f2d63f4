package dev.waitroom.contract.ops;

import dev.waitroom.contract.MalformedValueException;
import java.util.Objects;

/**
 * A person (or tool) on the ops API, authenticated by a credential of their own; the name is what every audit entry
 * records. Names are 1 to 64 of {@code A-Z a-z 0-9 . _ @ -}, so an audit line or a log line cannot be forged with one.
 *
 * @param name who: {@code alice}, {@code alice@example.org}, {@code deploy-bot}
 * @param role what they may do
 */
public record Operator(String name, OperatorRole role) {

    static final int MAX_NAME_LENGTH = 64;

    public Operator {
        Objects.requireNonNull(role, "role");
        if (!validName(name)) {
            throw new MalformedValueException(
                    "an operator name is 1 to " + MAX_NAME_LENGTH + " of A-Z a-z 0-9 . _ @ -");
        }
    }

    public static Operator of(String name, String role) {
        return new Operator(name, OperatorRole.of(role));
    }

    /** Whether this operator may send a request with this HTTP method. */
    public boolean permits(String method) {
        return role.permits(method);
    }

    private static boolean validName(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '.'
                    || c == '_'
                    || c == '@'
                    || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
