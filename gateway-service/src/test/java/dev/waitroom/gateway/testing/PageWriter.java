package dev.waitroom.gateway.testing;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.contract.page.PageDesign;
import dev.waitroom.contract.page.PageVersions;
import dev.waitroom.testsupport.RealStores;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes seller's pages in the real Redis the way the coordinator does (docs/operating/the-sellers-page.md): the
 * design, then the version index. It checks nothing, so a test can put there what the coordinator would have refused.
 */
public final class PageWriter {

    private static final AtomicLong VERSION = new AtomicLong();

    private static final Map<EventId, Long> VERSIONS = new LinkedHashMap<>();

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final RedisCommands<String, String> redis;

    public PageWriter() {
        RedisClient client = RedisClient.create(RedisURI.create(RealStores.redisHost(), RealStores.redisPort()));
        this.redis = client.connect().sync();
    }

    /** Writes the design under a new version and returns it. */
    public long write(String eventId, PageDesign design) {
        synchronized (VERSIONS) {
            long version = VERSION.incrementAndGet();
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
            VERSIONS.put(id, version);
            redis.set(RedisKeys.PAGES, new PageVersions(VERSIONS).encode());
            return version;
        }
    }
}
