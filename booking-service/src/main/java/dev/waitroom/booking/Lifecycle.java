package dev.waitroom.booking;

import java.util.EnumSet;
import java.util.Set;

/**
 * A state enum with its allowed transitions written down once, in {@link #next()}. Every state-changing write names
 * the states it expects; {@link #sourcesOf} gives them for a target.
 *
 * @param <S> the enum itself
 */
public interface Lifecycle<S extends Enum<S> & Lifecycle<S>> {

    /** The states this one may move to. */
    Set<S> next();

    default boolean canMoveTo(S target) {
        return next().contains(target);
    }

    /** The guard of a transition: {@code target}, or an {@link IllegalStateException} if it is not allowed. */
    default S moveTo(S target) {
        if (!canMoveTo(target)) {
            throw new IllegalStateException(
                    target.getDeclaringClass().getSimpleName() + " cannot move from " + this + " to " + target);
        }
        return target;
    }

    /** The states that may move to {@code target}: what the WHERE clause of that write expects. */
    static <S extends Enum<S> & Lifecycle<S>> Set<S> sourcesOf(S target) {
        Set<S> sources = EnumSet.noneOf(target.getDeclaringClass());
        for (S state : target.getDeclaringClass().getEnumConstants()) {
            if (state.canMoveTo(target)) {
                sources.add(state);
            }
        }
        return sources;
    }
}
