package dev.waitroom.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one rule for a region's name, which the coordinator, the gateway's configuration and the launcher share. */
class RegionTests {

    @ParameterizedTest
    @ValueSource(strings = {"a", "eu-west", "r2", "0", "abcdefghijklmnopqrstuvwxyz012345"})
    void wellFormedNamesAreRegions(String name) {
        assertThat(Region.valid(name)).isTrue();
        assertThat(new Region(name).regional()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"-west", "west-", "West", "eu_west", "eu west", "abcdefghijklmnopqrstuvwxyz0123456", "é"})
    void malformedNamesAreRefused(String name) {
        assertThat(Region.valid(name)).isFalse();
        assertThatThrownBy(() -> new Region(name)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theEmptyNameIsTheCentralGate() {
        assertThat(new Region(null)).isEqualTo(Region.CENTRAL);
        assertThat(Region.CENTRAL.regional()).isFalse();
        assertThat(Region.valid("")).isFalse();
    }
}
