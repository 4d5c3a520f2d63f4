package dev.waitroom.contract.ops;

import dev.waitroom.contract.MalformedValueException;
import java.util.Locale;

/** What an operator may do on the ops API ({@code /admin/**}). */
public enum OperatorRole {
    /** Every ops route: reads, mode and phase changes, configuration, keys, inventory, faults. */
    ADMIN,
    /** Reads only: {@code GET} and {@code HEAD} (the live view among them); every other method is refused. */
    VIEWER;

    /** Whether a request with this HTTP method is allowed; the method is compared as sent (upper case). */
    public boolean permits(String method) {
        return this == ADMIN || "GET".equals(method) || "HEAD".equals(method);
    }

    /** The role a configuration names ({@code admin}, {@code viewer}, in any case). */
    public static OperatorRole of(String value) {
        if (value != null) {
            for (OperatorRole role : values()) {
                if (role.name().equalsIgnoreCase(value.strip())) {
                    return role;
                }
            }
        }
        throw new MalformedValueException("an operator role is admin or viewer, not " + describe(value));
    }

    /** The name as configured and audited: {@code admin}, {@code viewer}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    private static String describe(String value) {
        return value == null ? "nothing" : "'" + value.replaceAll("[^A-Za-z0-9_-]", "?") + "'";
    }
}
