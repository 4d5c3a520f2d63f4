package dev.waitroom.deploy;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One running stack for the stack-test classes that neither stop a process of it nor need it configured their own
 * way: a {@link LocalStack} parameter of a {@code @BeforeAll} method is the plain one ({@code ./waitroom run}), or
 * with {@link TwoRegions @SharedStack.TwoRegions} the two-region one ({@code ./waitroom run --regions 2
 * --simulations}). Starting a stack is the slowest part of such a class; each class makes its own events (a random
 * id), so the classes that share one see nothing of each other. The first class that asks starts it; JUnit's root
 * store stops it once every test of the run is done, its logs kept in {@code target/<name>} for a reader of a
 * failure. A class that kills a process or starts the stack its own way starts its own.
 */
final class SharedStack implements ParameterResolver {

    /** The two-region stack instead of the plain one. */
    @Target(ElementType.PARAMETER)
    @Retention(RetentionPolicy.RUNTIME)
    @interface TwoRegions {}

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedStack.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == LocalStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        boolean regions = parameter.isAnnotated(TwoRegions.class);
        String name = regions ? "shared-two-region-stack" : "shared-stack";
        return context.getRoot()
                .getStore(NAMESPACE)
                .computeIfAbsent(name, key -> Running.start(key, regions), Running.class)
                .stack();
    }

    /** A started stack and its data directory, stopped and deleted when JUnit closes the root store. */
    private record Running(LocalStack stack, Path dataDir, String name) implements AutoCloseable {

        static Running start(String name, boolean regions) {
            Path dataDir = null;
            try {
                dataDir = Files.createTempDirectory("waitroom-" + name);
                StackConfig config = regions
                        ? dev.waitroom.deploy.TwoRegions.config(dataDir, true)
                        : TestStacks.config(dataDir, TestPorts.free(6), StackConfig.ExternalStores.none());
                return new Running(LocalStack.start(config), dataDir, name);
            } catch (IOException e) {
                deleteQuietly(dataDir);
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                deleteQuietly(dataDir);
                throw new IllegalStateException("interrupted while starting the " + name, e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                stack.close();
            } finally {
                TestStacks.keepLogsAndDelete(dataDir, name);
            }
        }

        private static void deleteQuietly(Path dataDir) {
            try {
                TestStacks.deleteTree(dataDir);
            } catch (IOException ignored) {
                // the start's own failure is the one to report
            }
        }
    }
}
