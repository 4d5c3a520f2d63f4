package dev.waitroom.testsupport;

import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One {@link LocalRedis} set for a test class: started before the class's own {@code @BeforeAll} methods, closed
 * after its {@code @AfterAll} methods, and handed to any test method or lifecycle method that declares a parameter
 * of its type.
 *
 * <pre>
 * class SessionRegistryOnRedisClusterTests extends SessionRegistryTopologyScenarios {
 *
 *     &#64;RegisterExtension
 *     static final LocalRedisExtension&lt;LocalRedisCluster&gt; redis = LocalRedisExtension.cluster();
 * }
 * </pre>
 *
 * Register it on a {@code static} field, so that one set serves every test of the class.
 */
public final class LocalRedisExtension<R extends LocalRedis>
        implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private final Class<R> type;
    private final Supplier<R> starter;
    private volatile R redis;

    private LocalRedisExtension(Class<R> type, Supplier<R> starter) {
        this.type = type;
        this.starter = starter;
    }

    /** A three-master Redis Cluster ({@link LocalRedisCluster}). */
    public static LocalRedisExtension<LocalRedisCluster> cluster() {
        return new LocalRedisExtension<>(LocalRedisCluster.class, LocalRedisCluster::start);
    }

    /** A primary, two replicas and three sentinels ({@link LocalRedisSentinels}). */
    public static LocalRedisExtension<LocalRedisSentinels> sentinels() {
        return new LocalRedisExtension<>(LocalRedisSentinels.class, LocalRedisSentinels::start);
    }

    /** The running set. */
    public R get() {
        R running = redis;
        if (running == null) {
            throw new IllegalStateException("the local Redis set runs only while its test class does;"
                    + " register the extension on a static field");
        }
        return running;
    }

    /** {@link LocalRedis#springProperties()} of the running set. */
    public String[] springProperties() {
        return get().springProperties();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        redis = starter.get();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        R running = redis;
        redis = null;
        if (running != null) {
            running.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> wanted = parameter.getParameter().getType();
        return LocalRedis.class.isAssignableFrom(wanted) && wanted.isAssignableFrom(type);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return get();
    }
}
