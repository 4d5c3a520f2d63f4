package dev.waitroom.booking.signals;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.web.client.RestClient;

import dev.waitroom.booking.SecurityProperties;
import dev.waitroom.booking.ServicesProperties;
import dev.waitroom.booking.outbox.CoordinatorOutbox;
import dev.waitroom.booking.pool.DatabasePool;

@Configuration(proxyBeanMethods = false)
class SignalsConfiguration {

    @Bean
    RequestWindow requestWindow() {
        return new RequestWindow();
    }

    /** Outermost of the service's filters, so injected latency and errors are measured too. */
    @Bean
    FilterRegistrationBean<RequestMetricsFilter> requestMetricsFilter(RequestWindow window, MeterRegistry meters) {
        var registration = new FilterRegistrationBean<>(new RequestMetricsFilter(window, meters));
        registration.addUrlPatterns("/events/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    @Bean
    CoordinatorSignals coordinatorSignals(RestClient.Builder builder, ServicesProperties services,
            SecurityProperties security, SignalsProperties properties) {
        return new RestClientCoordinatorSignals(builder, services.coordinatorUrl(), security.internalToken(),
                properties.timeout());
    }

    @Bean
    SignalTicker signalTicker(CoordinatorSignals coordinator, RequestWindow window, DatabasePool pool,
            CoordinatorOutbox outbox, MeterRegistry meters, Clock clock, SignalsProperties properties) {
        return new SignalTicker(coordinator, window, pool, outbox, meters, clock, properties);
    }

    @Bean
    SchedulingConfigurer signalSchedule(SignalTicker ticker, SignalsProperties properties) {
        return (ScheduledTaskRegistrar registrar) -> registrar.addFixedRateTask(ticker::tick, properties.interval());
    }
}
