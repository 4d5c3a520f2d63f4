package dev.waitroom.gateway.testing;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.contract.page.PageDesign;
import dev.waitroom.contract.page.PageVersions;
import dev.waitroom.contract.routes.Protection;
import dev.waitroom.contract.routes.RouteTable;
import dev.waitroom.testsupport.RealStores;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes in the real Redis what the coordinator pushes to the gateways, the way it does: the route table (docs/
 * CONTRACTS.md), newer every time, and seller's pages (docs/operating/the-sellers-page.md), the design, then the version
 * index. It checks nothing, so a test can put there what the coordinator would have refused. The route table is this
 * writer's own (each test's writer starts from nothing protected); page versions are shared by every writer, as the
 * index is.
 */
public final class CoordinatorPushes {

    private static final AtomicLong ROUTES_VERSION = new AtomicLong(System.currentTimeMillis() * 1000);

    private static final AtomicLong PAGE_VERSION = new AtomicLong();

    private static final Map<EventId, Long> PAGE_VERSIONS = new LinkedHashMap<>();

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final RedisCommands<String, String> redis;

    private final Map<EventId, Protection> protections = new LinkedHashMap<>();

    public CoordinatorPushes() {
        RedisClient client = RedisClient.create(RedisURI.create(RealStores.redisHost(), RealStores.redisPort()));
        this.redis = client.connect().sync();
    }

    /** Sets what {@code eventId} protects (null: nothing) and writes the whole table; returns its version. */
    public synchronized long protect(String eventId, Protection protection) {
        if (protection == null) {
            protections.remove(EventId.of(eventId));
        } else {
            protections.put(EventId.of(eventId), protection);
        }
        RouteTable table = RouteTable.of(ROUTES_VERSION.incrementAndGet(), protections);
        redis.set(RedisKeys.ROUTES, table.encode());
        return table.version();
    }

    /** Writes an empty table: nothing protected by a table. */
    public synchronized void clearRoutes() {
        protections.clear();
        redis.set(
                RedisKeys.ROUTES,
                RouteTable.of(ROUTES_VERSION.incrementAndGet(), Map.of()).encode());
    }

    /** Writes the seller's page design under a new version and returns it. */
    public long page(String eventId, PageDesign design) {
        synchronized (PAGE_VERSIONS) {
            long version = PAGE_VERSION.incrementAndGet();
            PageDesign versioned = new PageDesign(
                    version,
                    design.brandName(),
                    design.logoUrl(),
                    design.logoAlt(),
                    design.colours(),
                    design.texts(),
                    design.template(),
                    design.imageHosts());
            EventId id = EventId.of(eventId);
            redis.set(RedisKeys.page(id), JSON.writeValueAsString(versioned));
            PAGE_VERSIONS.put(id, version);
            redis.set(RedisKeys.PAGES, new PageVersions(PAGE_VERSIONS).encode());
            return version;
        }
    }
}
