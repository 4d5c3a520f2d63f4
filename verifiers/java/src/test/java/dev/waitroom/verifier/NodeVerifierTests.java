package dev.waitroom.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.testsupport.TestTools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The Node verifier's own suite ({@code verifiers/node}, {@code node --test}, no dependency) on the same test vectors
 * as this module's: run here so that the README's test command runs it, and its outcome is in the test report.
 */
class NodeVerifierTests {

    private static final Path PACKAGE = Path.of("..", "node").toAbsolutePath().normalize();

    @Test
    void theNodeVerifiersOwnTestsPassOnTheSharedVectors() throws Exception {
        Path node = TestTools.require("node");
        assertThat(PACKAGE.resolve("package.json")).exists();
        Path log = Files.createTempFile("node-verifier-tests", ".log");
        Process run = new ProcessBuilder(node.toString(), "--test")
                .directory(PACKAGE.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean finished = run.waitFor(120, TimeUnit.SECONDS);
        if (!finished) {
            run.destroyForcibly().waitFor();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        System.out.println(output);
        assertThat(finished).as("node --test finished within 120 s").isTrue();
        assertThat(run.exitValue()).as(output).isZero();
        assertThat(output).containsPattern("(?m)^# pass [1-9]").containsPattern("(?m)^# fail 0$");
    }
}
