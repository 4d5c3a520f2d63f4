package dev.waitroom.testsupport;

import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Points a Spring test context at the JVM's shared real PostgreSQL and Redis.
 *
 * <p>The database is named by {@code waitroom.test.database} (default {@code app}); Redis is shared, so tests keep
 * apart by using their own event ids.
 */
public final class RealStoresInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        String database = context.getEnvironment().getProperty("waitroom.test.database", "app");
        TestPropertyValues.of(
                        "spring.datasource.url=" + RealStores.postgresJdbcUrl(database),
                        "spring.datasource.username=" + RealStores.postgresUser(),
                        "spring.datasource.password=" + RealStores.postgresPassword(),
                        "spring.data.redis.host=" + RealStores.redisHost(),
                        "spring.data.redis.port=" + RealStores.redisPort())
                .applyTo(context);
    }
}
