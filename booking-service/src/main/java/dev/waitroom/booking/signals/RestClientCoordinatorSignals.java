package dev.waitroom.booking.signals;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.coordinator.CoordinatorPaths;
import dev.waitroom.contract.coordinator.HealthReport;
import dev.waitroom.contract.coordinator.PurchaseCompleted;
import dev.waitroom.contract.coordinator.SeatCategories;
import dev.waitroom.contract.coordinator.SoldOut;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/** The coordinator's internal API over HTTP, with booking's own credential and short timeouts. */
final class RestClientCoordinatorSignals implements CoordinatorSignals {

    private final RestClient http;

    RestClientCoordinatorSignals(
            RestClient.Builder builder, URI coordinatorUrl, String serviceCredential, Duration timeout) {
        var requestFactory = new JdkClientHttpRequestFactory(
                java.net.http.HttpClient.newBuilder().connectTimeout(timeout).build());
        requestFactory.setReadTimeout(timeout);
        this.http = builder.clone()
                .baseUrl(coordinatorUrl.toString())
                .requestFactory(requestFactory)
                .defaultHeader(Headers.INTERNAL, serviceCredential)
                .build();
    }

    @Override
    public void health(HealthReport report) {
        post(report, "health", CoordinatorPaths.HEALTH);
    }

    @Override
    public void soldOut(EventId event, String reason) {
        post(new SoldOut(reason), "sold-out", CoordinatorPaths.SOLD_OUT, event.value());
    }

    @Override
    public void categories(EventId event, SeatCategories categories) {
        send(HttpMethod.PUT, categories, "categories", CoordinatorPaths.CATEGORIES, event.value());
    }

    @Override
    public void purchaseCompleted(EventId event, String sessionId, UUID orderId) {
        post(
                new PurchaseCompleted(orderId.toString()),
                "purchase-completed",
                CoordinatorPaths.PURCHASE_COMPLETED,
                event.value(),
                sessionId);
    }

    private void post(Object body, String what, String path, Object... variables) {
        send(HttpMethod.POST, body, what, path, variables);
    }

    private void send(HttpMethod method, Object body, String what, String path, Object... variables) {
        try {
            http.method(method)
                    .uri(path, variables)
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(body)
                    .retrieve()
                    .toBodilessEntity();
        } catch (HttpClientErrorException e) {
            if (e.getStatusCode().value() == 401
                    || e.getStatusCode().value() == 403
                    || e.getStatusCode().value() == 408
                    || e.getStatusCode().value() == 429) {
                // Credentials being rotated, or the coordinator shedding load: worth trying again.
                throw new CoordinatorUnreachableException(
                        "coordinator " + what + " call answered "
                                + e.getStatusCode().value(),
                        e);
            }
            throw new CoordinatorRefusedException(e.getStatusCode().value());
        } catch (RestClientException | IllegalArgumentException e) {
            throw new CoordinatorUnreachableException(
                    "coordinator " + what + " call failed: " + e.getClass().getSimpleName(), e);
        }
    }
}
