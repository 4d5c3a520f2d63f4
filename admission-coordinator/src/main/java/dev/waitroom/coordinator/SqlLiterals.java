package dev.waitroom.coordinator;

import java.util.Collection;
import java.util.stream.Collectors;

/**
 * Enum constants as SQL string literals, so that a statement names the states it expects through the enum that owns
 * them and is still one constant string, built once. Literals rather than parameters: the partial indexes on live
 * grants ({@code where state in ('OFFERED', 'ACTIVE')}) serve only statements whose predicate the planner can see.
 */
public final class SqlLiterals {

    private SqlLiterals() {}

    /** {@code 'NAME'}. Enum names are Java identifiers, so they never need escaping. */
    public static String of(Enum<?> value) {
        return "'" + value.name() + "'";
    }

    /** {@code 'A', 'B'} in the collection's order (an {@code EnumSet}'s is declaration order). */
    public static String list(Collection<? extends Enum<?>> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("an SQL list needs at least one value");
        }
        return values.stream().map(SqlLiterals::of).collect(Collectors.joining(", "));
    }
}
