package dev.waitroom.coordinator.region;

import dev.waitroom.contract.Region;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class RegionConfiguration {

    /** The region this process is the gate of: the central gate unless {@code waitroom.region.name} is set. */
    @Bean
    Region region(RegionProperties properties) {
        return properties.region();
    }
}
