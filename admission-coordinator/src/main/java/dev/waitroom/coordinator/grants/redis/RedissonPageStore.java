package dev.waitroom.coordinator.grants.redis;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.contract.page.PageDesign;
import dev.waitroom.contract.page.PageVersions;
import dev.waitroom.coordinator.page.PageStore;
import java.util.Map;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** Each seller's page as a JSON string, then the version index as text ({@link PageVersions#encode()}). */
@Component
class RedissonPageStore implements PageStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final RedissonClient redisson;

    RedissonPageStore(RedissonClient redisson) {
        this.redisson = redisson;
    }

    @Override
    public void write(Map<EventId, PageDesign> designs, PageVersions versions) {
        designs.forEach((id, design) -> this.redisson
                .getBucket(RedisKeys.page(id), StringCodec.INSTANCE)
                .set(JSON.writeValueAsString(design)));
        this.redisson.getBucket(RedisKeys.PAGES, StringCodec.INSTANCE).set(versions.encode());
    }
}
