package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.tokens.VisitorId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Seeded random sequences of joins, leaves, polls, offers and transitions, checked against a model after every
 * step: one entry per visitor, counters equal to the entries, candidates exactly the waiting entries in order-key
 * order, order keys assigned by the server and never moved by polling. The seed is printed on failure.
 */
@QueueServiceTest
class QueueInvariantTests {

    private final QueueClient client;

    QueueInvariantTests(QueueClient client) {
        this.client = client;
    }

    enum State {
        WAITING,
        OFFERED,
        ACTIVE,
        COMPLETED,
        LEFT,
        EXPIRED
    }

    static final class Entry {
        String receipt;
        State state;
        long key;
        String grant;
        boolean requeued;
    }

    @Test
    void randomActionSequencesKeepTheQueueInvariants() {
        long seed = Long.getLong("queue.invariant.seed", new Random().nextLong());
        for (int run = 0; run < 3; run++) {
            runSequence(seed + run, 250);
        }
    }

    private void runSequence(long seed, int steps) {
        Random random = new Random(seed);
        String event = client.newEvent("invariant", "OPEN");
        List<String> visitors = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            visitors.add(VisitorId.random().value());
        }
        Map<String, Entry> model = new HashMap<>();
        List<Entry> all = new ArrayList<>();
        long[] counter = {0};
        int grants = 0;
        for (int step = 0; step < steps; step++) {
            String v = visitors.get(random.nextInt(visitors.size()));
            Entry e = model.get(v);
            int action = random.nextInt(8);
            String what = "seed " + seed + " step " + step + " action " + action;
            switch (action) {
                case 0, 1 -> {
                    Reply r = client.join(event, v);
                    // no place, or a spent one (left, expired, or completed under the default afterPurchase
                    // RELEASE): a new entry at the back; the old one stays in `all`, counted where it was
                    if (e == null || e.state == State.LEFT || e.state == State.EXPIRED || e.state == State.COMPLETED) {
                        assertThat(r.status()).as(what).isEqualTo(201);
                        Entry n = new Entry();
                        n.receipt = r.receipt();
                        n.state = State.WAITING;
                        n.key = ++counter[0];
                        model.put(v, n);
                        all.add(n);
                    } else {
                        assertThat(r.status()).as(what).isEqualTo(200);
                        assertThat(r.receipt()).as(what).isEqualTo(e.receipt);
                    }
                }
                case 2 -> {
                    Reply r = client.leave(event, v);
                    if (e == null) {
                        assertThat(r.status()).as(what).isEqualTo(404);
                    } else if (e.state == State.WAITING || e.state == State.LEFT) {
                        assertThat(r.status()).as(what).isEqualTo(200);
                        e.state = State.LEFT;
                    } else {
                        assertThat(r.status()).as(what).isEqualTo(409);
                    }
                }
                case 3 -> {
                    int k = 1 + random.nextInt(4);
                    List<JsonNode> next = client.candidates(event, k);
                    List<Entry> expected = model.values().stream()
                            .filter(x -> x.state == State.WAITING)
                            .sorted(Comparator.comparingLong(x -> x.key))
                            .limit(k)
                            .toList();
                    assertThat(next.stream()
                                    .map(c -> c.get("entryId").asString())
                                    .toList())
                            .as(what)
                            .isEqualTo(expected.stream().map(x -> x.receipt).toList());
                    for (Entry x : expected) {
                        x.grant = "g" + (++grants);
                        Reply r = client.internal(
                                "POST",
                                "/internal/events/" + event + "/offers",
                                "{\"offers\":[{\"entryId\":\"" + x.receipt + "\",\"grantId\":\"" + x.grant
                                        + "\",\"expiresAt\":\"2030-01-01T00:00:00Z\"}]}");
                        assertThat(r.json().get("results").get(0).get("state").asString())
                                .as(what)
                                .isEqualTo("OFFERED");
                        x.state = State.OFFERED;
                    }
                }
                case 4, 5 -> {
                    List<Entry> live = model.values().stream()
                            .filter(x -> x.state == State.OFFERED || x.state == State.ACTIVE)
                            .sorted(Comparator.comparing(x -> x.receipt))
                            .toList();
                    if (live.isEmpty()) {
                        break;
                    }
                    Entry x = live.get(random.nextInt(live.size()));
                    String to;
                    if (x.state == State.OFFERED) {
                        to = random.nextBoolean() ? "ACTIVE" : "OFFER_EXPIRED";
                    } else {
                        to = random.nextBoolean() ? "COMPLETED" : "EXPIRED";
                    }
                    Reply r = client.internal(
                            "POST",
                            "/internal/events/" + event + "/entries/" + x.receipt + "/transition",
                            "{\"to\":\"" + to + "\",\"grantId\":\"" + x.grant + "\"}");
                    assertThat(r.status()).as(what + " " + r.body()).isEqualTo(200);
                    if (to.equals("OFFER_EXPIRED")) {
                        if (x.requeued) {
                            x.state = State.EXPIRED;
                        } else {
                            x.state = State.WAITING;
                            x.requeued = true;
                            x.key = ++counter[0];
                        }
                    } else {
                        x.state = State.valueOf(to);
                    }
                    assertThat(r.json().get("state").asString()).as(what).isEqualTo(x.state.name());
                }
                default -> {
                    Reply r = client.status(event, v);
                    assertThat(r.status()).as(what).isEqualTo(e == null ? 404 : 200);
                }
            }
            checkInvariants(client, event, model, all, visitors, random, "seed " + seed + " after step " + step);
        }
    }

    private static void checkInvariants(
            QueueClient client,
            String event,
            Map<String, Entry> model,
            List<Entry> all,
            List<String> visitors,
            Random random,
            String where) {
        JsonNode counts = client.counts(event);
        assertThat(counts.get("joins").asLong()).as(where + " joins").isEqualTo(all.size());
        for (State s :
                List.of(State.WAITING, State.OFFERED, State.ACTIVE, State.COMPLETED, State.LEFT, State.EXPIRED)) {
            long expected = all.stream().filter(x -> x.state == s).count();
            assertThat(counts.get(s.name().toLowerCase()).asLong())
                    .as(where + " count " + s)
                    .isEqualTo(expected);
        }
        List<Entry> waiting = model.values().stream()
                .filter(x -> x.state == State.WAITING)
                .sorted(Comparator.comparingLong(x -> x.key))
                .toList();
        List<JsonNode> candidates = client.candidates(event, 1000);
        assertThat(candidates.stream().map(c -> c.get("entryId").asString()).toList())
                .as(where + " candidates")
                .isEqualTo(waiting.stream().map(x -> x.receipt).toList());
        assertThat(candidates.stream().map(c -> c.get("orderKey").asLong()).toList())
                .as(where + " keys")
                .isEqualTo(waiting.stream().map(x -> x.key).toList());
        String v = visitors.get(random.nextInt(visitors.size()));
        Entry e = model.get(v);
        if (e != null) {
            Reply r = client.status(event, v);
            assertThat(r.json().get("state").asString()).as(where + " state").isEqualTo(e.state.name());
            if (e.state == State.WAITING) {
                assertThat(r.ticket().orderKey()).as(where + " order key").isEqualTo(e.key);
                long ahead = waiting.indexOf(e);
                assertThat(r.json().get("position").get("aheadMin").asLong())
                        .as(where + " ahead")
                        .isEqualTo(ahead);
            } else {
                // only a waiting entry gets a ticket (the edge answers for waiting visitors alone)
                assertThat(r.header(Headers.TICKET)).as(where + " ticket").isNull();
            }
        }
    }
}
