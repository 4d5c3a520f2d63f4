package dev.waitroom.coordinator.web;

import java.net.URI;

/** Problem type URIs: {@code https://waitroom.dev/problems/<slug>}, stable per problem. */
final class ProblemTypes {

	static final String BASE = "https://waitroom.dev/problems/";

	private ProblemTypes() {
	}

	static URI of(String slug) {
		return URI.create(BASE + slug);
	}

}
