package dev.waitroom.booking.catalogue;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The catalogue's part of {@code waitroom.booking.inventory} (the holds read theirs from the same prefix).
 *
 * @param maxListedSeats most seats one availability listing returns
 */
@ConfigurationProperties("waitroom.booking.inventory")
record CatalogueProperties(@DefaultValue("500") int maxListedSeats) {

    CatalogueProperties {
        if (maxListedSeats < 1) {
            throw new IllegalArgumentException("max-listed-seats must be positive");
        }
    }
}
