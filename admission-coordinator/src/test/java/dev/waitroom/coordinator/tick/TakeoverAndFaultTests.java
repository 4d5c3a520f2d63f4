package dev.waitroom.coordinator.tick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import dev.waitroom.coordinator.admission.Grant;
import dev.waitroom.coordinator.admission.GrantState;
import dev.waitroom.coordinator.admission.Grants;
import dev.waitroom.coordinator.event.AfterPurchase;
import dev.waitroom.coordinator.event.EventId;
import dev.waitroom.coordinator.event.ExpiredOfferPolicy;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.InMemoryQueueDirectory;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.coordinator.web.SecurityProperties;
import dev.waitroom.testsupport.RealStores;
import dev.waitroom.tokens.VisitorId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

@CoordinatorTest
class TakeoverAndFaultTests {

	@LocalServerPort
	int port;

	@Autowired
	ApplicationContext context;

	@Autowired
	AdmissionTicker.Parts parts;

	@Autowired
	CoordinatorProperties properties;

	@Autowired
	SecurityProperties security;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	Grants grants;

	@AfterEach
	void heal() {
		Scenario scenario = new Scenario(this.context);
		scenario.queue.failOffers(false);
		scenario.queue.unavailable(false);
	}

	private AdmissionTicker coordinator(String owner, Scenario scenario) {
		return new AdmissionTicker(this.properties.withInstance(owner, Duration.ofSeconds(5), Duration.ofSeconds(1)),
				this.parts, scenario.clock, System::nanoTime);
	}

	@Test
	void aNewLeaderCountsFromTheGrantsAndTellsTheQueueAgain() {
		Scenario scenario = new Scenario(this.context);
		String eventId = Scenario.eventId("takeover");
		scenario.openEvent(eventId,
				Scenario.config(3, 1000, 10, 30, 60, 120, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE));
		scenario.join(eventId, 10);
		AdmissionTicker first = coordinator("first", scenario);
		AdmissionTicker second = coordinator("second", scenario);
		for (int i = 0; i < 3; i++) {
			scenario.clock.advance(Duration.ofSeconds(1));
			scenario.fullRate();
			first.tick(scenario.management.get(EventId.of(eventId)));
		}
		assertThat(this.grants.count(eventId).offered()).isEqualTo(3);
		assertThat(second.tick(scenario.management.get(EventId.of(eventId)))).as("not the leader").isZero();

		first.resign(); // the first coordinator dies
		for (int i = 0; i < 3; i++) {
			scenario.clock.advance(Duration.ofSeconds(1));
			scenario.fullRate();
			assertThat(second.tick(scenario.management.get(EventId.of(eventId)))).isZero();
		}

		assertThat(second.generation(eventId)).hasValueSatisfying(g -> assertThat(g.value()).isEqualTo(2));
		assertThat(this.grants.count(eventId).live()).isEqualTo(3);
		assertThat(scenario.queue.counts(eventId).offered()).isEqualTo(3);
	}

	@Test
	void offersLostOnTheWayToTheQueueAreRepairedWithoutDoubleGrants() {
		Scenario scenario = new Scenario(this.context);
		String eventId = Scenario.eventId("outbox");
		scenario.openEvent(eventId,
				Scenario.config(4, 1000, 10, 30, 60, 120, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE));
		List<String> visitors = scenario.join(eventId, 8);
		scenario.queue.failOffers(true);

		scenario.tickUntilLive(eventId, 4);
		assertThat(this.grants.count(eventId).offered()).isEqualTo(4);
		assertThat(scenario.queue.counts(eventId).offered()).as("the queue never heard").isZero();
		scenario.tick(eventId, Duration.ofSeconds(1));
		assertThat(this.grants.count(eventId).offered()).as("no second wave while the queue is behind").isEqualTo(4);

		scenario.queue.failOffers(false);
		scenario.tick(eventId, Duration.ofSeconds(1));

		assertThat(scenario.queue.counts(eventId).offered()).isEqualTo(4);
		long unsynced = this.jdbc
			.sql("select count(*) from grants where event_id = :e and queue_synced_state is distinct from state")
			.param("e", eventId).query(Long.class).single();
		assertThat(unsynced).isZero();
		for (String visitor : visitors.subList(0, 4)) {
			Grant grant = this.grants.findLive(eventId, new VisitorId(visitor)).orElseThrow();
			assertThat(scenario.queue.entry(eventId, visitor).state()).isEqualTo(InMemoryQueueDirectory.State.OFFERED);
			assertThat(grant.queueSyncedState()).isEqualTo(GrantState.OFFERED);
		}
	}

	@Test
	void anOfferToAVisitorWhoLeftTheQueueMeanwhileIsWithdrawn() {
		Scenario scenario = new Scenario(this.context);
		String eventId = Scenario.eventId("withdraw");
		scenario.openEvent(eventId,
				Scenario.config(2, 1000, 10, 30, 60, 120, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE));
		List<String> visitors = scenario.join(eventId, 4);
		scenario.queue.failOffers(true);
		scenario.tickUntilLive(eventId, 2);
		scenario.queue.leave(eventId, visitors.get(0)); // left between the candidates call and the offer
		scenario.queue.failOffers(false);

		scenario.tick(eventId, Duration.ofSeconds(1));

		assertThat(this.grants.findLive(eventId, new VisitorId(visitors.get(0)))).isEmpty();
		assertThat(scenario.grants.releasedByReason(eventId)).containsEntry("WITHDRAWN", 1L);
		scenario.tickUntilLive(eventId, 2);
		assertThat(this.grants.findLive(eventId, new VisitorId(visitors.get(2)))).isPresent();
		assertThat(scenario.queue.counts(eventId).offered()).isEqualTo(2);
	}

	@Test
	void theDrawWaitsForTheQueueAndTheSeedStaysSecretUntilItRan() {
		Scenario scenario = new Scenario(this.context);
		String eventId = Scenario.eventId("draw");
		scenario.management.create(EventId.of(eventId),
				Scenario.config(2, 1000, 10, 30, 60, 120, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE), "test");
		scenario.join(eventId, 3);
		scenario.queue.unavailable(true);

		var opened = scenario.management.open(EventId.of(eventId), "test", "doors open");
		assertThat(opened.phase().name()).isEqualTo("OPEN");
		assertThat(opened.revealedSeed()).isNull();
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> scenario.tick(eventId, Duration.ofSeconds(1)))
			.isInstanceOf(dev.waitroom.coordinator.queue.QueueUnavailableException.class);
		assertThat(scenario.management.get(EventId.of(eventId)).revealedSeed()).isNull();
		assertThat(this.grants.count(eventId).live()).isZero();

		scenario.queue.unavailable(false);
		scenario.tick(eventId, Duration.ofSeconds(1));
		var drawn = scenario.management.get(EventId.of(eventId));
		assertThat(drawn.revealedSeed()).isNotNull();
		assertThat(scenario.queue.drawn(eventId)).isTrue();
		assertThat(scenario.queue.lastState(eventId).seed()).isEqualTo(drawn.revealedSeed());
		assertThat(scenario.tickUntilLive(eventId, 2).live()).isEqualTo(2);
	}

	@Test
	void withRedisDownNoNewAdmissionIsIssuedAndItResumesAfterwards() {
		Scenario scenario = new Scenario(this.context);
		String eventId = Scenario.eventId("redis-down");
		scenario.openEvent(eventId,
				Scenario.config(4, 1000, 10, 30, 60, 120, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE));
		List<String> visitors = scenario.join(eventId, 6);
		scenario.tickUntilLive(eventId, 2);
		long offeredBefore = this.grants.count(eventId).offered();
		Http http = new Http(this.port).header("X-Waitroom-Internal", this.security.internalToken());
		String claimPath = "/events/" + eventId + "/admission/claim";

		RealStores.stopRedis();
		try {
			Http.Response claim = http.post(claimPath, null, "X-Waitroom-Visitor", visitors.get(0));
			assertThat(claim.status()).isEqualTo(503);
			assertThat(claim.problemType()).endsWith("/admission-unavailable");
			assertThat(claim.body()).doesNotContain("\"token\"");
			for (int i = 0; i < 3; i++) {
				scenario.tick(eventId, Duration.ofSeconds(1));
			}
			assertThat(this.grants.count(eventId).offered() + this.grants.count(eventId).active())
				.as("no new offers while the registry is down").isEqualTo(offeredBefore);
		}
		finally {
			RealStores.startRedis();
		}

		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(
					http.post(claimPath, null, "X-Waitroom-Visitor", visitors.get(0)).status()).isEqualTo(200));
		assertThat(scenario.tickUntilLive(eventId, 4).live()).isEqualTo(4);
	}

}
