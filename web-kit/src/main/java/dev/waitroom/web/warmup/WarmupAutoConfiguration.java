package dev.waitroom.web.warmup;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

/** The {@link Warmup} of an MVC service, over the {@link WarmupStep} beans the service defines. */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(WarmupProperties.class)
public class WarmupAutoConfiguration {

    @Bean
    Warmup webKitWarmup(ApplicationContext context, WarmupProperties properties, ObjectProvider<WarmupStep> steps) {
        return new Warmup(context, properties, steps.orderedStream().toList());
    }
}
