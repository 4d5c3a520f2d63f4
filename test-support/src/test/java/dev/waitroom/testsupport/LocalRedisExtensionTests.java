package dev.waitroom.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class LocalRedisExtensionTests {

    @RegisterExtension
    static final LocalRedisExtension<LocalRedisCluster> redis = LocalRedisExtension.cluster();

    static int port;

    @BeforeAll
    static void theSetRunsBeforeTheClassesOwnSetUp(LocalRedisCluster cluster) {
        assertThat(cluster).isSameAs(redis.get());
        port = cluster.ports().get(0);
    }

    @AfterAll
    static void andStillRunsInItsOwnTearDown() {
        assertThat(redis.get().cli(port, "PING")).isEqualTo("PONG");
    }

    @Test
    void handsTheRunningSetToParametersOfItsTypeAndNamesItForSpring(LocalRedis set) {
        assertThat(set).isSameAs(redis.get());
        assertThat(redis.springProperties())
                .containsExactly(
                        "spring.data.redis.cluster.nodes=" + redis.get().nodes());
        assertThat(set.cli(port, "CLUSTER", "INFO")).contains("cluster_state:ok");
    }
}
