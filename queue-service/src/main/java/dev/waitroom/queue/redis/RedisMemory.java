package dev.waitroom.queue.redis;

import dev.waitroom.queue.config.QueueProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

/**
 * Redis memory as gauges (docs/design/abuse/join-ceiling-and-redis-memory.md): {@code waitroom.queue.redis.memory.used.bytes}
 * ({@code used_memory}) and {@code waitroom.queue.redis.memory.max.bytes} ({@code maxmemory}, 0 when unlimited), read
 * with INFO memory on a thread of its own every {@code waitroom.queue.redis-memory-refresh} (5 s), so a scrape only
 * reads two numbers and never waits for Redis. Unreadable (Redis away) is NaN, not an old figure.
 *
 * <p>One server or Sentinel: the primary, which holds every write. Redis Cluster: the master nearest its limit (the
 * highest used/max; with no limit set, the most used), whose two figures are reported together: every key of an
 * event lives on one master, so that master fills first and a sum over masters would hide it.
 */
@Component
public class RedisMemory implements InitializingBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RedisMemory.class);

    private final RedissonClient redisson;
    private final long refreshMillis;
    private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "redis-memory");
        t.setDaemon(true);
        return t;
    });
    private volatile Reading last = Reading.UNKNOWN;

    RedisMemory(RedissonClient redisson, QueueProperties properties, MeterRegistry registry) {
        this.redisson = redisson;
        this.refreshMillis = properties.redisMemoryRefresh().toMillis();
        Gauge.builder("waitroom.queue.redis.memory.used.bytes", this, m -> m.last.used())
                .description("Redis used_memory (INFO memory); on Redis Cluster of the master nearest its limit")
                .baseUnit("bytes")
                .register(registry);
        Gauge.builder("waitroom.queue.redis.memory.max.bytes", this, m -> m.last.max())
                .description("Redis maxmemory, 0 when unlimited; on Redis Cluster of the master nearest its limit")
                .baseUnit("bytes")
                .register(registry);
    }

    /** One node's figures; NaN when unread. */
    public record Reading(double used, double max) {

        static final Reading UNKNOWN = new Reading(Double.NaN, Double.NaN);

        /** Used over max; 0 with no limit. */
        double fill() {
            return max > 0 ? used / max : 0;
        }
    }

    /** The figures as last read. */
    public Reading last() {
        return last;
    }

    @Override
    public void afterPropertiesSet() {
        refresher.scheduleWithFixedDelay(this::refresh, 0, refreshMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void destroy() {
        refresher.shutdownNow();
    }

    /** Reads INFO memory of the primary (of every master on a cluster) now. */
    void refresh() {
        try {
            Reading chosen = null;
            for (RedisNode node : primaries()) {
                Reading r = reading(node.info(RedisNode.InfoSection.MEMORY));
                if (chosen == null
                        || r.fill() > chosen.fill()
                        || (r.fill() == chosen.fill() && r.used() > chosen.used())) {
                    chosen = r;
                }
            }
            last = chosen == null ? Reading.UNKNOWN : chosen;
        } catch (RuntimeException e) {
            last = Reading.UNKNOWN;
            log.debug("Redis memory not read: {}", e.toString());
        }
    }

    private List<RedisNode> primaries() {
        Config config = redisson.getConfig();
        if (config.isClusterConfig()) {
            return new ArrayList<>(redisson.getRedisNodes(RedisNodes.CLUSTER).getMasters());
        }
        if (config.isSentinelConfig()) {
            return List.of(
                    redisson.getRedisNodes(RedisNodes.SENTINEL_MASTER_SLAVE).getMaster());
        }
        return List.of(redisson.getRedisNodes(RedisNodes.SINGLE).getInstance());
    }

    private static Reading reading(Map<String, String> info) {
        return new Reading(number(info, "used_memory"), number(info, "maxmemory"));
    }

    private static double number(Map<String, String> info, String field) {
        String value = info.get(field);
        return value == null ? Double.NaN : Double.parseDouble(value.trim());
    }
}
