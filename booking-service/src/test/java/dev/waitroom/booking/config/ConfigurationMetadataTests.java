package dev.waitroom.booking.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.testsupport.ConfigurationMetadataCheck;
import org.junit.jupiter.api.Test;

/**
 * spring-boot-configuration-processor wrote this module's configuration metadata, and every {@code waitroom.*} key its
 * application.yml sets or reads in a placeholder is described by it (a typo or an undocumented key fails); every
 * {@code waitroom.*} property of the metadata on its class path has a description.
 */
class ConfigurationMetadataTests {

    @Test
    void theModuleHasMetadataAndEveryWaitroomKeyOfItsApplicationYmlIsDescribed() {
        assertThat(ConfigurationMetadataCheck.ownMetadataExists())
                .as("%s", ConfigurationMetadataCheck.ownMetadata())
                .isTrue();
        assertThat(ConfigurationMetadataCheck.waitroomKeys()).isNotEmpty();
        assertThat(ConfigurationMetadataCheck.undocumentedKeys())
                .as("waitroom.* keys of application.yml without configuration metadata")
                .isEmpty();
    }

    @Test
    void everyWaitroomPropertyHasADescription() {
        assertThat(ConfigurationMetadataCheck.undescribedProperties())
                .as(
                        "waitroom.* properties without a description: javadoc the field, or the record component with @param")
                .isEmpty();
    }
}
