package dev.waitroom.gateway.page;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.identity.EdgeCookies;
import dev.waitroom.gateway.warmup.WarmupStep;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.tokens.VisitorId;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The waiting page through the gateway's own Netty server on loopback before it reports ready: the HTTP codec, the
 * web filters every request passes (request id, client address, identity, path safety) and the page route, for a
 * private {@link EventId#warmUp()} event. The page is static and reaches no other service.
 *
 * <p>Each request carries a visitor cookie minted with the gateway's own key, so no new identity is issued and the
 * per-address budget of new visitors (docs/design/abuse/client-limits.md), which loopback clients share, is never spent.
 */
@Component
@Order(2) // every visitor loads the page once, before its first join
class WaitingPageWarmup implements WarmupStep {

    private static final String[] LANGUAGES = {"en", "de-DE,de;q=0.9", "fr;q=0.8,en;q=0.5"};

    private final Environment environment;
    private final VisitorCookieCodec visitors;
    private final String visitorCookieName;
    private final EventId event = EventId.warmUp();
    private HttpClient http;
    private URI page;

    WaitingPageWarmup(Environment environment, SecretsProperties secrets, EdgeCookies cookies) {
        this.environment = environment;
        this.visitors = secrets.visitorCookieCodec();
        this.visitorCookieName = cookies.visitorName();
    }

    @Override
    public String name() {
        return "waiting page over loopback";
    }

    @Override
    public void call(int iteration) throws Exception {
        if (http == null) {
            http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            page = URI.create("http://" + WarmupStep.loopbackHost(environment) + ":"
                    + environment.getRequiredProperty("local.server.port") + "/events/" + event.value());
        }
        HttpResponse<Void> response = http.send(
                HttpRequest.newBuilder(page)
                        .timeout(Duration.ofSeconds(10)) // the first answer of a cold server on a busy box
                        .header("Cookie", visitorCookieName + "=" + visitors.encode(VisitorId.random()))
                        .header("Accept-Language", LANGUAGES[iteration % LANGUAGES.length])
                        .build(),
                HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("the waiting page answered " + response.statusCode());
        }
    }

    @Override
    public void close() {
        http = null; // its connections close when it is collected (HttpClient.close() is Java 21)
    }
}
