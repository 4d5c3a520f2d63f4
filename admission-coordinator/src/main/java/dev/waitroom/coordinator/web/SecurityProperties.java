package dev.waitroom.coordinator.web;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The ops bearer token and the internal service credential. Both are required and have no default: the service
 * refuses to start without them. {@link #toString()} never shows them.
 */
@ConfigurationProperties("waitroom.security")
public record SecurityProperties(String opsToken, String internalToken) {

	static final int MIN_LENGTH = 16;

	public SecurityProperties {
		require(opsToken, "waitroom.security.ops-token (WAITROOM_OPS_TOKEN)");
		require(internalToken, "waitroom.security.internal-token (WAITROOM_INTERNAL_TOKEN)");
	}

	private static void require(String value, String name) {
		if (value == null || value.isBlank()) {
			throw new IllegalStateException(name + " is required and has no default: set it to a random secret");
		}
		if (value.length() < MIN_LENGTH) {
			throw new IllegalStateException(name + " must be at least " + MIN_LENGTH + " characters");
		}
	}

	@Override
	public String toString() {
		return "SecurityProperties[opsToken=****, internalToken=****]";
	}

}
