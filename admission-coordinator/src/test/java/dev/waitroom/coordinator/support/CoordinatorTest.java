package dev.waitroom.coordinator.support;

import dev.waitroom.testsupport.RealStoresInitializer;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

/**
 * One shared Spring context for every integration test: real Postgres (database {@code coordinator}) and Redis,
 * random secrets, the in-memory queue side and a hand-moved clock. The scheduled ticker is off: tests tick by hand.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "waitroom.test.database=coordinator",
            "waitroom.coordinator.ticker-enabled=false",
            "waitroom.keys.publish-lead=0s",
            // an identity provider is configured, so ACCOUNT-scoped events can be made (docs/integration/accounts.md)
            "waitroom.accounts.issuer=https://accounts.test.invalid/realms/waitroom",
            "logging.level.dev.waitroom=INFO"
        })
@ContextConfiguration(initializers = {RealStoresInitializer.class, RandomSecretsInitializer.class})
@Import(TestStores.class)
public @interface CoordinatorTest {}
