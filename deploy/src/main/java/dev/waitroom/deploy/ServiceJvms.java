package dev.waitroom.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * How the launcher runs a service's JVM: full tiered JIT (C2 included, so a warm service is as fast as it gets) from
 * Spring Boot's extracted, class-data-sharing friendly layout ({@code java -Djarmode=tools -jar x.jar extract}), with
 * a class-data-sharing archive of the classes an earlier run loaded, so the start stays quick although C2 competes
 * for the cores while a stack starts (docs/operating/running.md#jvm).
 *
 * <p>Each build of a service's jar is extracted once into a cache shared by every stack on the machine ({@code
 * WAITROOM_JVM_CACHE}, else {@code ~/.cache/waitroom/jvm}); a run is never served from the checkout, so rebuilding
 * while a stack runs cannot pull classes out from under a live process. The first run of a build records its
 * classes ({@code -XX:ArchiveClassesAtExit}, written when the JVM exits after a stop) into a file of its own, made the
 * build's archive only after that JVM exited by itself; every later run maps it ({@code -XX:SharedArchiveFile}). A
 * JVM that cannot map an archive (another JDK, a damaged file) runs without it: the archive only ever saves time. On
 * JDK 25 and later the same is done with an ahead-of-time cache ({@code -XX:AOTCacheOutput}, then {@code
 * -XX:AOTCache}), which also carries the recording run's method profiles.
 *
 * <p>{@code WAITROOM_JVM_FLAGS} (whitespace-separated) replaces the heap, GC and JIT flags, never the archive's.
 */
final class ServiceJvms {

    static final String CACHE_VARIABLE = "WAITROOM_JVM_CACHE";

    static final String FLAGS_VARIABLE = "WAITROOM_JVM_FLAGS";

    /**
     * Serial GC: four services, two stores and the load share two cores, where a parallel collector's threads only
     * contend. Full tiered JIT: C1 alone (the old {@code -XX:TieredStopAtLevel=1}) started a little faster but capped
     * a warm service at about a third of its speed. C2 only for the hottest methods (tier-4 thresholds of 40,000
     * invocations and 400,000 loop iterations; HotSpot's are 5,000 and 40,000): with HotSpot's own, the gateway's C2
     * still took a third of a core 90 s into a load, compiling methods that run a few thousand times, while the
     * requests waited for that core (docs/operating/running.md#jvm).
     */
    static final List<String> DEFAULT_FLAGS = List.of(
            "-XX:+UseSerialGC",
            "-Xss512k",
            "-Xmx384m",
            "-XX:Tier4InvocationThreshold=40000",
            "-XX:Tier4MinInvocationThreshold=20000",
            "-XX:Tier4CompileThreshold=45000",
            "-XX:Tier4BackEdgeThreshold=400000");

    /**
     * What a build's first run records and later runs map, by JDK. The messages of either (classes it cannot hold,
     * such as signed jars' classes) are not the service's log; JDK 25's come under a tag older JDKs refuse.
     */
    private enum Archive {
        /** The dynamic class-data-sharing archive of the classes a run loaded. */
        CLASSES(
                "classes.jsa",
                "-XX:ArchiveClassesAtExit=",
                "-XX:SharedArchiveFile=",
                "-Xlog:cds=off",
                "-Xlog:cds+dynamic=off"),
        /**
         * From JDK 25 on, the ahead-of-time cache (JEP 483, 514, 515): besides the loaded classes it holds them linked
         * and the method profiles of the recording run, so the JIT compiles the hot paths from the first requests on
         * instead of first profiling them (docs/operating/running.md#aot-cache).
         */
        AOT_CACHE(
                "app.aot",
                "-XX:AOTCacheOutput=",
                "-XX:AOTCache=",
                "-Xlog:cds=off",
                "-Xlog:cds+dynamic=off",
                "-Xlog:aot=off");

        static final int AOT_CACHE_FEATURE = 25;

        final String file;
        final String recordFlag;
        final String mapFlag;
        final List<String> quiet;

        Archive(String file, String recordFlag, String mapFlag, String... quiet) {
            this.file = file;
            this.recordFlag = recordFlag;
            this.mapFlag = mapFlag;
            this.quiet = List.of(quiet);
        }

        static Archive of(int javaFeature) {
            return javaFeature >= AOT_CACHE_FEATURE ? AOT_CACHE : CLASSES;
        }
    }

    private static final String COMPLETE = ".extracted";

    /** Builds of one service kept in the cache: the current one and the one before (a stack may still run it). */
    private static final int KEPT_BUILDS = 2;

    private final Path root;

    private final String javaExecutable;

    /** What {@link #javaExecutable}'s JDK records and maps. */
    private final Archive kind;

    /** For a {@code javaExecutable} of the launcher's own JDK, which is how the launcher runs the services. */
    ServiceJvms(Path root, String javaExecutable) {
        this(root, javaExecutable, Runtime.version().feature());
    }

    ServiceJvms(Path root, String javaExecutable, int javaFeature) {
        this.root = root;
        this.javaExecutable = javaExecutable;
        this.kind = Archive.of(javaFeature);
    }

    static ServiceJvms fromEnvironment(String javaExecutable) {
        String configured = System.getenv(CACHE_VARIABLE);
        Path root = configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "waitroom", "jvm");
        return new ServiceJvms(root, javaExecutable);
    }

    /**
     * The command line of one run of {@code jar}: extracted first if this build never was. Several launchers may
     * prepare the same build at once; each extracts into a directory of its own and the first rename wins.
     */
    Launch prepare(String service, Path jar) throws IOException, InterruptedException {
        String checkout = service + "-" + hash(jar.toAbsolutePath().normalize().toString()) + "-";
        Path build = root.resolve(checkout + fingerprint(jar));
        if (!Files.exists(build.resolve(COMPLETE))) {
            extract(jar, build);
            prune(checkout, build);
        }
        Path application = build.resolve(jar.getFileName());
        List<String> flags = new ArrayList<>(jvmFlags());
        flags.addAll(kind.quiet);
        Path archive = build.resolve(kind.file);
        Path recording = null;
        if (Files.isRegularFile(archive) && Files.size(archive) > 0) {
            flags.add(kind.mapFlag + archive);
        } else {
            recording = build.resolve(UUID.randomUUID() + ".part." + kind.file);
            flags.add(kind.recordFlag + recording);
        }
        List<String> command = new ArrayList<>();
        command.add(javaExecutable);
        command.addAll(flags);
        command.addAll(List.of("-jar", application.toString()));
        return new Launch(List.copyOf(command), archive, recording);
    }

    /** The heap, GC and JIT flags: {@link #DEFAULT_FLAGS} unless {@code WAITROOM_JVM_FLAGS} replaces them. */
    static List<String> jvmFlags() {
        String flags = System.getenv(FLAGS_VARIABLE);
        if (flags == null || flags.isBlank()) {
            return DEFAULT_FLAGS;
        }
        return List.of(flags.trim().split("\\s+"));
    }

    private void extract(Path jar, Path build) throws IOException, InterruptedException {
        Files.createDirectories(root);
        Path staging = root.resolve(build.getFileName() + "." + UUID.randomUUID() + ".tmp");
        Process tool = new ProcessBuilder(
                        javaExecutable,
                        "-Djarmode=tools",
                        "-jar",
                        jar.toString(),
                        "extract",
                        "--destination",
                        staging.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!tool.waitFor(120, TimeUnit.SECONDS) || tool.exitValue() != 0) {
            tool.destroyForcibly();
            deleteTree(staging);
            throw new LocalStack.StackException("could not extract " + jar + " (java -Djarmode=tools -jar " + jar
                    + " extract --destination " + staging + ")");
        }
        Files.createFile(staging.resolve(COMPLETE));
        try {
            Files.move(staging, build, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException raced) {
            // another launcher extracted the same build first: its copy is as good
            deleteTree(staging);
            if (!Files.exists(build.resolve(COMPLETE))) {
                throw raced;
            }
        }
    }

    /**
     * Older builds of the service from the same checkout go, but the newest {@link #KEPT_BUILDS}: disk is not a
     * cache's to fill. Another checkout's builds are its own (its stacks may be running them).
     */
    private void prune(String checkout, Path current) throws IOException {
        try (Stream<Path> entries = Files.list(root)) {
            List<Path> builds = entries.filter(p -> p.getFileName().toString().startsWith(checkout))
                    .filter(p -> Files.exists(p.resolve(COMPLETE)))
                    .filter(p -> !p.equals(current))
                    .sorted(Comparator.comparing(ServiceJvms::modified).reversed())
                    .toList();
            for (int i = KEPT_BUILDS - 1; i < builds.size(); i++) {
                deleteTree(builds.get(i));
            }
        }
    }

    private static long modified(Path path) {
        try {
            return Files.getLastModifiedTime(path).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    /** A build of a checkout's jar is its size and modification time: a rebuild is a new build, a restart is not. */
    static String fingerprint(Path jar) throws IOException {
        return hash(Files.size(jar) + "|" + Files.getLastModifiedTime(jar).toMillis());
    }

    private static String hash(String identity) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * One run's command line, and where its recording of loaded classes goes, if it records one.
     *
     * @param command   the java command
     * @param archive   the build's archive
     * @param recording this run's recording, or null when it maps the archive
     */
    record Launch(List<String> command, Path archive, Path recording) {

        /**
         * Once the JVM exited, its recording becomes the build's archive, unless another run's already did. Only an
         * orderly exit (0, 1, or 130/143 after SIGINT/SIGTERM) wrote the whole recording on its way out; a JVM killed
         * outright (137) or crashed may leave a part, which is deleted.
         */
        void exited(int exitValue) {
            if (recording == null) {
                return;
            }
            boolean orderly = exitValue == 0 || exitValue == 1 || exitValue == 130 || exitValue == 143;
            try {
                if (orderly && Files.isRegularFile(recording) && Files.size(recording) > 0 && !Files.exists(archive)) {
                    Files.move(recording, archive, StandardCopyOption.ATOMIC_MOVE);
                } else {
                    Files.deleteIfExists(recording);
                }
            } catch (IOException e) {
                System.err.println("warning: class-data-sharing archive " + recording + " not kept: " + e.getMessage());
            }
        }
    }
}
