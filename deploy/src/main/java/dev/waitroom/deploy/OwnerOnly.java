package dev.waitroom.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The launcher's files are its user's alone (issue #28, finding 9): the data directory, the logs and each store's
 * directory 0700, every log file 0600, like the secrets file. A log can carry an operator's mistakes and Redis's
 * append-only file holds every waiting visitor's place; nobody else on the machine reads them.
 */
final class OwnerOnly {

    static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private OwnerOnly() {}

    /** Creates the directory (and its parents) if missing, and makes it 0700. */
    static Path directory(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, DIRECTORY);
        return dir;
    }

    /** Creates the file if missing, empty, and makes it 0600 (an existing one keeps its content). */
    static Path file(Path file) throws IOException {
        if (!Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE));
        }
        Files.setPosixFilePermissions(file, FILE);
        return file;
    }
}
