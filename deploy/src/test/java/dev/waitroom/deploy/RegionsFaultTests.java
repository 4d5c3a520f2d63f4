package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #20's fault test on {@code ./waitroom run --regions 2}: a sale with a small ceiling and short offer and
 * session TTLs, a crowd in each region joining, claiming, holding and buying through its own region's gateway; mid-sale
 * region r2's coordinator (its admission gate) is killed with SIGKILL.
 *
 * <p>Held: live grants in the ledger never above the ceiling (sampled every 200 ms), the regions' leased budgets plus
 * central grants never above it either (the ops API, sampled every 500 ms), no seat sold twice, no place lost (every r2
 * visitor waiting after the kill still waits with a position and the same receipt; each region's queue accounts for
 * every join), admissions continue in r1, and r2's budget comes back to 0 within the stated time: frozen once its
 * lease's remaining time and the 10 s grace have passed, then down to its live grants, which end at their deadlines (the
 * last at most a session TTL after the kill, since the dead gate renews nothing), so the later of the two plus 15 s for
 * the ticks that notice. Then r2's coordinator is started again:
 * it is fenced (a new generation) and offers again. The measured times are printed and written to
 * {@code target/regions-fault-report.txt}.
 */
@StackTest
@ExtendWith(SharedStack.class)
@SharedStack.DisturbsIt
class RegionsFaultTests {

    private static final int CEILING = 20;
    private static final int OFFER_TTL_SECONDS = 8;
    private static final int SESSION_TTL_SECONDS = 15;
    private static final int VISITORS_PER_REGION = 60;
    /** The coordinator's wait after a region's lease expired before reconciling it (the lead's core, issue #20). */
    private static final Duration GRACE = Duration.ofSeconds(10);
    /** Reconciliation and the regions view run on the ticks; this covers a few of them on a loaded machine. */
    private static final Duration TICKS = Duration.ofSeconds(15);

    private static LocalStack stack;
    private static DurableState durable;

    /**
     * The shared two-region stack (the crowd pays through booking's payment simulator), last of its classes: the kill
     * and the restart of r2's coordinator leave it whole, but its gate's history with them.
     */
    @BeforeAll
    static void useTheSharedStack(@SharedStack.TwoRegionStack LocalStack shared) {
        stack = shared;
        durable = new DurableState(stack);
    }

    @Test
    void killingARegionsGateMidSaleOvershootsNothingLosesNoPlaceAndItsBudgetComesBack() throws Exception {
        String e = "regions-fault-" + UUID.randomUUID().toString().substring(0, 8);
        createSale(e);
        Map<String, Object> figures = new LinkedHashMap<>();
        try (Crowd crowd1 = new Crowd(stack.gatewayUrl(TwoRegions.R1), e, 0.5);
                Crowd crowd2 = new Crowd(stack.gatewayUrl(TwoRegions.R2), e, 0.5);
                LiveGrantSampler grants = new LiveGrantSampler(durable, e, CEILING);
                BudgetSampler budgets = new BudgetSampler(e)) {
            crowd1.join(VISITORS_PER_REGION);
            crowd2.join(VISITORS_PER_REGION);
            crowd1.start();
            crowd2.start();

            // Both regions admit: each holds a budget and r2's visitors have claimed offers.
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertThat(slots(budgets.last(), TwoRegions.R2) > 0
                                    && slots(budgets.last(), TwoRegions.R1) > 0
                                    && crowd2.counters().getOrDefault("claim.200", 0L) >= 3
                                    && crowd1.counters().getOrDefault("claim.200", 0L) >= 3)
                            .as(
                                    "budgets %s, r1 crowd %s, r2 crowd %s",
                                    budgets.last(), crowd1.counters(), crowd2.counters())
                            .isTrue());
            Map<String, String> beforeKill = TwoRegions.budget(budgets.last(), TwoRegions.R2);
            long oldGeneration = Long.parseLong(beforeKill.get("generation"));
            Instant leaseExpires = Instant.parse(beforeKill.get("expiresAt"));
            long claims1AtKill = crowd1.counters().getOrDefault("claim.200", 0L);

            Instant killedAt = Instant.now();
            stack.signal(TwoRegions.COORDINATOR_R2, "KILL");
            figures.put("r2 budget at the kill", beforeKill);
            figures.put("r2 crowd at the kill", crowd2.counters());
            // Timed in the background from the kill, while this thread checks the r2 visitors.
            Milestones outage = new Milestones(killedAt);
            outage.watch("r1 offers", () -> TwoRegions.grantsOfRegion(stack, e, TwoRegions.R1, null, killedAt) > 0);
            outage.watch("r1 claims", () -> crowd1.counters().getOrDefault("claim.200", 0L) > claims1AtKill);
            outage.watch(
                    "r2 frozen",
                    () -> "true"
                            .equals(TwoRegions.budget(budgets.last(), TwoRegions.R2)
                                    .get("frozen")));
            outage.watch(
                    "r2 slots at its live grants",
                    () -> slots(budgets.last(), TwoRegions.R2) <= used(budgets.last(), TwoRegions.R2)
                            && "true"
                                    .equals(TwoRegions.budget(budgets.last(), TwoRegions.R2)
                                            .get("frozen")));
            outage.watch(
                    "r2 budget 0",
                    () -> slots(budgets.last(), TwoRegions.R2) == 0 && used(budgets.last(), TwoRegions.R2) == 0);

            // The r2 visitors waiting once nobody can offer in r2 any more: each must keep its place.
            Map<Crowd.Visitor, String> waiting = waitingWithAPosition(crowd2);
            Map<String, Long> r2CountsAfterKill = TwoRegions.queueCounts(stack, TwoRegions.R2, e);
            figures.put("what a waiting r2 visitor sees during the outage", outageStatus(crowd2, waiting));
            // once r2's gate has been silent for the queue's gate-silence (15 s), its visitors are told admission is
            // paused there (no estimate, the place kept), through the edge snapshot
            Crowd.Visitor sample = waiting.keySet().iterator().next();
            outage.watch("r2 visitors shown paused", () -> {
                HttpResponse<String> s = crowd2.statusAsJoined(sample);
                return s.statusCode() == 200 && "PAUSED".equals(Crowd.text(s.body(), "mode"));
            });
            figures.put("what an offered r2 visitor's claim gets during the outage", outageClaim(crowd2, e));

            // Frozen at the lease's expiry plus the grace; its live grants then end at their deadlines, the last one
            // at most a session TTL after the kill (the dead gate renews nothing); the ticks notice.
            Duration stated = max(
                            Duration.between(killedAt, leaseExpires).plus(GRACE),
                            Duration.ofSeconds(SESSION_TTL_SECONDS))
                    .plus(TICKS);
            outage.awaitAll(stated.plusSeconds(60));
            long admissionsContinuedMs = Math.max(outage.millis("r1 offers"), outage.millis("r1 claims"));
            long frozenSeenMs = outage.millis("r2 frozen");
            long reconciledMs = outage.millis("r2 slots at its live grants");
            long budgetBackMs = outage.millis("r2 budget 0");
            long shownPausedMs = outage.millis("r2 visitors shown paused");
            figures.put("r2 visitors shown paused after (ms)", shownPausedMs);
            figures.put("what a waiting r2 visitor sees once its gate is silent", outageStatus(crowd2, waiting));
            outage.close();
            figures.put("r2 budget once back", TwoRegions.budget(budgets.last(), TwoRegions.R2));
            long claims1AfterBudgetBack = crowd1.counters().getOrDefault("claim.200", 0L);

            // Every r2 visitor who waited still waits, with a position and the receipt it joined with.
            Map<Crowd.Visitor, String> stillWaiting = waitingWithAPosition(crowd2, waiting.keySet());
            Map<String, Long> r2CountsBeforeRestart = TwoRegions.queueCounts(stack, TwoRegions.R2, e);

            // r2's gate comes back: a new generation, a budget, offers to r2's visitors again.
            long claims2AtRestart = crowd2.counters().getOrDefault("claim.200", 0L);
            figures.put("r2 crowd at the restart", crowd2.counters());
            Instant restartedAt = Instant.now();
            Milestones restart = new Milestones(restartedAt);
            restart.watch("fenced", () -> {
                Map<String, String> row = TwoRegions.budget(budgets.last(), TwoRegions.R2);
                return !row.isEmpty()
                        && Long.parseLong(row.getOrDefault("generation", "0")) > oldGeneration
                        && "true".equals(row.get("leaseLive"));
            });
            restart.watch("offers", () -> TwoRegions.grantsOfRegion(stack, e, TwoRegions.R2, null, restartedAt) > 0);
            restart.watch("claims", () -> crowd2.counters().getOrDefault("claim.200", 0L) > claims2AtRestart);
            stack.restart(TwoRegions.COORDINATOR_R2);
            long restartedMs = Duration.between(restartedAt, Instant.now()).toMillis();
            restart.awaitAll(Duration.ofSeconds(90));
            restart.close();
            long fencedMs = restart.millis("fenced");
            long offersAgainMs = restart.millis("offers");
            long claimsAgainMs = restart.millis("claims");
            Map<String, String> afterRestart = TwoRegions.budget(budgets.last(), TwoRegions.R2);
            long staleWrites =
                    TwoRegions.grantsOfRegion(stack, e, TwoRegions.R2, oldGeneration, killedAt.plusSeconds(1));
            long r1OffersWhileR2Down = TwoRegions.grantsOfRegion(stack, e, TwoRegions.R1, null, killedAt)
                    - TwoRegions.grantsOfRegion(stack, e, TwoRegions.R1, null, restartedAt);

            crowd1.close();
            crowd2.close();
            grants.close();
            budgets.close();
            Map<String, Long> r1Counts = TwoRegions.queueCounts(stack, TwoRegions.R1, e);
            Map<String, Long> r2Counts = TwoRegions.queueCounts(stack, TwoRegions.R2, e);

            figures.put(
                    "ceiling / offer TTL / session TTL (s)",
                    CEILING + " / " + OFFER_TTL_SECONDS + " / " + SESSION_TTL_SECONDS);
            figures.put("visitors per region", VISITORS_PER_REGION);
            figures.put(
                    "r2 lease remaining at the kill (ms)",
                    Duration.between(killedAt, leaseExpires).toMillis());
            figures.put("r1 offers again after the kill (ms)", admissionsContinuedMs);
            figures.put("r2 budget seen frozen after (ms)", frozenSeenMs);
            figures.put("r2 budget reconciled to its live grants after (ms)", reconciledMs);
            figures.put("r2 budget back to 0 after (ms)", budgetBackMs);
            figures.put("stated bound for it (ms)", stated.toMillis());
            figures.put(
                    "r1 claims at the kill / when r2's budget was back",
                    claims1AtKill + " / " + claims1AfterBudgetBack);
            figures.put("r2 coordinator healthy again after (ms)", restartedMs);
            figures.put("r2 fenced (new generation, live lease) after restart (ms)", fencedMs);
            figures.put("r2 offers again after restart (ms)", offersAgainMs);
            figures.put("r2 visitors claim again after restart (ms)", claimsAgainMs);
            figures.put("r1 offers between the kill and the restart", r1OffersWhileR2Down);
            figures.put("r2 generation before / after", oldGeneration + " / " + afterRestart.get("generation"));
            figures.put("grants written by the old generation after the kill", staleWrites);
            figures.put(
                    "max live grants sampled / ceiling",
                    grants.max.get() + " / " + CEILING + " (" + grants.samples.get() + " samples)");
            figures.put(
                    "max held (central + each region's max(slots, used)) / ceiling",
                    budgets.maxLeased.get() + " / " + CEILING + " (" + budgets.samples.get() + " samples)");
            figures.put(
                    "r2 visitors waiting after the kill / still waiting with the same receipt",
                    waiting.size() + " / " + stillWaiting.size());
            figures.put(
                    "r2 queue after the kill / before the restart / at the end",
                    r2CountsAfterKill + " / " + r2CountsBeforeRestart + " / " + r2Counts);
            figures.put("r1 queue at the end", r1Counts);
            figures.put("paid orders", durable.paidOrders(e));
            figures.put("seats sold twice", durable.seatsSoldTwice(e));
            figures.put("r1 crowd", crowd1.counters());
            figures.put("r2 crowd", crowd2.counters());
            report(figures);

            assertThat(grants.samples.get()).isPositive();
            assertThat(grants.max.get()).as("live grants in the ledger").isLessThanOrEqualTo(CEILING);
            assertThat(budgets.samples.get()).isPositive();
            assertThat(budgets.maxLeased.get())
                    .as("central grants plus each region's slots or live grants")
                    .isLessThanOrEqualTo(CEILING);
            assertThat(durable.seatsSoldTwice(e)).isZero();
            assertThat(durable.visitorsWithTwoLiveGrants(e)).isZero();
            assertThat(durable.grantsInLimbo(e)).isZero();
            assertThat(durable.liveGrants(e)).isLessThanOrEqualTo(CEILING);
            assertThat(waiting).as("r2 visitors waiting after the kill").isNotEmpty();
            assertThat(stillWaiting).as("every one of them keeps its place").isEqualTo(waiting);
            for (Map<String, Long> counts : List.of(r1Counts, r2Counts, r2CountsAfterKill, r2CountsBeforeRestart)) {
                assertThat(places(counts))
                        .as("every join accounted for: " + counts)
                        .isEqualTo(counts.get("joins"));
            }
            assertThat(r1Counts.get("joins")).isEqualTo(VISITORS_PER_REGION);
            assertThat(r2Counts.get("joins")).isEqualTo(VISITORS_PER_REGION);
            assertThat(crowd1.visitors()).allSatisfy(v -> assertThat(v.receipt).isNotNull());
            assertThat(crowd2.visitors()).allSatisfy(v -> assertThat(v.receipt).isNotNull());
            assertThat(budgetBackMs)
                    .as("r2's budget back to 0 within the stated time")
                    .isLessThanOrEqualTo(stated.toMillis());
            assertThat(Long.parseLong(afterRestart.get("generation"))).isGreaterThan(oldGeneration);
            assertThat(staleWrites)
                    .as("grants by r2's old generation after the kill")
                    .isZero();
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    private static void createSale(String e) throws Exception {
        String event = """
                {"eventId":"%s","name":"Regions fault test","opensAt":null,"maxActiveSessions":%d,
                 "maxAdmissionsPerSecond":4,"offerTtlSeconds":%d,"sessionTtlSeconds":%d,"sessionMaxSeconds":60,
                 "presaleOrdering":"RANDOM","identityScope":"BROWSER","expiredOfferPolicy":"REQUEUE_ONCE",
                 "afterPurchase":"RELEASE"}""".formatted(e, CEILING, OFFER_TTL_SECONDS, SESSION_TTL_SECONDS);
        HttpResponse<String> created = TwoRegions.ops(stack, TwoRegions.R1, "POST", "/admin/events", event);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        HttpResponse<String> inventory = TwoRegions.ops(
                stack,
                TwoRegions.R1,
                "PUT",
                "/admin/events/" + e + "/inventory",
                "{\"categories\":[{\"name\":\"Floor\",\"seats\":300,\"priceCents\":5000}]}");
        assertThat(inventory.statusCode() / 100).as(inventory.body()).isEqualTo(2);
        // r2's queue learns of the event from r2's own coordinator
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> TwoRegions.ops(stack, TwoRegions.R2, "GET", "/events/" + e + "/status", null)
                                .statusCode()
                        == 200);
    }

    /** The crowd's visitors who have not claimed, asked as they joined: those WAITING with a position, by receipt. */
    private static Map<Crowd.Visitor, String> waitingWithAPosition(Crowd crowd) {
        return waitingWithAPosition(
                crowd, crowd.visitors().stream().filter(v -> v.token == null).toList());
    }

    private static Map<Crowd.Visitor, String> waitingWithAPosition(
            Crowd crowd, java.util.Collection<Crowd.Visitor> visitors) {
        Map<Crowd.Visitor, String> waiting = new LinkedHashMap<>();
        for (Crowd.Visitor v : visitors) {
            // within the status limit (2 a second, which the crowd's own polls share)
            HttpResponse<String> status = await().atMost(Duration.ofSeconds(15))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(700))
                    .until(() -> crowd.statusAsJoined(v), r -> r.statusCode() == 200);
            if ("WAITING".equals(Crowd.text(status.body(), "state"))
                    && status.body().contains("\"aheadMin\"")) {
                waiting.put(v, Crowd.text(status.body(), "receipt"));
            }
        }
        return waiting;
    }

    private static long places(Map<String, Long> counts) {
        return List.of("waiting", "offered", "active", "completed", "left", "expired").stream()
                .mapToLong(s -> counts.getOrDefault(s, 0L))
                .sum();
    }

    private static long slots(String view, String region) {
        return Long.parseLong(TwoRegions.budget(view, region).getOrDefault("slots", "-1"));
    }

    private static long used(String view, String region) {
        return Long.parseLong(TwoRegions.budget(view, region).getOrDefault("used", "-1"));
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** A waiting r2 visitor's status during the outage: its state, mode, position and estimate, as the page gets. */
    private static String outageStatus(Crowd crowd, Map<Crowd.Visitor, String> waiting) {
        Crowd.Visitor v = waiting.keySet().iterator().next();
        HttpResponse<String> status = await().atMost(Duration.ofSeconds(15))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(700))
                .until(() -> crowd.statusAsJoined(v), r -> r.statusCode() == 200);
        return status.statusCode() + " " + status.body().replaceAll("\"receipt\":\"[^\"]*\"", "\"receipt\":\"…\"");
    }

    /** A claim by an r2 visitor holding an offer made before the kill: the answer the page gets (and retries on). */
    private static String outageClaim(Crowd crowd, String e) {
        return crowd.visitors().stream()
                .filter(v -> v.token == null && "OFFERED".equals(v.state))
                .findFirst()
                .map(v -> {
                    HttpResponse<String> claim = crowd.send(v, "POST", "/events/" + e + "/admission/claim", "{}");
                    return claim.statusCode() + " " + Crowd.text(claim.body(), "type") + " Retry-After: "
                            + claim.headers().firstValue("Retry-After").orElse("-");
                })
                .orElse("no r2 visitor held an offer at the kill");
    }

    /**
     * Conditions checked every 200 ms in the background, each timed from {@code since} to the first check that found
     * it true.
     */
    private static final class Milestones implements AutoCloseable {

        private final Instant since;
        private final Map<String, java.util.concurrent.Callable<Boolean>> conditions =
                new java.util.concurrent.ConcurrentHashMap<>();
        private final Map<String, Long> reached = new java.util.concurrent.ConcurrentHashMap<>();
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "milestones");
            thread.setDaemon(true);
            return thread;
        });

        Milestones(Instant since) {
            this.since = since;
            timer.scheduleWithFixedDelay(this::check, 0, 200, TimeUnit.MILLISECONDS);
        }

        void watch(String name, java.util.concurrent.Callable<Boolean> condition) {
            conditions.put(name, condition);
        }

        private void check() {
            conditions.forEach((name, condition) -> {
                if (reached.containsKey(name)) {
                    return;
                }
                try {
                    if (Boolean.TRUE.equals(condition.call())) {
                        reached.put(name, Duration.between(since, Instant.now()).toMillis());
                    }
                } catch (Exception notYet) {
                    // a store or service busy for a moment: the next check counts
                }
            });
        }

        void awaitAll(Duration within) {
            await().atMost(within)
                    .pollInterval(Duration.ofMillis(250))
                    .untilAsserted(() -> assertThat(reached.keySet())
                            .as("milestones reached (ms since %s): %s", since, reached)
                            .containsAll(conditions.keySet()));
        }

        long millis(String name) {
            return reached.get(name);
        }

        @Override
        public void close() throws InterruptedException {
            timer.shutdownNow();
            timer.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private static void report(Map<String, Object> figures) throws IOException {
        StringBuilder text = new StringBuilder("Waitroom regions fault test (kill -9 of r2's coordinator mid-sale)\n");
        figures.forEach((k, v) -> text.append(String.format("  %-58s %s%n", k, v)));
        System.out.println(text);
        Path out = Path.of("target", "regions-fault-report.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, text);
    }

    /**
     * Reads {@code GET /admin/events/{e}/regions} through r1's gateway every 500 ms: keeps the last answer and the
     * largest sum of leased slots and central grants seen.
     */
    private static final class BudgetSampler implements AutoCloseable {

        final AtomicLong maxLeased = new AtomicLong();
        final AtomicLong samples = new AtomicLong();
        private final AtomicReference<String> last = new AtomicReference<>("");
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "budget-sampler");
            thread.setDaemon(true);
            return thread;
        });

        BudgetSampler(String eventId) {
            timer.scheduleAtFixedRate(
                    () -> {
                        try {
                            HttpResponse<String> view = TwoRegions.ops(
                                    stack, TwoRegions.R1, "GET", "/admin/events/" + eventId + "/regions", null);
                            if (view.statusCode() != 200) {
                                return;
                            }
                            last.set(view.body());
                            long leased = Math.max(0, TwoRegions.topLevel(view.body(), "centralLive"));
                            // the ledger's invariant: each region holds its slots, or its live grants if more
                            for (String region : List.of(TwoRegions.R1, TwoRegions.R2)) {
                                leased += Math.max(0, Math.max(slots(view.body(), region), used(view.body(), region)));
                            }
                            maxLeased.accumulateAndGet(leased, Math::max);
                            samples.incrementAndGet();
                        } catch (Exception notNow) {
                            // a gateway or coordinator busy for a moment: the next sample counts
                        }
                    },
                    0,
                    500,
                    TimeUnit.MILLISECONDS);
        }

        String last() {
            return last.get();
        }

        @Override
        public void close() throws InterruptedException {
            timer.shutdownNow();
            timer.awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
