package dev.waitroom.coordinator.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.coordinator.queue.http.RestClientQueueDirectory;
import dev.waitroom.testsupport.QueueServiceProcess;
import dev.waitroom.testsupport.TestHttpClient;
import dev.waitroom.tokens.VisitorId;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * The queue contract against the real queue-service, run from its jar on the test JVM's Redis
 * ({@link QueueServiceProcess#shared()}), through the coordinator's own HTTP adapter; joins and leaves go through the
 * service's public visitor API, as the gateway forwards them.
 */
class QueueDirectoryContractOnQueueServiceTests extends QueueDirectoryContractScenarios {

    private static final TestHttpClient HTTP = TestHttpClient.create(Duration.ofSeconds(10));

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static volatile QueueDirectory directory;

    @Override
    protected QueueDirectory queue() {
        QueueDirectory d = directory;
        if (d == null) {
            QueueServiceProcess service = QueueServiceProcess.shared();
            d = RestClientQueueDirectory.of(
                    RestClient.builder(),
                    service.baseUrl().toString(),
                    service.coordinatorCredential(),
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(10));
            directory = d;
        }
        return d;
    }

    @Override
    protected String join(String eventId, VisitorId visitor) {
        HttpResponse<String> joined = visitorCall("POST", eventId, visitor, "{}");
        assertThat(joined.statusCode()).as(joined.body()).isIn(200, 201);
        return JSON.readTree(joined.body()).path("receipt").asString();
    }

    @Override
    protected void leave(String eventId, VisitorId visitor) {
        HttpResponse<String> left = visitorCall("DELETE", eventId, visitor, null);
        assertThat(left.statusCode()).as(left.body()).isEqualTo(200);
    }

    private static HttpResponse<String> visitorCall(String method, String eventId, VisitorId visitor, String json) {
        QueueServiceProcess service = QueueServiceProcess.shared();
        URI queue = service.baseUrl().resolve("/events/" + eventId + "/queue");
        return HTTP.send(
                method, queue, json, Headers.INTERNAL, service.gatewayCredential(), Headers.VISITOR, visitor.value());
    }
}
