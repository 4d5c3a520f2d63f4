package dev.waitroom.contract.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.MalformedValueException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AdmissionHoldTests {

    @Test
    void encodesAndDecodesWithAReasonThatHoldsTheSeparator() {
        AdmissionHold hold = AdmissionHold.of(
                AdmissionHold.Cause.PLANNED_QUEUE_ALL, "Doors | at two", Instant.parse("2030-01-01T14:00:00Z"));
        assertThat(AdmissionHold.decode(hold.encode())).isEqualTo(hold);
        AdmissionHold bare = AdmissionHold.of(AdmissionHold.Cause.SHOP_PAUSED, null, null);
        assertThat(AdmissionHold.decode(bare.encode())).isEqualTo(bare);
        assertThat(AdmissionHold.decode("")).isNull();
        assertThat(AdmissionHold.decode(null)).isNull();
    }

    @Test
    void onlyASlowedShopKeepsOffersGoing() {
        for (AdmissionHold.Cause cause : AdmissionHold.Cause.values()) {
            assertThat(AdmissionHold.of(cause, null, null).stopsOffers())
                    .as(cause.name())
                    .isEqualTo(cause != AdmissionHold.Cause.SHOP_SLOWED);
        }
    }

    @Test
    void anUnknownCauseOrALongReasonIsMalformed() {
        assertThatThrownBy(() -> new AdmissionHold("SHOP_ON_FIRE", null, null).validated())
                .isInstanceOf(MalformedValueException.class);
        assertThatThrownBy(() -> new AdmissionHold(null, null, null).validated())
                .isInstanceOf(MalformedValueException.class);
        assertThatThrownBy(() -> new AdmissionHold("PLANNED_PAUSE", "x".repeat(201), null).validated())
                .isInstanceOf(MalformedValueException.class);
    }
}
