package dev.waitroom.coordinator.admission.redis;

import dev.waitroom.testsupport.LocalRedisSentinels;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The registry on a real Sentinel set ({@code spring.data.redis.sentinel.master/nodes}). */
class SessionRegistryOnRedisSentinelTests extends SessionRegistryTopologyScenarios {

	static LocalRedisSentinels sentinels;

	@BeforeAll
	static void startSentinels() {
		sentinels = LocalRedisSentinels.start();
	}

	@AfterAll
	static void stopSentinels() {
		if (sentinels != null) {
			sentinels.close();
		}
	}

	@Override
	String[] redisProperties() {
		return new String[] { "spring.data.redis.sentinel.master=" + LocalRedisSentinels.MASTER,
				"spring.data.redis.sentinel.nodes=" + sentinels.nodes() };
	}

}
