package dev.waitroom.queue.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.queue.QueueClient;
import dev.waitroom.testsupport.LocalRedisCluster;
import dev.waitroom.testsupport.LocalRedisExtension;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** The queue on a real three-master Redis Cluster, configured by {@code spring.data.redis.cluster.nodes} alone. */
class QueueOnRedisClusterTests extends QueueTopologyScenarios {

    @RegisterExtension
    static final LocalRedisExtension<LocalRedisCluster> redis = LocalRedisExtension.cluster();

    static ConfigurableApplicationContext app;
    static QueueClient client;
    static final Set<Integer> mastersUsed = new HashSet<>();
    static final AtomicInteger events = new AtomicInteger();

    @BeforeAll
    static void startService() {
        app = start(redis.springProperties());
        client = new QueueClient(Integer.parseInt(app.getEnvironment().getProperty("local.server.port")));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
        assertThat(mastersUsed).as("the events lived on more than one master").hasSizeGreaterThan(1);
    }

    @Override
    QueueClient client() {
        return client;
    }

    /** Each event of a run on the next master round the ring, so that every script meets a non-first node too. */
    @Override
    String eventId(String prefix) {
        LocalRedisCluster cluster = redis.get();
        int wanted = cluster.ports().get(events.getAndIncrement() % 3);
        while (true) {
            String id = super.eventId(prefix);
            int master = cluster.masterOf("wr:{" + id + "}:ev");
            if (master == wanted) {
                assertThat(cluster.masterOf("wr:{" + id + "}:e:7")).isEqualTo(master);
                mastersUsed.add(master);
                return id;
            }
        }
    }
}
