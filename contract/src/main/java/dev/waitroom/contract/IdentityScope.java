package dev.waitroom.contract;

/** Whose place an entry is: one per browser (visitor id, the default) or one per trusted account. */
public enum IdentityScope {
    BROWSER,
    ACCOUNT;

    public static final IdentityScope DEFAULT = BROWSER;

    /** The value named on the wire, {@link #DEFAULT} when missing; unknown is a {@link MalformedValueException}. */
    public static IdentityScope parse(String value) {
        return value == null ? DEFAULT : WireEnums.parse(IdentityScope.class, value, "identityScope");
    }
}
