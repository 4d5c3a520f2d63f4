package dev.waitroom.coordinator.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Scenario;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Issue #28, finding 8: the draw seed was stored in plain text in {@code events.seed} while the signing keys were
 * sealed, so a database dump taken before the sale revealed the draw order. The row now holds it sealed under the
 * key-encryption key, bound to its event (real PostgreSQL); the commitment and the reveal work as before.
 */
@CoordinatorTest
class SealedSeedTests {

    @Autowired
    Scenario scenario;

    @Autowired
    EventManagement management;

    @Autowired
    Events events;

    @Autowired
    JdbcClient jdbc;

    @Test
    void theRowOfAnEventBeforeItsSaleDoesNotHoldItsSeed() {
        EventId id = scheduled("dump");
        String seed = this.management.get(id).seed();

        Map<String, Object> row = row(id);
        assertThat(row.values())
                .as("no column of the dumped row shows the seed")
                .noneMatch(
                        value -> value != null && value.toString().toLowerCase().contains(seed));
        assertThat(row.get("seed")).isNull();
        assertThat((String) row.get("sealed_seed")).startsWith("wr-kek-v1.");
        assertThat(row.get("commitment")).isEqualTo(sha256Hex(seed));
    }

    @Test
    void theRevealPublishesTheSeedTheCommitmentWasMadeOf() {
        EventId id = scheduled("reveal");
        this.scenario.join(id.value(), 3);
        String commitment = (String) row(id).get("commitment");
        assertThat(this.management.get(id).revealedSeed()).isNull();
        assertThat(this.scenario.queue.lastState(id.value()).seed()).isNull();

        Event opened = this.management.open(id, "ops", "doors open");

        assertThat(opened.revealedSeed()).isNotNull();
        assertThat(sha256Hex(opened.revealedSeed()))
                .as("anyone can check the revealed seed against the commitment published at creation")
                .isEqualTo(commitment);
        assertThat(this.scenario.queue.lastState(id.value()).seed()).isEqualTo(opened.revealedSeed());
        assertThat(this.scenario.queue.drawn(id.value())).isTrue();
    }

    @Test
    void aSeedStoredInPlainTextIsSealedAtStartAndStillOpens() {
        EventId id = scheduled("legacy");
        String seed = this.management.get(id).seed();
        // the row as a coordinator from before seeds were sealed wrote it
        this.jdbc
                .sql("update events set seed = :seed, sealed_seed = null where event_id = :id")
                .param("seed", seed)
                .param("id", id.value())
                .update();
        assertThat(this.management.get(id).seed()).isEqualTo(seed);

        this.events.afterPropertiesSet();

        assertThat(row(id).get("seed")).isNull();
        assertThat((String) row(id).get("sealed_seed")).doesNotContain(seed);
        assertThat(this.management.get(id).seed()).isEqualTo(seed);
    }

    @Test
    void aSealedSeedCopiedToAnotherEventsRowDoesNotOpenThere() {
        EventId a = scheduled("copy-a");
        EventId b = scheduled("copy-b");
        String own = (String) row(b).get("sealed_seed");
        this.jdbc
                .sql("update events set sealed_seed = (select sealed_seed from events where event_id = :a) "
                        + "where event_id = :b")
                .param("a", a.value())
                .param("b", b.value())
                .update();
        try {
            assertThatThrownBy(() -> this.management.get(b))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("do not decrypt");
        } finally {
            this.jdbc
                    .sql("update events set sealed_seed = :own where event_id = :b")
                    .param("own", own)
                    .param("b", b.value())
                    .update();
        }
        assertThat(this.management.get(b).seed())
                .isNotEqualTo(this.management.get(a).seed());
    }

    private EventId scheduled(String prefix) {
        EventId id = EventId.of(Scenario.eventId(prefix));
        this.management.create(
                id,
                new EventConfig(
                        "Sealed seed",
                        Instant.now().plus(Duration.ofDays(1)),
                        10,
                        100,
                        10,
                        Duration.ofMinutes(10),
                        Duration.ofMinutes(10),
                        Duration.ofMinutes(20),
                        PresaleOrdering.RANDOM,
                        IdentityScope.BROWSER,
                        ExpiredOfferPolicy.REQUEUE_ONCE,
                        AfterPurchase.RELEASE,
                        0,
                        0),
                "test");
        return id;
    }

    private Map<String, Object> row(EventId id) {
        return this.jdbc
                .sql("select * from events where event_id = :id")
                .param("id", id.value())
                .query()
                .singleRow();
    }

    private static String sha256Hex(String seedHex) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(HexFormat.of().parseHex(seedHex)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
