package dev.waitroom.deploy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import redis.embedded.core.ExecutableProvider;

/**
 * The {@code redis-server} the launcher runs: the one installed on the machine (Debian's 7.0.15-1~deb12u10 has the
 * fix for CVE-2025-49844, the Lua use-after-free), else the Redis 6.2.6 bundled with embedded-redis, which lacks it,
 * with a warning, so that a machine with only a JDK and Maven still runs the stack.
 *
 * <p>Either runs through a small wrapper that sets {@code umask 077}: Redis creates its append-only and snapshot files
 * with its process's umask and has no setting of its own for it, and they hold every waiting visitor's place.
 *
 * @param executable the binary
 * @param bundled whether it is embedded-redis's own 6.2 build
 */
record RedisBinary(Path executable, boolean bundled) {

    static final String NAME = "redis-server";

    /** One line, printed when the bundled binary is used. */
    static final String BUNDLED_WARNING =
            "warning: no redis-server is installed, so the bundled Redis 6.2.6 runs, which"
                    + " lacks the fix for CVE-2025-49844 (Lua use-after-free); install one (apt-get install redis-server)";

    /** The installed {@code redis-server} on {@code PATH} of {@code env}, else the bundled one. */
    static RedisBinary choose(Map<String, String> env) throws IOException {
        Optional<Path> installed = installed(env.getOrDefault("PATH", ""));
        if (installed.isPresent()) {
            return new RedisBinary(installed.get(), false);
        }
        File bundled = ExecutableProvider.newJarResourceProvider().get();
        return new RedisBinary(bundled.toPath(), true);
    }

    /** The first executable {@code redis-server} in the directories of a {@code PATH} value. */
    static Optional<Path> installed(String path) {
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isBlank()) {
                continue;
            }
            Path candidate = Path.of(dir, NAME);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate.toAbsolutePath());
            }
        }
        return Optional.empty();
    }

    /**
     * The wrapper in {@code dir} (written once, 0700) that runs this binary with {@code umask 077}; {@code exec} keeps
     * the pid, so the launcher still finds and stops the server itself.
     */
    ExecutableProvider ownerOnly(Path dir) {
        return () -> {
            Path wrapper = dir.resolve(NAME);
            String script = "#!/bin/sh\n"
                    + "# written by ./waitroom run: Redis creates its append-only and snapshot files owner-only\n"
                    + "umask 077\n"
                    + "exec '" + executable.toString().replace("'", "'\\''") + "' \"$@\"\n";
            if (!Files.exists(wrapper) || !Files.readString(wrapper).equals(script)) {
                Path tmp = dir.resolve(NAME + ".tmp");
                Files.deleteIfExists(tmp);
                Files.createFile(
                        tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                Files.writeString(tmp, script);
                Files.move(tmp, wrapper, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            return wrapper.toFile();
        };
    }
}
