package dev.waitroom.gateway.client;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.buckets.LocalTokenBuckets;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.problem.ProblemResponses;
import dev.waitroom.gateway.redis.RedisReachability;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.EnumMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.BeansException;
import org.springframework.cloud.gateway.filter.ratelimit.RedisRateLimiter;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The limits per client address (docs/design/abuse/client-limits.md). Most are token buckets held in this instance ({@link
 * LocalTokenBuckets}, no network call), each instance taking its share of the configured rate: they sit on the paths a
 * flash crowd takes (new identities, joins, polls) or that must keep working without Redis (renew, leave). Claims are
 * counted in Redis across every instance (Spring Cloud Gateway's {@link RedisRateLimiter}): a claim already needs Redis
 * (the live-session registry) and is rare next to polls, so exactness costs little there. Addresses reach Redis only as
 * a keyed hash.
 */
@Component
public class ClientLimits implements ApplicationContextAware {

    /** A limit held in each instance. */
    public enum Local {
        NEW_VISITORS("new-visitors", "Too many new visitors from your network address at once"),
        JOINS("joins", "Too many joins from your network address; no place was made by this request"),
        UNTICKETED_POLLS(
                "unticketed-polls", "Too many status requests without a place in the queue from your network address"),
        SESSIONS("sessions", "Too many session requests from your network address; your session is kept"),
        SHOP("shop", "Too many shop requests from your network address; your session is kept"),
        /** A shop's signals (docs/integration/shop-signals.md): a shop's servers, so one address sends many. */
        SIGNALS("signals", "Too many shop signals from this network address; retry after a moment");

        private final String tag;

        private final String reason;

        Local(String tag, String reason) {
            this.tag = tag;
            this.reason = reason;
        }

        public String tag() {
            return tag;
        }
    }

    private final boolean enabled;

    private final ClientAddresses addresses;

    private final RedisReachability reachability;

    private final MeterRegistry meters;

    private final Map<Local, LocalTokenBuckets> buckets = new EnumMap<>(Local.class);

    private final RedisRateLimiter claims;

    private final long claimRetryAfter;

    private final byte[] redisKeyKey;

    ClientLimits(
            ClientLimitsProperties properties,
            ClientAddresses addresses,
            RedisReachability reachability,
            SecretsProperties secrets,
            MeterRegistry meters) {
        this.enabled = properties.enabled();
        this.addresses = addresses;
        this.reachability = reachability;
        this.meters = meters;
        int instances = properties.instances();
        buckets.put(Local.NEW_VISITORS, share(properties.newVisitors(), instances, properties.maxAddresses()));
        buckets.put(Local.JOINS, share(properties.joins(), instances, properties.maxAddresses()));
        buckets.put(Local.UNTICKETED_POLLS, share(properties.unticketedPolls(), instances, properties.maxAddresses()));
        buckets.put(Local.SESSIONS, share(properties.sessions(), instances, properties.maxAddresses()));
        buckets.put(Local.SHOP, share(properties.shop(), instances, properties.maxAddresses()));
        buckets.put(Local.SIGNALS, share(properties.signals(), instances, properties.maxAddresses()));
        // RedisRateLimiter counts whole tokens per second
        int claimRate = (int) Math.max(1, Math.round(properties.claims().replenishRate()));
        int claimBurst =
                (int) Math.max(claimRate, Math.round(properties.claims().burstCapacity()));
        this.claims = new RedisRateLimiter(claimRate, claimBurst, 1);
        this.claims.setIncludeHeaders(false);
        this.claimRetryAfter = 1;
        this.redisKeyKey = ("waitroom-client-limit-v1:" + secrets.visitorKey()).getBytes(StandardCharsets.UTF_8);
    }

    private static LocalTokenBuckets share(ClientLimitsProperties.Limit limit, int instances, int maxAddresses) {
        double rate = limit.replenishRate() / instances;
        double burst = Math.max(1, limit.burstCapacity() / instances);
        return new LocalTokenBuckets(rate, Math.max(burst, rate), maxAddresses, System::nanoTime);
    }

    @Override
    public void setApplicationContext(ApplicationContext context) throws BeansException {
        claims.setApplicationContext(context);
    }

    /** Takes one request from the client's bucket of {@code limit}; false when it is empty (nothing taken). */
    public boolean tryTake(Local limit, ServerWebExchange exchange) {
        return !enabled || buckets.get(limit).tryTake(addresses.keyOf(exchange), 1);
    }

    /**
     * Takes one claim from the client's shared bucket in Redis: true when allowed, false when refused; an error when
     * Redis cannot be asked (claims fail closed then, docs/design/abuse/client-limits.md).
     */
    public Mono<Boolean> tryTakeClaim(ServerWebExchange exchange, java.time.Duration timeout) {
        if (!enabled) {
            return Mono.just(true);
        }
        return claims.isAllowed("client-claims", redisKey(addresses.keyOf(exchange)))
                .timeout(timeout)
                .doOnError(error -> reachability.failed())
                .map(RedisRateLimiter.Response::isAllowed);
    }

    /** The 429 problem for a refused {@code limit}, with {@code Retry-After}. */
    public Mono<Void> refuse(ServerWebExchange exchange, Local limit) {
        return refuse(exchange, limit.tag, limit.reason, buckets.get(limit).secondsUntil(1));
    }

    /** The 429 problem for a refused claim. */
    public Mono<Void> refuseClaim(ServerWebExchange exchange) {
        return refuse(
                exchange,
                "claims",
                "Too many claims from your network address; your place and offer are kept",
                claimRetryAfter);
    }

    private Mono<Void> refuse(ServerWebExchange exchange, String tag, String reason, long retryAfter) {
        Counter.builder("waitroom.gateway.client.limited")
                .tag("limit", tag)
                .description("Requests refused by a per-client-address limit")
                .register(meters)
                .increment();
        exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter));
        return ProblemResponses.write(
                exchange,
                ProblemType.CLIENT_RATE_LIMITED,
                reason + ". Wait " + retryAfter + " s; the page retries by itself.",
                Map.of("retryAfterSeconds", retryAfter, "limit", tag));
    }

    /** A keyed hash of the address: Redis never holds the address itself. */
    private String redisKey(String address) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(redisKeyKey, "HmacSHA256"));
            byte[] digest = mac.doFinal(address.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(digest, 16));
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", ex);
        }
    }
}
