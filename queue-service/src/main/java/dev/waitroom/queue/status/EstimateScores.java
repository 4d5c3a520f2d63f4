package dev.waitroom.queue.status;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.contract.queue.EstimateCaveat;
import dev.waitroom.contract.queue.Pace;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.queue.join.VisitorStatusReply;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.HashFields;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The live accuracy of wait estimates (docs/design/estimates.md): when an entry is offered, the range it was first shown is
 * worked out again from the inputs visitor_status.lua kept ({@code ahead|shown at|rate|pace}, field {@code j<n>} of the
 * entry's last-seen bucket) by the one contract rule, and the real wait (offer minus shown) counted as inside, early
 * (before the range) or late (after it): {@code waitroom.queue.estimates{event,outcome,caveat}}. One batched read and
 * delete per offer call; best effort, an offer never waits on it. Beyond the first {@link VisitorStatusReply#ESTIMATE_RECORD_ALL} entries
 * of an event only a sample is recorded ({@link VisitorStatusReply#ESTIMATE_RECORD_EVERY}), which keeps the shares and costs Redis a few bytes a
 * visitor rather than sixty.
 */
@Component
public class EstimateScores {

    private static final Logger log = LoggerFactory.getLogger(EstimateScores.class);

    /** The field prefix visitor_status.lua writes. */
    static final String FIELD = "j";

    private final HashFields fields;
    private final MeterRegistry registry;
    private final Clock clock;

    EstimateScores(HashFields fields, MeterRegistry registry, Clock clock) {
        this.fields = fields;
        this.registry = registry;
        this.clock = clock;
    }

    /** How a real wait compared with the range shown. */
    public enum Outcome {
        EARLY,
        INSIDE,
        LATE
    }

    /** One scored estimate. */
    record Score(Outcome outcome, EstimateCaveat caveat, double waitSeconds, QueueStatus.EstimatedWait shown) {}

    /** Scores the first estimate shown to each of these entries, just offered; forgets what it scored. */
    public List<Score> offered(EventId event, List<EntryId> entries) {
        if (entries.isEmpty()) {
            return List.of();
        }
        registerOutcomes(event);
        EventKeys k = EventKeys.of(event);
        Map<String, Set<String>> byBucket = new TreeMap<>();
        for (EntryId entry : entries) {
            long seq = entry.sequence();
            byBucket.computeIfAbsent(k.seen(seq), key -> new TreeSet<>()).add(FIELD + seq % EventKeys.BUCKET);
        }
        List<Score> scores = new ArrayList<>();
        try {
            double now = clock.millis() / 1000.0;
            for (String record : fields.take(byBucket)) {
                Score score = score(record, now);
                if (score != null) {
                    scores.add(score);
                    counter(event, score).increment();
                }
            }
        } catch (RuntimeException e) {
            log.debug(
                    "Could not score the estimates of {} offers of event {}: {}", entries.size(), event, e.toString());
        }
        return scores;
    }

    /** The record {@code ahead|shownAt|rate|pace} scored at {@code now} (epoch seconds); null when unreadable. */
    static Score score(String record, double now) {
        String[] f = record.split("\\|", 4);
        if (f.length < 3) {
            return null;
        }
        try {
            long ahead = Long.parseLong(f[0]);
            long shownAt = Long.parseLong(f[1]);
            double rate = Double.parseDouble(f[2]);
            Pace pace = f.length == 4 ? Pace.decode(f[3]) : null;
            QueueStatus.EstimatedWait shown =
                    QueueStatus.EstimatedWait.of(QueueStatus.Position.around(ahead), rate, pace);
            if (shown == null) {
                return null;
            }
            double wait = Math.max(0, now - shownAt);
            Outcome outcome = wait < shown.min() ? Outcome.EARLY : wait > shown.max() ? Outcome.LATE : Outcome.INSIDE;
            return new Score(outcome, shown.caveat(), wait, shown);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private Counter counter(EventId event, Score score) {
        return counter(event, score.outcome(), score.caveat());
    }

    /**
     * Every outcome's series (caveat {@code none}) exists from an event's first offer, at zero until one is scored:
     * an event whose first answers all said "not known yet" reads 0 scored, not a panel with no data.
     */
    private void registerOutcomes(EventId event) {
        for (Outcome outcome : Outcome.values()) {
            counter(event, outcome, null);
        }
    }

    private Counter counter(EventId event, Outcome outcome, EstimateCaveat caveat) {
        return Counter.builder("waitroom.queue.estimates")
                .description("Offered entries by whether the real wait fell inside the range first shown")
                .tag("event", event.value())
                .tag("outcome", outcome.name().toLowerCase(java.util.Locale.ROOT))
                .tag("caveat", caveat == null ? "none" : caveat.name())
                .register(registry);
    }
}
