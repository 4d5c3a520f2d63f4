package dev.waitroom.booking.faults;

import com.zaxxer.hikari.HikariDataSource;
import dev.waitroom.booking.pool.DatabasePool;
import dev.waitroom.booking.pool.HikariDatabasePool;
import dev.waitroom.web.WebKitAutoConfiguration;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;

/** Fault injection for load tests: a gate in front of the pool, a filter on shop routes, the settings in force. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnFaultInjection
class FaultsConfiguration {

    /** Wraps the Hikari pool in the gate; static so it registers before the DataSource is created. */
    @Bean
    static BeanPostProcessor connectionGatePostProcessor(Environment environment) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof HikariDataSource hikari) {
                    FaultsProperties properties =
                            Binder.get(environment).bindOrCreate("waitroom.booking.faults", FaultsProperties.class);
                    return new GatedDataSource(hikari, new ConnectionGate(properties.poolWait()));
                }
                return bean;
            }
        };
    }

    @Bean
    Faults faults(DataSource dataSource) {
        return new Faults(gated(dataSource).gate());
    }

    /** The pool pressure the health report sends, with the gate's limit and waiters taken into account. */
    @Bean
    @Primary
    DatabasePool gatedDatabasePool(HikariDatabasePool hikari, DataSource dataSource) {
        return new GatedDatabasePool(hikari, gated(dataSource).gate());
    }

    @Bean
    FilterRegistrationBean<FaultInjectionFilter> faultInjectionFilter(Faults faults) {
        var registration = new FilterRegistrationBean<>(new FaultInjectionFilter(faults));
        registration.addUrlPatterns("/events/*");
        // After the web kit's checks: a refused request never sees an injected fault.
        registration.setOrder(WebKitAutoConfiguration.BODY_LIMIT_ORDER + 10);
        return registration;
    }

    private static GatedDataSource gated(DataSource dataSource) {
        if (dataSource instanceof GatedDataSource gated) {
            return gated;
        }
        throw new IllegalStateException("the DataSource is not the gated Hikari pool");
    }
}
