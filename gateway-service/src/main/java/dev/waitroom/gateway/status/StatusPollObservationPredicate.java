package dev.waitroom.gateway.status;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;

import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.stereotype.Component;

/**
 * No server observation ({@code http.server.requests}) for status polls: they are most of the
 * gateway's traffic, each observation builds tags and timers per request, and the polls are counted
 * by {@code waitroom.gateway.status.polls} (edge or forwarded, with the reason) instead.
 */
@Component
class StatusPollObservationPredicate implements ObservationPredicate {

	@Override
	public boolean test(String name, Observation.Context context) {
		if (context instanceof ServerRequestObservationContext server) {
			return EdgeStatusWebFilter.statusPathEvent(server.getCarrier().getURI().getRawPath()) == null;
		}
		return true;
	}

}
