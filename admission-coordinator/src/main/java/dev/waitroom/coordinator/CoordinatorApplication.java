package dev.waitroom.coordinator;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Decides who may enter: events, leases with fencing, grants and sessions, rate control, signing keys. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class CoordinatorApplication {

    public static void main(String[] args) {
        SpringApplication.run(CoordinatorApplication.class, args);
    }
}
