package dev.waitroom.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Every route an MVC service maps, read from its request mappings, for the services' malformed-request fuzz tests
 * (beside {@link BodyFuzzer}): a route added to a controller is fuzzed without anyone listing it.
 */
public final class MvcRoutes {

    private static final Pattern VARIABLE = Pattern.compile("\\{([^}/]+)}");

    private MvcRoutes() {}

    /** One route: method, pattern, and whether its handler reads a body (and requires one). */
    public record Route(String method, String pattern, boolean readsBody, boolean bodyRequired) {

        public String key() {
            return method + " " + pattern;
        }

        /** The pattern's path variables, in order. */
        public List<String> variables() {
            List<String> names = new ArrayList<>();
            Matcher m = VARIABLE.matcher(pattern);
            while (m.find()) {
                names.add(m.group(1));
            }
            return names;
        }
    }

    /** Every mapped route but {@code /error}, sorted by method and pattern; a mapping without methods is a POST. */
    public static List<Route> of(RequestMappingHandlerMapping mappings) {
        List<Route> routes = new ArrayList<>();
        for (Map.Entry<RequestMappingInfo, HandlerMethod> e :
                mappings.getHandlerMethods().entrySet()) {
            RequestMappingInfo info = e.getKey();
            Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
            RequestBody body = bodyOf(e.getValue());
            for (String pattern : info.getPatternValues()) {
                if (pattern.startsWith("/error")) {
                    continue;
                }
                for (RequestMethod method : methods.isEmpty() ? Set.of(RequestMethod.POST) : methods) {
                    routes.add(new Route(method.name(), pattern, body != null, body != null && body.required()));
                }
            }
        }
        routes.sort((a, b) -> a.key().compareTo(b.key()));
        return routes;
    }

    /** At most 40 characters of {@code s}, and its length when cut: for fault messages. */
    public static String abbreviated(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...(" + s.length() + ")";
    }

    private static RequestBody bodyOf(HandlerMethod handler) {
        for (var parameter : handler.getMethodParameters()) {
            RequestBody body = parameter.getParameterAnnotation(RequestBody.class);
            if (body != null) {
                return body;
            }
        }
        return null;
    }
}
