package dev.waitroom.gateway.ratelimit;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.scripting.support.ResourceScriptSource;
import org.springframework.scripting.support.StaticScriptSource;
import org.springframework.stereotype.Component;

/**
 * Spring Cloud Gateway's {@code RedisRateLimiter} script comes from a {@link ResourceScriptSource},
 * which asks the resource for its last-modified time on every call to decide whether to hash it
 * again: inside a fat jar that opens a {@code JarURLConnection} per rate-limited request. The script
 * never changes at run time, so it is read once here and served as a static source (same text, same
 * SHA, still loaded into Redis on {@code NOSCRIPT}).
 */
@Component
class RateLimiterScriptPostProcessor implements BeanPostProcessor {

    static final String SCRIPT_BEAN = "redisRequestRateLimiterScript";

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (SCRIPT_BEAN.equals(beanName) && bean instanceof DefaultRedisScript<?> script) {
            script.setScriptSource(new StaticScriptSource(script.getScriptAsString()));
        }
        return bean;
    }
}
