package dev.waitroom.booking.signals;

import dev.waitroom.booking.ServicesProperties;
import dev.waitroom.booking.catalogue.CategoryReports;
import dev.waitroom.booking.outbox.CoordinatorOutbox;
import dev.waitroom.booking.pool.DatabasePool;
import dev.waitroom.web.WebKitAutoConfiguration;
import dev.waitroom.web.WebKitProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.web.client.RestClient;

@Configuration(proxyBeanMethods = false)
class SignalsConfiguration {

    @Bean
    RequestWindow requestWindow() {
        return new RequestWindow();
    }

    /**
     * Right after the request id, before every check and the fault injection, so refusals, injected latency and
     * injected errors are measured too.
     */
    @Bean
    FilterRegistrationBean<RequestMetricsFilter> requestMetricsFilter(RequestWindow window, MeterRegistry meters) {
        var registration = new FilterRegistrationBean<>(new RequestMetricsFilter(window, meters));
        registration.addUrlPatterns("/events/*");
        registration.setOrder(WebKitAutoConfiguration.REQUEST_ID_ORDER + 5);
        return registration;
    }

    @Bean
    CoordinatorSignals coordinatorSignals(
            RestClient.Builder builder,
            ServicesProperties services,
            WebKitProperties web,
            SignalsProperties properties) {
        return new RestClientCoordinatorSignals(
                builder,
                services.coordinatorUrl(),
                web.security().requireServiceCredential("booking's client of the coordinator"),
                properties.timeout());
    }

    @Bean
    SignalTicker signalTicker(
            CoordinatorSignals coordinator,
            RequestWindow window,
            DatabasePool pool,
            CoordinatorOutbox outbox,
            CategoryReports categories,
            MeterRegistry meters,
            Clock clock,
            SignalsProperties properties) {
        return new SignalTicker(coordinator, window, pool, outbox, categories, meters, clock, properties);
    }

    @Bean
    SchedulingConfigurer signalSchedule(SignalTicker ticker, SignalsProperties properties) {
        return (ScheduledTaskRegistrar registrar) -> registrar.addFixedRateTask(ticker::tick, properties.interval());
    }
}
