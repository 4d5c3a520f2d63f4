package dev.waitroom.queue;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Queue membership, server-assigned order, the pre-sale draw, visitor status and the edge snapshot. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class QueueServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(QueueServiceApplication.class, args);
    }
}
