package dev.waitroom.coordinator.event;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What a created event gets for each field its body leaves out (docs/operating/schedules-and-pauses.md#defaults):
 * only the id and the name are required. Checked like any event's config when an event is made from them.
 *
 * @param maxActiveSessions the ceiling: sessions offered or active at once
 * @param maxAdmissionsPerSecond the most offers a second at full health
 * @param offerTtl how long an offer waits to be claimed
 * @param sessionTtl how long a shopping session lives unless renewed
 * @param sessionMax the longest a session lives, renewals included
 */
@ConfigurationProperties("waitroom.coordinator.event-defaults")
public record EventDefaults(
        @DefaultValue("1000") int maxActiveSessions,
        @DefaultValue("10") double maxAdmissionsPerSecond,
        @DefaultValue("60s") Duration offerTtl,
        @DefaultValue("600s") Duration sessionTtl,
        @DefaultValue("1800s") Duration sessionMax) {

    public EventDefaults {
        if (maxActiveSessions < 1 || !(maxAdmissionsPerSecond > 0)) {
            throw new IllegalArgumentException(
                    "waitroom.coordinator.event-defaults: max-active-sessions and max-admissions-per-second must be"
                            + " positive");
        }
    }
}
