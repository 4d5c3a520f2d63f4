package dev.waitroom.queue.contract;

/** Whose place an entry is: one per browser (visitor id, the default) or one per trusted account. */
public enum IdentityScope {
    BROWSER, ACCOUNT;

    public static IdentityScope parse(String value) {
        return value == null ? BROWSER : Phase.parseEnum(IdentityScope.class, value, "identityScope");
    }
}
