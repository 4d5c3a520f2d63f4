package dev.waitroom.coordinator.queue.http;

import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.web.WebKitProperties;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

@Configuration(proxyBeanMethods = false)
class QueueClientConfiguration {

    @Bean
    QueueDirectory queueDirectory(RestClient.Builder builder, QueueClientProperties properties, WebKitProperties web) {
        String credential = web.security().requireServiceCredential("the coordinator's client of the queue-service");
        return RestClientQueueDirectory.of(
                builder, properties.queueUrl(), credential, properties.connectTimeout(), properties.readTimeout());
    }

    /**
     * Where the queue service is and how long to wait for it (short: the ticker must not stall).
     *
     * @param queueUrl base URL of the queue-service's internal API
     * @param connectTimeout how long a connection to the queue-service may take
     * @param readTimeout how long a queue-service call may take to answer; a late one counts as the queue unavailable
     */
    @ConfigurationProperties("waitroom.services")
    record QueueClientProperties(
            @DefaultValue("http://127.0.0.1:8081") String queueUrl,
            @DefaultValue("500ms") Duration connectTimeout,
            @DefaultValue("2s") Duration readTimeout) {}
}
