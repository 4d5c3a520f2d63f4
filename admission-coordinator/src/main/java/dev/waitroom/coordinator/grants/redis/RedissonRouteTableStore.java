package dev.waitroom.coordinator.grants.redis;

import dev.waitroom.contract.RedisKeys;
import dev.waitroom.contract.routes.RouteTable;
import dev.waitroom.coordinator.routes.RouteTableStore;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/** The route table as one Redis string ({@link RedisKeys#ROUTES}, {@link RouteTable#encode()}). */
@Component
class RedissonRouteTableStore implements RouteTableStore {

    private final RedissonClient redisson;

    RedissonRouteTableStore(RedissonClient redisson) {
        this.redisson = redisson;
    }

    @Override
    public void write(RouteTable table) {
        this.redisson.getBucket(RedisKeys.ROUTES, StringCodec.INSTANCE).set(table.encode());
    }
}
