package dev.waitroom.coordinator.categories;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.coordinator.event.EventStatePublisher;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Booking's seat categories (issue 17, item 5, coordinator side) over real HTTP and PostgreSQL: the sold-out names are
 * stored and pushed at once and with every later push, a report that changes nothing pushes nothing, malformed reports
 * are refused and store nothing, concurrent reports leave one whole report stored and pushed.
 */
@CoordinatorTest
class SeatCategoriesTests {

    @Autowired
    Scenario scenario;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    EventStatePublisher publisher;

    String eventId;

    @BeforeEach
    void setUp() {
        this.eventId = this.scenario.openNewEvent(
                "categories",
                Scenario.config(5, 100, 10, 30, 120, 300, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
    }

    private Http.Response report(String eventId, String body) {
        return this.scenario.http().send("PUT", "/internal/events/" + eventId + "/categories", body);
    }

    private static String body(Map<String, Long> available) {
        List<Map<String, Object>> categories = new ArrayList<>();
        available.forEach((name, seats) -> categories.add(Map.of("name", name, "available", seats)));
        return Http.json(Map.of("categories", categories));
    }

    private static Map<String, Long> seats(Object... nameThenSeats) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenSeats.length; i += 2) {
            m.put((String) nameThenSeats[i], ((Number) nameThenSeats[i + 1]).longValue());
        }
        return m;
    }

    private List<String> stored() {
        return this.jdbc
                .sql("select name from sold_out_categories where event_id = :id order by position")
                .param("id", this.eventId)
                .query(String.class)
                .list();
    }

    /** The ticker's periodic push of the event's state, as it makes it. */
    private void nextPush() {
        this.publisher.publish(this.scenario.management.get(EventId.of(this.eventId)));
    }

    private EventUpdateRequest pushed() {
        return this.scenario.queue.lastState(this.eventId);
    }

    @Test
    void soldOutCategoriesAreStoredAndPushedAtOnceAndWithEveryLaterPush() {
        Http.Response first = report(this.eventId, body(seats("Floor", 0, "Balcony", 12, "Box", 0)));
        assertThat(first.status()).as(first.body()).isEqualTo(204);
        assertThat(stored()).containsExactly("Floor", "Box");
        assertThat(pushed().soldOutCategoriesValue()).containsExactly("Floor", "Box");
        assertThat(pushed().mode())
                .as("a sold-out category is not a sold-out event")
                .isEqualTo("QUEUEING");

        this.scenario.tick(this.eventId, Duration.ofSeconds(1));
        nextPush();
        assertThat(pushed().soldOutCategoriesValue()).containsExactly("Floor", "Box");

        assertThat(report(this.eventId, body(seats("Floor", 3, "Balcony", 12, "Box", 0)))
                        .status())
                .isEqualTo(204);
        assertThat(stored()).containsExactly("Box");
        assertThat(pushed().soldOutCategoriesValue()).containsExactly("Box");

        assertThat(report(this.eventId, body(seats())))
                .extracting(Http.Response::status)
                .isEqualTo(204);
        assertThat(stored()).isEmpty();
        assertThat(pushed().soldOutCategoriesValue()).isEmpty();
    }

    @Test
    void aReportThatChangesNothingPushesNothing() {
        report(this.eventId, body(seats("Floor", 0, "Balcony", 12)));
        EventUpdateRequest before = pushed();

        Http.Response again = report(this.eventId, body(seats("Floor", 0, "Balcony", 7)));

        assertThat(again.status()).isEqualTo(204);
        assertThat(pushed()).isSameAs(before);
    }

    @Test
    void malformedReportsAreRefusedWithAProblemAndStoreNothing() {
        report(this.eventId, body(seats("Floor", 0)));
        EventUpdateRequest before = pushed();
        List<String> manyCategories = IntStream.range(0, 101)
                .mapToObj(i -> "{\"name\":\"C" + i + "\",\"available\":0}")
                .toList();
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("no categories", "{}");
        bad.put("null categories", "{\"categories\":null}");
        bad.put("categories not a list", "{\"categories\":\"Floor\"}");
        bad.put("a null category", "{\"categories\":[null]}");
        bad.put("no name", "{\"categories\":[{\"available\":0}]}");
        bad.put("empty name", "{\"categories\":[{\"name\":\"\",\"available\":0}]}");
        bad.put("markup in a name", "{\"categories\":[{\"name\":\"<b>Floor</b>\",\"available\":0}]}");
        bad.put("a line break in a name", "{\"categories\":[{\"name\":\"Flo\\nor\",\"available\":0}]}");
        bad.put("a bidi override in a name", "{\"categories\":[{\"name\":\"Flo\\u202Eor\",\"available\":0}]}");
        bad.put("a name of 65 characters", "{\"categories\":[{\"name\":\"" + "x".repeat(65) + "\",\"available\":0}]}");
        bad.put("negative seats", "{\"categories\":[{\"name\":\"Floor\",\"available\":-1}]}");
        bad.put("seats in words", "{\"categories\":[{\"name\":\"Floor\",\"available\":\"none\"}]}");
        bad.put(
                "a category twice",
                "{\"categories\":[{\"name\":\"Floor\",\"available\":0},{\"name\":\"Floor\",\"available\":3}]}");
        bad.put("101 categories", "{\"categories\":[" + String.join(",", manyCategories) + "]}");
        bad.put("an array", "[]");
        bad.put("not JSON", "Floor=0");
        bad.put("no body", null);
        bad.forEach((what, text) -> {
            Http.Response refused = report(this.eventId, text);
            assertThat(refused.status()).as(what + ": " + refused.body()).isEqualTo(400);
            assertThat(refused.contentType()).as(what).startsWith("application/problem+json");
            assertThat(refused.problemType()).as(what).isEqualTo("https://waitroom.dev/problems/malformed-request");
        });
        assertThat(stored()).containsExactly("Floor");
        assertThat(pushed()).isSameAs(before);
    }

    @Test
    void anUnknownEventIsNotFoundAndAMalformedIdIsRefused() {
        Http.Response unknown = report(Scenario.eventId("never-created"), body(seats("Floor", 0)));
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(404);
        assertThat(unknown.problemType()).isEqualTo("https://waitroom.dev/problems/unknown-event");

        Http.Response malformed = report("bad%20id", body(seats("Floor", 0)));
        assertThat(malformed.status()).as(malformed.body()).isEqualTo(400);
        assertThat(malformed.contentType()).startsWith("application/problem+json");
    }

    @Test
    void withoutTheInternalCredentialNothingIsStored() {
        Http.Response refused = new Http(this.scenario.port())
                .send("PUT", "/internal/events/" + this.eventId + "/categories", body(seats("Floor", 0)));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.problemType()).isEqualTo("https://waitroom.dev/problems/internal-credential-required");
        assertThat(stored()).isEmpty();
    }

    @Test
    void concurrentReportsLeaveOneWholeReportStoredAndPushed() throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        List<String> names = List.of("Floor", "Balcony", "Box", "Gallery", "Standing", "Circle");
        List<Map<String, Long>> reports = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Map<String, Long> r = new LinkedHashMap<>();
            for (String name : names) {
                r.put(name, random.nextBoolean() ? 0L : 1L + random.nextInt(50));
            }
            reports.add(r);
        }
        Set<List<String>> sent = ConcurrentHashMap.newKeySet();
        reports.forEach(r -> sent.add(r.entrySet().stream()
                .filter(e -> e.getValue() == 0)
                .map(Map.Entry::getKey)
                .toList()));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> answers = new ArrayList<>();
            for (Map<String, Long> r : reports) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return report(this.eventId, body(r)).status();
                }));
            }
            start.countDown();
            for (Future<Integer> answer : answers) {
                assertThat(answer.get()).as("seed " + seed).isEqualTo(204);
            }
        } finally {
            pool.shutdownNow();
        }

        List<String> stored = stored();
        assertThat(sent).as("seed " + seed + ": one whole report is stored").contains(stored);
        assertThat(this.scenario.management.get(EventId.of(this.eventId)).mode().name())
                .isEqualTo("QUEUEING");
        nextPush();
        assertThat(pushed().soldOutCategoriesValue())
                .as("seed " + seed + ": the next push carries what is stored")
                .isEqualTo(stored);
    }
}
