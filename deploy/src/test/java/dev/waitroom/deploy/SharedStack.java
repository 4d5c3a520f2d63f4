package dev.waitroom.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One running stack for the stack-test classes that neither stop a process of it nor need it configured their own
 * way: a {@link LocalStack} parameter of a {@code @BeforeAll} method is the plain one ({@code ./waitroom run
 * --simulations}), or with {@link TwoRegionStack @SharedStack.TwoRegionStack} the two-region one ({@code ./waitroom
 * run --regions 2 --simulations}). Starting a stack is the slowest part of such a class; each class makes its own events (a random
 * id), so the classes that share one see nothing of each other. The first class that asks starts it, a class that asks
 * for the other kind stops it first (one idle stack at a time on the machine), and JUnit's root store stops the last
 * one once every test of the run is done; its logs are kept in {@code target/<name>} for a reader of a failure.
 * {@link ByStack} runs the classes of one kind one after another, those that {@link DisturbsIt disturb it} last. A
 * class that starts the stack its own way starts its own; one that kills a process shares a stack only if it starts
 * that process again and runs last ({@code RegionsFaultTests}).
 */
final class SharedStack implements ParameterResolver {

    /** The two-region stack instead of the plain one. */
    @Target(ElementType.PARAMETER)
    @Retention(RetentionPolicy.RUNTIME)
    @interface TwoRegionStack {}

    /**
     * A class that disturbs the stack it shares for a moment (booking's fault injection, which the coordinator's rate
     * control remembers for a while; a coordinator killed and started again): it runs after the other classes of its
     * stack, just before that stack stops.
     */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @interface DisturbsIt {}

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedStack.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == LocalStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        String name = nameOf(parameter.isAnnotated(TwoRegionStack.class));
        ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
        synchronized (SharedStack.class) {
            Running running = store.get(Running.class, Running.class);
            if (running != null && !running.name().equals(name)) {
                store.remove(Running.class);
                try {
                    running.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                running = null;
            }
            if (running == null) {
                running = Running.start(name);
                store.put(Running.class, running);
            }
            return running.stack();
        }
    }

    private static String nameOf(boolean regions) {
        return regions ? "shared-two-region-stack" : "shared-stack";
    }

    /**
     * The class order of deploy's tests (junit-platform.properties): the classes with stacks of their own first, then
     * those that share the plain stack, then those that share the two-region one, each group by name and those that
     * {@link DisturbsIt disturb their stack} after the rest of their group, so each shared
     * stack starts once and no class runs beside a shared stack that is still up (the last one is stopped only when
     * the run ends: a class after it counted its Redis processes and timed out under its load).
     */
    public static final class ByStack implements ClassOrderer {

        @Override
        public void orderClasses(ClassOrdererContext context) {
            context.getClassDescriptors()
                    .sort(Comparator.comparingInt((ClassDescriptor c) -> group(c.getTestClass()))
                            .thenComparing(c -> c.getTestClass().getName()));
        }

        private static int group(Class<?> type) {
            int last = type.isAnnotationPresent(DisturbsIt.class) ? 1 : 0;
            for (Method method : type.getDeclaredMethods()) {
                for (Parameter parameter : method.getParameters()) {
                    if (parameter.getType() == LocalStack.class && method.isAnnotationPresent(BeforeAll.class)) {
                        return (parameter.isAnnotationPresent(TwoRegionStack.class) ? 3 : 1) + last;
                    }
                }
            }
            return 0;
        }
    }

    /** A started stack and its data directory, stopped and deleted when JUnit closes the root store or another kind is asked for. */
    private record Running(LocalStack stack, Path dataDir, String name) implements AutoCloseable {

        static Running start(String name) {
            boolean regions = name.equals(nameOf(true));
            Path dataDir = null;
            try {
                dataDir = Files.createTempDirectory("waitroom-" + name);
                StackConfig config = regions
                        ? TwoRegions.config(dataDir, true)
                        : TestStacks.config(dataDir, TestPorts.free(6), StackConfig.ExternalStores.none())
                                .withSimulations(true);
                return new Running(LocalStack.start(config), dataDir, name);
            } catch (IOException | RuntimeException e) {
                keepLogs(dataDir, name);
                throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                keepLogs(dataDir, name);
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

        /** A failed start's logs, kept in {@code target/<name>} like a stopped stack's; the start's failure is thrown. */
        private static void keepLogs(Path dataDir, String name) {
            try {
                TestStacks.keepLogsAndDelete(dataDir, name);
            } catch (IOException e) {
                System.err.println("the " + name + "'s logs could not be kept: " + e);
            }
        }
    }
}
