package dev.waitroom.queue;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/** Hands a test a {@link QueueClient} for the service its Spring context started on a random port. */
final class QueueClientResolver implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == QueueClient.class;
    }

    @Override
    public QueueClient resolveParameter(ParameterContext parameter, ExtensionContext context) {
        int port = SpringExtension.getApplicationContext(context)
                .getEnvironment()
                .getRequiredProperty("local.server.port", Integer.class);
        return new QueueClient(port);
    }
}
