package dev.waitroom.coordinator.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.contract.page.PageDesign;
import dev.waitroom.contract.page.PageVersions;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * The seller's page through the coordinator's ops API over real HTTP, PostgreSQL and Redis
 * (docs/operating/the-sellers-page.md): a design is stored under the next version, audited and published to Redis;
 * every unsafe or malformed part is refused with its own problem type and leaves the stored page as it was; concurrent
 * PUTs get distinct versions and the last one stays.
 */
@CoordinatorTest
class SellerPageTests {

    static final String GOOD_TEMPLATE = """
            <header class="top"><p><img src="https://cdn.example.com/t.png" alt="">{{brandName}}</p></header>
            {{> waitroom}}
            {{#logoUrl}}<p>{{logoAlt}}</p>{{/logoUrl}}{{^logoUrl}}<p>no logo</p>{{/logoUrl}}
            <footer><p><a href="https://tickets.example.com/help" rel="noopener">Help</a></p></footer>
            """;

    @Autowired
    Scenario scenario;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    RedissonClient redisson;

    String eventId;

    Http ops;

    @BeforeEach
    void setUp() {
        this.eventId = Scenario.eventId("page");
        this.ops = this.scenario.ops();
        Http.Response created = this.ops.post(
                "/admin/events",
                Http.json(Map.of(
                        "eventId", this.eventId, "name", "Page", "maxActiveSessions", 4, "maxAdmissionsPerSecond", 5)));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    private String path() {
        return "/admin/events/" + this.eventId + "/page";
    }

    private Http.Response put(Map<String, Object> body) {
        return this.ops.send("PUT", path(), Http.json(body));
    }

    private static Map<String, Object> design(String template) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("brandName", "Tour Co");
        body.put("logoUrl", "https://cdn.example.com/logo.png");
        body.put("logoAlt", "Tour Co");
        body.put("colours", Map.of("accent", "#004d40", "bg", "#fffdf7"));
        body.put("texts", Map.of("en", Map.of("page.lead", "Tour Co's queue: keep this page open."), "de", Map.of()));
        body.put("template", template);
        body.put("reason", "brand for the tour");
        return body;
    }

    private long storedVersion() {
        return this.jdbc
                .sql("select coalesce((select version from event_pages where event_id = :id), 0)")
                .param("id", this.eventId)
                .query(Long.class)
                .single();
    }

    @Test
    void aDesignIsStoredVersionedAuditedAndPublished() {
        Http.Response first = put(design(GOOD_TEMPLATE));
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.json().get("version").asLong()).isEqualTo(1);
        assertThat(first.json().get("imageHosts").toString()).isEqualTo("[\"cdn.example.com\"]");
        assertThat(first.json().get("colours").get("accent").asString()).isEqualTo("#004d40");

        Map<String, Object> second = design(null);
        second.put("brandName", "Tour Co Live");
        Http.Response again = put(second);
        assertThat(again.json().get("version").asLong()).isEqualTo(2);
        assertThat(again.json().get("template").isNull()).isTrue();

        Http.Response read = this.ops.get(path());
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.header("Cache-Control")).contains("no-store");
        assertThat(read.json().get("brandName").asString()).isEqualTo("Tour Co Live");

        assertThat(this.jdbc
                        .sql("select from_value || ' > ' || to_value || ' ' || reason from mode_changes"
                                + " where event_id = :id and to_value like 'page%' order by id")
                        .param("id", this.eventId)
                        .query(String.class)
                        .list())
                .containsExactly("page none > page v1 brand for the tour", "page v1 > page v2 brand for the tour");

        String index = this.redisson
                .<String>getBucket(RedisKeys.PAGES, StringCodec.INSTANCE)
                .get();
        assertThat(PageVersions.decode(index).versions()).containsEntry(EventId.of(this.eventId), 2L);
        PageDesign published = JsonMapper.builder()
                .build()
                .readValue(
                        this.redisson
                                .<String>getBucket(RedisKeys.page(EventId.of(this.eventId)), StringCodec.INSTANCE)
                                .get(),
                        PageDesign.class);
        assertThat(published.brandName()).isEqualTo("Tour Co Live");
        assertThat(published.texts().get("en")).containsEntry("page.lead", "Tour Co's queue: keep this page open.");
    }

    @Test
    void unsafeOrMalformedDesignsAreRefusedWithTheirProblemAndChangeNothing() {
        assertThat(put(design(GOOD_TEMPLATE)).status()).isEqualTo(200);
        List<String[]> cases = List.of(
                new String[] {"<script>alert(1)</script>{{> waitroom}}", "page-markup-refused", "<script>"},
                new String[] {"<p onclick=\"alert(1)\">x</p>{{> waitroom}}", "page-markup-refused", "onclick"},
                new String[] {"<img src=x onerror=alert(1)>{{> waitroom}}", "page-markup-refused", "onerror"},
                new String[] {
                    "<a href=\"javascript:alert(1)\">x</a>{{> waitroom}}", "page-markup-refused", "javascript:"
                },
                new String[] {
                    "<a href=\" jav&#x09;ascript:alert(1)\">x</a>{{> waitroom}}", "page-markup-refused", "javascript:"
                },
                new String[] {
                    "<style>body{background:url(https://evil.example/x)}</style>{{> waitroom}}",
                    "page-markup-refused",
                    "<style>"
                },
                new String[] {"<p style=\"color:red\">x</p>{{> waitroom}}", "page-markup-refused", "style"},
                new String[] {
                    "<iframe src=\"https://evil.example\"></iframe>{{> waitroom}}", "page-markup-refused", "<iframe>"
                },
                new String[] {
                    "<img src=\"https://evil.example/x.png\" alt=\"\">{{> waitroom}}",
                    "page-image-host-refused",
                    "evil.example"
                },
                new String[] {
                    "<img src=\"http://cdn.example.com/x.png\" alt=\"\">{{> waitroom}}",
                    "page-image-host-refused",
                    "https:"
                },
                new String[] {"{{{brandName}}}{{> waitroom}}", "page-markup-refused", "escaped"},
                new String[] {"{{&brandName}}{{> waitroom}}", "page-markup-refused", "escaped"},
                new String[] {"{{=<% %>=}}<%brandName%>{{> waitroom}}", "page-markup-refused", "delimiter"},
                new String[] {"<p>{{secret}}</p>{{> waitroom}}", "page-markup-refused", "{{secret}}"},
                new String[] {"<p>{{> other}}</p>{{> waitroom}}", "page-markup-refused", "other"},
                new String[] {"<p>no part</p>", "page-markup-refused", "exactly once"},
                new String[] {"{{> waitroom}}{{> waitroom}}", "page-markup-refused", "exactly once"},
                new String[] {"{{#brandName}}<p>x</p>{{> waitroom}}", "page-markup-refused", "template"},
                new String[] {
                    "<p>" + "x".repeat(PageRules.MAX_TEMPLATE_BYTES) + "</p>{{> waitroom}}", "page-too-large", "8192"
                });
        for (String[] c : cases) {
            Http.Response refused = put(design(c[0]));
            assertThat(refused.status()).as(c[0] + " -> " + refused.body()).isBetween(400, 499);
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(refused.problemType()).as(c[0]).isEqualTo("https://waitroom.dev/problems/" + c[1]);
            assertThat(refused.json().get("detail").asString()).as(c[0]).contains(c[2]);
        }

        Map<String, Object> foreignLogo = design(null);
        foreignLogo.put("logoUrl", "https://evil.example/logo.png");
        assertProblem(put(foreignLogo), "page-image-host-refused", "evil.example");
        Map<String, Object> dataLogo = design(null);
        dataLogo.put("logoUrl", "data:image/png;base64,AAAA");
        assertProblem(put(dataLogo), "page-image-host-refused", "https:");

        Map<String, Object> unknownKey = design(null);
        unknownKey.put("texts", Map.of("en", Map.of("page.nothing", "x")));
        assertProblem(put(unknownKey), "page-text-refused", "page.nothing");
        Map<String, Object> foreignPlaceholder = design(null);
        foreignPlaceholder.put("texts", Map.of("de", Map.of("page.titleNamed", "Warteraum: {secret}")));
        assertProblem(put(foreignPlaceholder), "page-text-refused", "secret");
        Map<String, Object> badTag = design(null);
        badTag.put("texts", Map.of("not a tag", Map.of("page.lead", "x")));
        assertProblem(put(badTag), "page-text-refused", "language tag");
        Map<String, Object> controlChars = design(null);
        controlChars.put("texts", Map.of("en", Map.of("page.lead", "line\u202Eevil")));
        assertProblem(put(controlChars), "page-text-refused", "page.lead");

        Map<String, Object> badColour = design(null);
        badColour.put("colours", Map.of("accent", "red;}</style><script>"));
        assertProblem(put(badColour), "page-colour-refused", "#rrggbb");
        Map<String, Object> unknownColour = design(null);
        unknownColour.put("colours", Map.of("link", "#000000"));
        assertProblem(put(unknownColour), "page-colour-refused", "link");
        Map<String, Object> unreadable = design(null);
        unreadable.put("colours", Map.of("text", "#cccccc"));
        assertProblem(put(unreadable), "page-colour-refused", "contrast");

        assertThat(storedVersion()).as("no refusal stored anything").isEqualTo(1);
        assertThat(this.ops.get(path()).json().get("template").asString()).isEqualTo(GOOD_TEMPLATE);
    }

    @Test
    void aPageOfAnUnknownEventIsNotFound() {
        assertProblem(
                this.ops.send("PUT", "/admin/events/no-such-event-" + this.eventId + "/page", "{}"),
                "unknown-event",
                "no-such-event");
        assertProblem(this.ops.get("/admin/events/no-such-event-" + this.eventId + "/page"), "unknown-event", "");
    }

    @Test
    void concurrentPutsGetDistinctVersionsAndTheLastStays() throws Exception {
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Long>> results = new ArrayList<>();
        try {
            for (int i = 0; i < writers; i++) {
                Map<String, Object> body = design(null);
                body.put("brandName", "Writer " + i);
                Callable<Long> write = () -> {
                    start.await();
                    Http.Response r = put(body);
                    assertThat(r.status()).as(r.body()).isEqualTo(200);
                    return r.json().get("version").asLong();
                };
                results.add(pool.submit(write));
            }
            start.countDown();
            List<Long> versions = new ArrayList<>();
            for (Future<Long> f : results) {
                versions.add(f.get());
            }
            assertThat(versions).doesNotHaveDuplicates().hasSize(writers);
            assertThat(versions).allMatch(v -> v >= 1 && v <= writers);
        } finally {
            pool.shutdownNow();
        }
        assertThat(storedVersion()).isEqualTo(writers);
        assertThat(this.jdbc
                        .sql("select count(*) from mode_changes where event_id = :id and to_value like 'page v%'")
                        .param("id", this.eventId)
                        .query(Long.class)
                        .single())
                .isEqualTo(writers);
    }

    @Test
    void contrastIsMeasuredAsWcagDoes() {
        assertThat(PageRules.contrast("#000000", "#ffffff")).isCloseTo(21.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(PageRules.contrast("#767676", "#ffffff")).isGreaterThan(4.5);
        assertThat(PageRules.contrast("#777777", "#ffffff")).isLessThan(4.5);
    }

    private static void assertProblem(Http.Response response, String type, String detail) {
        assertThat(response.contentType()).as(response.body()).startsWith("application/problem+json");
        assertThat(response.problemType()).as(response.body()).isEqualTo("https://waitroom.dev/problems/" + type);
        assertThat(response.json().get("detail").asString()).contains(detail);
    }
}
