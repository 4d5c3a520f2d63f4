package dev.waitroom.coordinator.tick;

import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.event.EventSchedules;
import dev.waitroom.coordinator.event.EventStatePublisher;
import dev.waitroom.coordinator.event.Events;
import dev.waitroom.coordinator.grants.Admissions;
import dev.waitroom.coordinator.grants.Grants;
import dev.waitroom.coordinator.grants.Offering;
import dev.waitroom.coordinator.grants.QueueSync;
import dev.waitroom.coordinator.grants.SessionRegistry;
import dev.waitroom.coordinator.keys.SigningKeys;
import dev.waitroom.coordinator.lanes.LaneCandidates;
import dev.waitroom.coordinator.lease.Leases;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.region.RegionalGate;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

@Configuration(proxyBeanMethods = false)
class TickerConfiguration {

    private static final Logger log = LoggerFactory.getLogger(TickerConfiguration.class);

    @Bean
    AdmissionTicker admissionTicker(
            CoordinatorProperties properties,
            Clock clock,
            Environment environment,
            Events events,
            Leases leases,
            Grants grants,
            Offering offering,
            Admissions admissions,
            QueueSync sync,
            QueueDirectory queue,
            EventManagement management,
            EventStatePublisher publisher,
            SessionRegistry registry,
            EventGauges gauges,
            RegionalGate gate,
            EventSchedules schedules,
            LaneCandidates lanes) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException ex) {
            host = "localhost";
        }
        CoordinatorProperties effective =
                properties.withDefaultInstance(host, environment.getProperty("server.port", "8082"));
        log.info("Coordinator instance {}", effective.instanceId());
        return new AdmissionTicker(
                effective,
                clock,
                System::nanoTime,
                events,
                leases,
                grants,
                offering,
                admissions,
                sync,
                queue,
                management,
                publisher,
                registry,
                gauges,
                gate,
                schedules,
                lanes);
    }

    /** Runs the ticker on a schedule; off in tests, which tick by hand. */
    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @ConditionalOnProperty(name = "waitroom.coordinator.ticker-enabled", havingValue = "true", matchIfMissing = true)
    static class Scheduling {

        private static final Logger log = LoggerFactory.getLogger(Scheduling.class);

        private final AdmissionTicker ticker;

        private final SigningKeys keys;

        private long ticks;

        Scheduling(AdmissionTicker ticker, SigningKeys keys) {
            this.ticker = ticker;
            this.keys = keys;
        }

        @Scheduled(fixedDelayString = "${waitroom.coordinator.tick-interval:250ms}")
        void tick() {
            this.ticker.tick();
            if (this.ticks++ % 20 == 0) {
                try {
                    this.keys.advance();
                } catch (RuntimeException ex) {
                    log.warn("Signing key rotation step failed: {}", ex.getMessage());
                }
            }
        }

        @jakarta.annotation.PreDestroy
        void resign() {
            this.ticker.resign();
        }
    }
}
