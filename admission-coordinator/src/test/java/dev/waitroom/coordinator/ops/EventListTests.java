package dev.waitroom.coordinator.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Issue 30, item 5, over real HTTP and PostgreSQL: {@code GET /admin/events} lists a compact summary per event,
 * filtered by lifecycle state, phase, mode, id or name prefix and opening time, archived events only when asked, one
 * page at a time by an opaque keyset cursor that neither repeats nor skips an event while others are created; every bad
 * filter is a 400 problem naming it.
 */
@CoordinatorTest
class EventListTests {

    @Autowired
    Scenario scenario;

    private String create(String id, String name, String opensAt, boolean draft) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("eventId", id);
        body.put("name", name);
        body.put("opensAt", opensAt);
        body.put("maxActiveSessions", 4);
        body.put("maxAdmissionsPerSecond", 10);
        body.put("draft", draft);
        Http.Response created = this.scenario.ops().post("/admin/events", Http.json(body));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return id;
    }

    private Http.Response list(String query) {
        return this.scenario.ops().get("/admin/events" + (query.isEmpty() ? "" : "?" + query));
    }

    private List<String> ids(String query) {
        Http.Response answer = list(query);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        answer.json().path("events").forEach(e -> ids.add(e.path("eventId").asString()));
        return ids;
    }

    private Http.Response action(String id, String action) {
        return this.scenario.ops().post("/admin/events/" + id + "/" + action, Http.json(Map.of("reason", "list test")));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void filtersSelectByStatePhaseModePrefixAndOpeningTimeAndHideArchivedEvents() {
        String p = Scenario.eventId("lst").replace("-", "");
        String draft = create(p + "-a-draft", "Alpha Tour", "2027-01-10T10:00:00Z", true);
        String live = create(p + "-b-live", "Beta Night", "2027-02-10T10:00:00Z", false);
        String open = create(p + "-c-open", "Gamma " + p, null, false);
        String paused = create(p + "-d-paused", "Delta", "2027-03-10T10:00:00Z", false);
        String archived = create(p + "-e-archived", "Epsilon", "2027-01-20T10:00:00Z", false);
        assertThat(action(open, "open").status()).isEqualTo(200);
        assertThat(action(paused, "pause").status()).isEqualTo(200);
        assertThat(action(archived, "archive").status()).isEqualTo(200);

        assertThat(ids("prefix=" + p)).containsExactly(draft, live, open, paused);
        assertThat(ids("prefix=" + p + "&archived=true")).containsExactly(archived);
        assertThat(ids("prefix=" + p + "&archived=any")).containsExactly(draft, live, open, paused, archived);
        assertThat(ids("prefix=" + p + "&state=ARCHIVED")).containsExactly(archived);
        assertThat(ids("prefix=" + p + "&state=DRAFT")).containsExactly(draft);
        assertThat(ids("prefix=" + p + "&state=PUBLISHED")).containsExactly(live, open, paused);
        assertThat(ids("prefix=" + p + "&phase=OPEN")).containsExactly(open);
        assertThat(ids("prefix=" + p + "&phase=SCHEDULED&mode=QUEUEING")).containsExactly(draft, live);
        assertThat(ids("prefix=" + p + "&mode=PAUSED")).containsExactly(paused);
        assertThat(ids("prefix=" + enc("gamma " + p)))
                .as("a name prefix, any case")
                .containsExactly(open);
        assertThat(ids("prefix=" + p + "&opensFrom=" + enc("2027-01-15T00:00:00Z") + "&opensBefore="
                        + enc("2027-03-10T10:00:00Z") + "&archived=any"))
                .as("from inclusive, before exclusive, no opening time excluded")
                .containsExactly(live, archived);
        assertThat(ids("prefix=" + enc(p.substring(0, 3) + "_%")))
                .as("wildcards are literal")
                .isEmpty();

        JsonNode summary = list("prefix=" + p + "-a").json().path("events").get(0);
        assertThat(summary.path("eventId").asString()).isEqualTo(draft);
        assertThat(summary.path("name").asString()).isEqualTo("Alpha Tour");
        assertThat(summary.path("state").asString()).isEqualTo("DRAFT");
        assertThat(summary.path("phase").asString()).isEqualTo("SCHEDULED");
        assertThat(summary.path("mode").asString()).isEqualTo("QUEUEING");
        assertThat(summary.path("opensAt").asString()).isEqualTo("2027-01-10T10:00:00Z");
        assertThat(summary.path("createdAt").isNull()).isFalse();
        assertThat(summary.path("publishedAt").isNull()).isTrue();
        assertThat(summary.has("seed"))
                .as("compact: no seed, no commitment, no live view")
                .isFalse();
        assertThat(summary.has("commitment")).isFalse();
        assertThat(list("prefix=" + p).json().path("nextCursor").isNull()).isTrue();
    }

    @Test
    void pagesFollowTheCursorWithoutRepeatOrGap() {
        String p = Scenario.eventId("pg").replace("-", "");
        List<String> all = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            all.add(create(p + "-" + String.format("%02d", i), "Page " + i, null, false));
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Http.Response page = list("prefix=" + p + "&limit=4" + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            assertThat(page.json().path("events").size()).isLessThanOrEqualTo(4);
            page.json().path("events").forEach(e -> seen.add(e.path("eventId").asString()));
            cursor = page.json().path("nextCursor").isNull()
                    ? null
                    : page.json().path("nextCursor").asString();
            pages++;
        } while (cursor != null);
        assertThat(seen).containsExactlyElementsOf(all);
        assertThat(pages).isEqualTo(3);
        assertThat(list("limit=200").status()).isEqualTo(200);
    }

    @Test
    void pagingIsStableWhileEventsAreCreated() throws Exception {
        String p = Scenario.eventId("cc").replace("-", "");
        List<String> before = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            before.add(create(p + "-m" + String.format("%02d", i), "Before " + i, null, false));
        }
        AtomicBoolean listing = new AtomicBoolean(true);
        CompletableFuture<List<String>> creator = CompletableFuture.supplyAsync(() -> {
            List<String> made = new ArrayList<>();
            int i = 0;
            while (listing.get() && i < 60) {
                // ids sorting before, among and after the ones listed
                String prefix = i % 3 == 0 ? "-a" : i % 3 == 1 ? "-m" : "-z";
                made.add(create(p + prefix + String.format("%02d", i) + "x", "During " + i, null, false));
                i++;
            }
            return made;
        });
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            Http.Response page = list("prefix=" + p + "&limit=3" + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            page.json().path("events").forEach(e -> seen.add(e.path("eventId").asString()));
            cursor = page.json().path("nextCursor").isNull()
                    ? null
                    : page.json().path("nextCursor").asString();
        } while (cursor != null);
        listing.set(false);
        List<String> during = creator.get();

        assertThat(seen).as("no event twice").doesNotHaveDuplicates();
        assertThat(seen).as("every event that existed before the listing").containsAll(before);
        assertThat(seen).as("in id order").isSorted();
        Set<String> known = new HashSet<>(before);
        known.addAll(during);
        assertThat(known).containsAll(seen);
    }

    @Test
    void badFiltersAreProblemsNamingThem() {
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("limit=0", "limit");
        bad.put("limit=201", "limit");
        bad.put("limit=ten", "limit");
        bad.put("cursor=not-a-cursor", "cursor");
        bad.put("cursor=" + java.util.Base64.getUrlEncoder().encodeToString("e1:../x y".getBytes()), "cursor");
        bad.put("phase=LIVE", "phase");
        bad.put("mode=OFF", "mode");
        bad.put("state=DELETED", "state");
        bad.put("archived=maybe", "archived");
        bad.put("state=DRAFT&archived=true", "contradict");
        bad.put("state=ARCHIVED&archived=false", "contradict");
        bad.put("opensFrom=tomorrow", "opensFrom");
        bad.put("opensFrom=2027-02-01T00:00:00Z&opensBefore=2027-01-01T00:00:00Z", "opensFrom");
        bad.put("phse=OPEN", "phse");
        bad.put("phase=OPEN&phase=ENDED", "phase");
        bad.put("prefix=" + enc("a\u0007b"), "prefix");
        bad.put("prefix=" + "x".repeat(201), "prefix");
        bad.forEach((query, named) -> {
            Http.Response answer = list(query);
            assertThat(answer.status()).as(query + ": " + answer.body()).isEqualTo(400);
            assertThat(answer.contentType()).as(query).startsWith("application/problem+json");
            assertThat(answer.json().path("detail").asString()).as(query).contains(named);
        });
    }
}
