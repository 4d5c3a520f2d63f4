package dev.waitroom.chaos.checker;

import java.util.ArrayList;
import java.util.List;

/**
 * The checker's answer: one line per invariant, passed or not, with what was checked and its counter-examples. An
 * invariant the run gave no case to check (no order paid, no join answered) fails too: a property nothing tested is
 * not a property that held, and a quiet run must not pass as a proof.
 */
public record Verdict(long seed, List<Invariant> invariants) {

    /** At most this many counter-examples are printed per invariant; the count says how many there were. */
    static final int SHOWN = 12;

    public record Invariant(String name, long checked, List<String> counterExamples, List<String> notes) {

        public boolean holds() {
            return evaluated() && counterExamples.isEmpty();
        }

        /** False when the run gave this invariant nothing to check. */
        public boolean evaluated() {
            return checked > 0;
        }
    }

    public boolean passed() {
        return invariants.stream().allMatch(Invariant::holds);
    }

    public String text() {
        StringBuilder s = new StringBuilder();
        s.append("history checker verdict (seed ")
                .append(seed)
                .append("): ")
                .append(passed() ? "PASS" : "FAIL")
                .append('\n');
        for (Invariant i : invariants) {
            s.append(String.format("  %-4s %-66s checked %d%n", i.holds() ? "ok" : "FAIL", i.name(), i.checked()));
            if (!i.evaluated()) {
                s.append("         not evaluated: the run gave this invariant nothing to check\n");
            }
            for (String note : i.notes()) {
                s.append("         ").append(note).append('\n');
            }
            List<String> shown = i.counterExamples()
                    .subList(0, Math.min(SHOWN, i.counterExamples().size()));
            for (String c : shown) {
                s.append("         counter-example: ").append(c).append('\n');
            }
            if (i.counterExamples().size() > SHOWN) {
                s.append("         ... and ")
                        .append(i.counterExamples().size() - SHOWN)
                        .append(" more\n");
            }
        }
        return s.toString();
    }

    /** Builds one invariant's line as the checks find things. */
    static final class Builder {
        private final String name;
        private long checked;
        private final List<String> counterExamples = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();

        Builder(String name) {
            this.name = name;
        }

        void checked() {
            checked++;
        }

        void checked(long n) {
            checked += n;
        }

        void violation(String counterExample) {
            counterExamples.add(counterExample);
        }

        void note(String note) {
            notes.add(note);
        }

        Invariant build() {
            return new Invariant(name, checked, List.copyOf(counterExamples), List.copyOf(notes));
        }
    }
}
