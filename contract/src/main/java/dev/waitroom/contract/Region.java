package dev.waitroom.contract;

import java.util.regex.Pattern;

/**
 * A region of a regional deployment (docs/operating/regions.md), and the one rule for its name: 1 to 32 lowercase letters,
 * digits and dashes, not starting or ending with a dash (it names the region's coordinator, its lease and budget rows,
 * its gateway's {@code WAITROOM_REGION_NAME} and the launcher's {@code --regions}). The empty name is the central
 * gate: the only gate of a single-region deployment, which offers under the event's ceiling directly, as before
 * regions existed. A named region offers only within the budget of slots it leases from the coordinator's ledger.
 */
public record Region(String name) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?");

    public static final Region CENTRAL = new Region("");

    public Region {
        if (name == null) {
            name = "";
        }
        if (!name.isEmpty() && !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "a region name is 1 to 32 lowercase letters, digits and dashes, not starting or ending with a dash");
        }
    }

    /** True for a named region, which needs a budget to offer. */
    public boolean regional() {
        return !this.name.isEmpty();
    }

    /** True when {@code name} is a well-formed region name (for input checks). */
    public static boolean valid(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    @Override
    public String toString() {
        return regional() ? this.name : "(central)";
    }
}
