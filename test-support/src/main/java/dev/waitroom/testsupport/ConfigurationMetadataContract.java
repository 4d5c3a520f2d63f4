package dev.waitroom.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The configuration-metadata tests every service runs, once: a service's {@code ConfigurationMetadataTests} implements
 * this interface and inherits them. spring-boot-configuration-processor wrote the module's metadata, every
 * {@code waitroom.*} key its application.yml sets or reads in a placeholder is described by it (a typo or an
 * undocumented key fails), and every {@code waitroom.*} property of the metadata on its class path has a description
 * ({@link ConfigurationMetadataCheck}).
 */
public interface ConfigurationMetadataContract {

    @Test
    default void theModuleHasMetadataAndEveryWaitroomKeyOfItsApplicationYmlIsDescribed() {
        assertThat(ConfigurationMetadataCheck.ownMetadataExists())
                .as("%s", ConfigurationMetadataCheck.ownMetadata())
                .isTrue();
        assertThat(ConfigurationMetadataCheck.waitroomKeys()).isNotEmpty();
        assertThat(ConfigurationMetadataCheck.undocumentedKeys())
                .as("waitroom.* keys of application.yml without configuration metadata")
                .isEmpty();
    }

    /**
     * docs/reference/configuration/&lt;module&gt;.md is the one {@link ConfigurationMetadataCheck#reference} generates
     * from the metadata; {@code -Dwaitroom.docs.write=true} writes it instead of comparing.
     */
    @Test
    default void theConfigurationReferenceIsTheOneTheMetadataGenerates() throws Exception {
        String module = Path.of("").toAbsolutePath().getFileName().toString();
        Path reference = Path.of("..", "docs", "reference", "configuration", module + ".md");
        String generated = ConfigurationMetadataCheck.reference(module);
        if (Boolean.getBoolean("waitroom.docs.write")) {
            Files.createDirectories(reference.getParent());
            Files.writeString(reference, generated);
        }
        assertThat(Files.exists(reference))
                .as("%s exists (-Dwaitroom.docs.write=true writes it)", reference)
                .isTrue();
        assertThat(Files.readString(reference))
                .as("%s is generated from the configuration metadata: -Dwaitroom.docs.write=true writes it", reference)
                .isEqualTo(generated);
    }

    @Test
    default void everyWaitroomPropertyHasADescription() {
        assertThat(ConfigurationMetadataCheck.undescribedProperties())
                .as(
                        "waitroom.* properties without a description: javadoc the field, or the record component with @param")
                .isEmpty();
    }
}
