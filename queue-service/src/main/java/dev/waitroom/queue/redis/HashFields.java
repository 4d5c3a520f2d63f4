package dev.waitroom.queue.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.redisson.api.BatchResult;
import org.redisson.api.RBatch;
import org.redisson.api.RMapAsync;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/**
 * Plain hash fields outside any script, for bookkeeping that no invariant rests on (the estimate scores,
 * docs/design/estimates.md): each key is one command, so no key needs declaring.
 */
@Component
public class HashFields {

    private final RedissonClient redisson;

    HashFields(RedissonClient redisson) {
        this.redisson = redisson;
    }

    /** The values of these fields of these hashes, read and deleted in one batch; fields absent are left out. */
    public List<String> take(Map<String, Set<String>> fieldsByKey) {
        RBatch batch = redisson.createBatch();
        List<String> keys = new ArrayList<>(fieldsByKey.keySet());
        for (String key : keys) {
            RMapAsync<String, String> hash = batch.getMap(key, StringCodec.INSTANCE);
            hash.getAllAsync(fieldsByKey.get(key));
            hash.fastRemoveAsync(fieldsByKey.get(key).toArray(new String[0]));
        }
        BatchResult<?> result = batch.execute();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            @SuppressWarnings("unchecked")
            Map<String, String> found =
                    (Map<String, String>) result.getResponses().get(2 * i);
            values.addAll(found.values());
        }
        return values;
    }
}
