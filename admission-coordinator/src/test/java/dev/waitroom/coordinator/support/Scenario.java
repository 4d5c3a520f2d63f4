package dev.waitroom.coordinator.support;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import dev.waitroom.coordinator.admission.Grants;
import dev.waitroom.coordinator.admission.LiveCounts;
import dev.waitroom.coordinator.event.AfterPurchase;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventConfig;
import dev.waitroom.coordinator.event.EventId;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.event.ExpiredOfferPolicy;
import dev.waitroom.coordinator.event.IdentityScope;
import dev.waitroom.coordinator.event.PresaleOrdering;
import dev.waitroom.coordinator.rate.HealthSample;
import dev.waitroom.coordinator.rate.RateController;
import dev.waitroom.coordinator.tick.AdmissionTicker;
import dev.waitroom.tokens.VisitorId;
import org.springframework.context.ApplicationContext;

/** Drives the real beans the way the scheduler and the queue service would, with the test clock. */
public final class Scenario {

	public final EventManagement management;

	public final InMemoryQueueDirectory queue;

	public final AdmissionTicker ticker;

	public final RateController rates;

	public final MutableClock clock;

	public final Grants grants;

	public Scenario(ApplicationContext context) {
		this.management = context.getBean(EventManagement.class);
		this.queue = context.getBean(InMemoryQueueDirectory.class);
		this.ticker = context.getBean(AdmissionTicker.class);
		this.rates = context.getBean(RateController.class);
		this.clock = context.getBean(MutableClock.class);
		this.grants = context.getBean(Grants.class);
	}

	public static String eventId(String prefix) {
		byte[] b = new byte[5];
		ThreadLocalRandom.current().nextBytes(b);
		return prefix + "-" + HexFormat.of().formatHex(b);
	}

	public static EventConfig config(int ceiling, double rate, int batchMax, int offerTtl, int sessionTtl,
			int sessionMax, ExpiredOfferPolicy policy, AfterPurchase afterPurchase) {
		return new EventConfig("Concert", null, ceiling, rate, batchMax, Duration.ofSeconds(offerTtl),
				Duration.ofSeconds(sessionTtl), Duration.ofSeconds(sessionMax), PresaleOrdering.RANDOM,
				IdentityScope.BROWSER, policy, afterPurchase);
	}

	/** Creates an event and opens it (draw through the queue). */
	public Event openEvent(String id, EventConfig config) {
		EventId eventId = EventId.of(id);
		this.management.create(eventId, config, "test");
		return this.management.open(eventId, "test", "test opens");
	}

	public List<String> join(String eventId, int visitors) {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < visitors; i++) {
			String v = VisitorId.random().value();
			this.queue.join(eventId, v);
			ids.add(v);
		}
		return ids;
	}

	/** A healthy booking report at the current test time. */
	public void healthy() {
		this.rates.record(new HealthSample(this.clock.instant(), 1, 100, 40, 80, 0, 1, 0, 20, 0));
	}

	/** Enough healthy windows that the controller runs at full rate. */
	public void fullRate() {
		for (int i = 0; i < 40; i++) {
			healthy();
		}
	}

	/** Moves time on by {@code step}, reports health, ticks the event once; returns the offers made. */
	public int tick(String eventId, Duration step) {
		this.clock.advance(step);
		fullRate();
		return this.ticker.tick(this.management.get(EventId.of(eventId)));
	}

	/** Ticks (one second apart) until {@code expected} live grants exist or 20 ticks passed. */
	public LiveCounts tickUntilLive(String eventId, long expected) {
		for (int i = 0; i < 20 && this.grants.count(eventId).live() < expected; i++) {
			tick(eventId, Duration.ofSeconds(1));
		}
		return this.grants.count(eventId);
	}

	public Instant now() {
		return this.clock.instant();
	}

}
