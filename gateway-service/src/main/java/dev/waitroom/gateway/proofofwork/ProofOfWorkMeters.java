package dev.waitroom.gateway.proofofwork;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.stereotype.Component;

/** {@code waitroom.gateway.proof.of.work}, one counter per outcome, registered once. */
@Component
class ProofOfWorkMeters {

    enum Outcome {
        /** a challenge handed out (by the challenge route or inside a 403) */
        ISSUED,
        /** a join let through with a first-used, valid solution */
        ACCEPTED,
        /** a join without a solution to an event that requires one */
        MISSING,
        /** a solution that is malformed, wrong, expired or for another event */
        INVALID,
        /** a valid solution used before */
        REPLAYED,
        /** Redis could not record the solution: the join was refused (fail closed) */
        UNAVAILABLE,
        /** no snapshot told the event's difficulty: the join was refused (fail closed) */
        GATE_UNKNOWN
    }

    private final Map<Outcome, Counter> counters = new EnumMap<>(Outcome.class);

    ProofOfWorkMeters(MeterRegistry meters) {
        for (Outcome outcome : Outcome.values()) {
            counters.put(
                    outcome,
                    Counter.builder("waitroom.gateway.proof.of.work")
                            .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                            .description("Join challenges issued and join solutions checked, by outcome")
                            .register(meters));
        }
    }

    void count(Outcome outcome) {
        counters.get(outcome).increment();
    }
}
