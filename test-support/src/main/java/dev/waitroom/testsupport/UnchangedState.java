package dev.waitroom.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Proves that requests which must be refused changed nothing stored, at the cost of two fingerprints per batch rather
 * than two per request: a fuzz test sends a route's hundred malformed requests, and a fingerprint of every table or
 * every key of a store shared by the whole test JVM grows with what the other tests left there (in CI that made one
 * fuzz test take nine minutes).
 *
 * <p>The batch is sent between one fingerprint before and one after. Only when the two differ is every request sent
 * again alone between its own two fingerprints, to name the one that changed something; when none does alone, the
 * batch itself is named. A request that changed the store therefore never passes, and the fault still says which.
 *
 * <pre>
 * UnchangedState&lt;Map&lt;String, String&gt;&gt; guard = new UnchangedState&lt;&gt;(this::fingerprint, Differences::of);
 * guard.check(route.key(), requests, faults);
 * </pre>
 *
 * @param <F> the fingerprint of the stored state
 */
public final class UnchangedState<F> {

    /** One request of a batch: sent once, or again when the batch changed something. */
    public interface Request {

        /** What names the request in a fault. */
        String name();

        /**
         * Sends the request and adds its own faults (the answer's status and shape) to {@code faults}; {@code again}
         * is true on the second sending, whose answers a caller need not count twice.
         */
        void send(boolean again, List<String> faults);
    }

    private final Supplier<F> fingerprint;
    private final BiFunction<F, F, String> changed;

    /**
     * @param fingerprint reads the stored state
     * @param changed what differs between a fingerprint before and one after, empty when nothing a request could
     *     have made did
     */
    public UnchangedState(Supplier<F> fingerprint, BiFunction<F, F, String> changed) {
        this.fingerprint = fingerprint;
        this.changed = changed;
    }

    /**
     * A guard over a fingerprint of named parts (a table's rows, a store's keys, each as one string): what changed is
     * the parts whose value differs, or that appeared.
     */
    public static UnchangedState<Map<String, String>> ofParts(Supplier<Map<String, String>> fingerprint) {
        return new UnchangedState<>(fingerprint, (before, after) -> String.join(", ", changedParts(before, after)));
    }

    /** The names of the parts of {@code after} whose value differs from {@code before}'s, or that are new. */
    public static List<String> changedParts(Map<String, String> before, Map<String, String> after) {
        List<String> names = new ArrayList<>();
        after.forEach((name, value) -> {
            if (!value.equals(before.get(name))) {
                names.add(name);
            }
        });
        return names;
    }

    /** Sends {@code requests} (named together by {@code batch}) and adds a fault for each one that changed the store. */
    public void check(String batch, List<? extends Request> requests, List<String> faults) {
        if (requests.isEmpty()) {
            return;
        }
        F before = this.fingerprint.get();
        for (Request request : requests) {
            request.send(false, faults);
        }
        String change = this.changed.apply(before, this.fingerprint.get());
        if (change.isEmpty()) {
            return;
        }
        boolean named = false;
        List<String> again = new ArrayList<>();
        for (Request request : requests) {
            F alone = this.fingerprint.get();
            request.send(true, again);
            String changedAlone = this.changed.apply(alone, this.fingerprint.get());
            if (!changedAlone.isEmpty()) {
                faults.add(request.name() + ": changed stored state: " + changedAlone);
                named = true;
            }
        }
        if (!named) {
            faults.add(batch + ": " + requests.size() + " requests together changed stored state (none alone when sent"
                    + " again): " + change);
        }
    }
}
