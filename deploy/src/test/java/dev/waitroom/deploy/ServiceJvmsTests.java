package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service JVMs' command lines and class-data-sharing archives: a build is extracted once, its first run records
 * its classes and only an orderly exit makes that recording the archive every later run maps.
 */
class ServiceJvmsTests {

    /** The smallest service jar the reactor built before this module's tests. */
    static final Path BOOKING_JAR = bookingJar();

    @TempDir
    Path cache;

    private ServiceJvms jvms() {
        return new ServiceJvms(
                cache, Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    @Test
    void aBuildIsExtractedOnceAndItsFirstRunRecordsWhatLaterRunsMap() throws Exception {
        ServiceJvms.Launch first = jvms().prepare("booking-service", BOOKING_JAR);
        Path application = Path.of(first.command().get(first.command().size() - 1));
        assertThat(application).isRegularFile().startsWith(cache);
        assertThat(application.resolveSibling("lib")).isDirectory();
        assertThat(first.command()).contains("-XX:ArchiveClassesAtExit=" + first.recording());
        assertThat(first.command()).doesNotContain("-XX:TieredStopAtLevel=1");

        ServiceJvms.Launch second = jvms().prepare("booking-service", BOOKING_JAR);
        assertThat(second.command()).as("the same build is not extracted again").contains(application.toString());
        assertThat(second.recording())
                .as("each run records into a file of its own")
                .isNotEqualTo(first.recording());

        // a recording of a JVM killed outright may be cut short: it is dropped
        Files.writeString(second.recording(), "part");
        second.exited(137);
        assertThat(second.recording()).doesNotExist();
        assertThat(first.archive()).doesNotExist();

        // an orderly exit (SIGTERM) wrote the whole recording: it becomes the build's archive
        Files.writeString(first.recording(), "whole");
        first.exited(143);
        assertThat(first.archive()).hasContent("whole");

        ServiceJvms.Launch third = jvms().prepare("booking-service", BOOKING_JAR);
        assertThat(third.recording()).isNull();
        assertThat(third.command()).contains("-XX:SharedArchiveFile=" + first.archive());

        // a later recording never replaces the archive a running JVM may have mapped
        Files.writeString(second.recording(), "later");
        second.exited(0);
        assertThat(first.archive()).hasContent("whole");
        assertThat(second.recording()).doesNotExist();
    }

    @Test
    void fromJdk25OnTheFirstRunRecordsAnAheadOfTimeCacheThatLaterRunsUse() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ServiceJvms jdk25 = new ServiceJvms(cache, java, 25);
        ServiceJvms.Launch first = jdk25.prepare("booking-service", BOOKING_JAR);
        assertThat(first.command()).contains("-XX:AOTCacheOutput=" + first.recording(), "-Xlog:aot=off");
        assertThat(first.command()).noneMatch(flag -> flag.startsWith("-XX:ArchiveClassesAtExit"));
        assertThat(first.archive().getFileName()).hasToString("app.aot");

        Files.writeString(first.recording(), "cache");
        first.exited(143);
        ServiceJvms.Launch second = jdk25.prepare("booking-service", BOOKING_JAR);
        assertThat(second.recording()).isNull();
        assertThat(second.command()).contains("-XX:AOTCache=" + first.archive());

        // JDK 17 on the same build neither maps the cache nor refuses to start over its log tag
        ServiceJvms.Launch jdk17 = new ServiceJvms(cache, java, 17).prepare("booking-service", BOOKING_JAR);
        assertThat(jdk17.command()).contains("-XX:ArchiveClassesAtExit=" + jdk17.recording());
        assertThat(jdk17.command()).noneMatch(flag -> flag.contains("aot") || flag.contains("AOT"));
    }

    @Test
    void aRebuildIsANewBuildAndOnlyTheTwoNewestBuildsStay() throws Exception {
        Path jar = cache.resolve("booking-service-0.1.0-SNAPSHOT.jar");
        Files.copy(BOOKING_JAR, jar);
        String before = ServiceJvms.fingerprint(jar);
        for (int build = 1; build <= 3; build++) {
            Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(build * 60L)));
            jvms().prepare("booking-service", jar);
        }
        assertThat(ServiceJvms.fingerprint(jar)).isNotEqualTo(before);
        try (Stream<Path> entries = Files.list(cache)) {
            List<Path> builds = entries.filter(Files::isDirectory)
                    .filter(p -> p.getFileName().toString().startsWith("booking-service-"))
                    .toList();
            assertThat(builds).hasSize(2);
        }
    }

    private static Path bookingJar() {
        Path target = Path.of("..", "booking-service", "target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().matches("booking-service-[^-]+.*\\.jar"))
                    .filter(p -> !p.getFileName().toString().endsWith("-plain.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("booking-service is not packaged in " + target));
        } catch (IOException e) {
            throw new IllegalStateException("booking-service is not packaged in " + target, e);
        }
    }
}
